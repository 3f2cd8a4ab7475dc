package io.sluice.http;

import io.sluice.core.SluiceException;

/** An outbound call was answered with an error status (400 or more). */
public class HttpStatusException extends SluiceException {

  private final int status;

  /** The call to {@code url} was answered {@code status}. */
  public HttpStatusException(String method, String url, int status) {
    super(
        method
            + " "
            + url
            + " was answered "
            + status
            + "; set failOnErrorStatus false to handle error statuses in the flow instead");
    this.status = status;
  }

  /** The status the server answered. */
  public int status() {
    return status;
  }
}
