package io.sluice.batch;

import java.time.Instant;

/**
 * A failed record of a batch instance as the store keeps it (up to the job's {@code
 * keepFailedRecords} per instance): where it was in the input, where and why it failed, and a short
 * text of its payload.
 *
 * @param position its place in the input (a CSV file's line number, a generator's index); 0 for the
 *     row that stands for a stored block whose records cannot be read (the error says how many)
 * @param step the step that failed it, {@link BatchRecord#INPUT} when it could not be read, or
 *     {@link BatchRecord#OUTPUT} when the job's output could not write it
 * @param error why it failed
 * @param payload its payload as text, cut at {@value #PAYLOAD_CHARS} characters (an ellipsis then
 *     ends it); null when it had none
 * @param time when the commit that counted it failed was made
 */
public record BatchFailure(long position, String step, String error, String payload, Instant time) {

  /** How many characters of a payload's text are kept. */
  public static final int PAYLOAD_CHARS = 200;

  /** How many characters of an error are kept. */
  public static final int ERROR_CHARS = 2_000;
}
