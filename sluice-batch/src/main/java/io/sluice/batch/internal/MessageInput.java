package io.sluice.batch.internal;

import io.sluice.batch.BatchInput;
import io.sluice.batch.BatchInputException;

/**
 * The input of a job whose records are the payload of the message that starts it ({@code input: {
 * message: {} }}): it has no records of its own. A start from a flow hands each instance the
 * message's records ({@link MessageRecords}); anything that opens this input itself (a {@code
 * sluice batch run}, a resume of an instance stopped while loading) has nothing to read, and is
 * told so.
 */
public final class MessageInput implements BatchInput {

  /** The one message input. */
  public static final MessageInput INSTANCE = new MessageInput();

  private MessageInput() {}

  @Override
  public String describe() {
    return "the payload of the message that starts it";
  }

  @Override
  public Reader open(long position) {
    throw new BatchInputException(
        "This batch job takes its records from the message that starts it (input: message): only"
            + " a flow's batch-execute can start it",
        null);
  }
}
