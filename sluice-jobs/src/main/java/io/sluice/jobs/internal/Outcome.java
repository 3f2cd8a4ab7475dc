package io.sluice.jobs.internal;

import io.sluice.jobs.spi.ClaimedJob;

/** How a run of a claimed job ended, waiting to be written back by the acquisition loop. */
sealed interface Outcome {

  /** The job this is the outcome of. */
  ClaimedJob job();

  /**
   * The handler returned: complete the job (in bulk with others). {@code inTransaction} when the
   * handler completed it in its own transaction already: then finding it gone is no refusal, and
   * finding it still held (the handler rolled back yet returned) completes it.
   */
  record Completed(ClaimedJob job, boolean inTransaction) implements Outcome {}

  /** The handler threw: retry after the backoff, or an incident. */
  record Failed(ClaimedJob job, String error) implements Outcome {}

  /** The payload could not be read: an incident at once. */
  record Unreadable(ClaimedJob job, String error) implements Outcome {}

  /** Never started (the node is stopping): hand it back. */
  record Released(ClaimedJob job) implements Outcome {}

  /**
   * Never started: claimed under a lease the node lost. Handed back, which is refused (and not
   * told) when another node reclaimed it already.
   */
  record Dropped(ClaimedJob job) implements Outcome {}
}
