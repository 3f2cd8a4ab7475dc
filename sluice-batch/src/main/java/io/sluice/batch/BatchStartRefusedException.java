package io.sluice.batch;

import io.sluice.core.SluiceException;

/**
 * A start of a batch job refused because an instance of it was started with the same key already: a
 * second would process the same input again. Names the job, the key, its instance and its state.
 * Also a resume refused ({@link BatchLauncher#resume(long)}): the instance is unknown, ended, of a
 * job the configuration does not declare, or runs (here or in another process); then there is no
 * key.
 */
public final class BatchStartRefusedException extends SluiceException {

  private static final long serialVersionUID = 1L;

  private final String job;
  private final String key;
  private final long instance;

  /** The refusal of a start of {@code job} with {@code key}, taken by {@code instance}. */
  public BatchStartRefusedException(String job, String key, long instance, String why) {
    this(
        "Batch job '"
            + job
            + "' was started with key '"
            + key
            + "' already: instance "
            + instance
            + " "
            + why
            + ". A second start with the same key would process the same input again, so it is"
            + " refused (its message fails, nothing of it is stored); give other input another"
            + " key",
        job,
        key,
        instance);
  }

  private BatchStartRefusedException(String message, String job, String key, long instance) {
    super(message);
    this.job = job;
    this.key = key;
    this.instance = instance;
  }

  /**
   * The refusal to resume {@code instance} of {@code job} (null when the instance is unknown)
   * because {@code why}; nothing changed.
   */
  public static BatchStartRefusedException resume(String job, long instance, String why) {
    return new BatchStartRefusedException(
        "Batch instance " + instance + " cannot be resumed here: " + why, job, null, instance);
  }

  /**
   * The refusal of a node to join {@code instance} of {@code job}, which other nodes run on the
   * shared store, and why.
   */
  public static BatchStartRefusedException join(String job, long instance, String why) {
    return new BatchStartRefusedException(
        "Batch job '" + job + "' cannot join instance " + instance + ", which " + why,
        job,
        null,
        instance);
  }

  /** The job; null when a resume named an unknown instance. */
  public String job() {
    return job;
  }

  /** The key the start gave; null for a refused resume. */
  public String key() {
    return key;
  }

  /** The instance that has the key. */
  public long instance() {
    return instance;
  }
}
