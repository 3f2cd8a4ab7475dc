package io.sluice.jobs.spi;

import io.sluice.core.store.Require;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * A job to create in a {@link JobStore}: its type (which handler runs it), payload, priority, due
 * time, how many times it is retried after failing, and an optional unique key. Immutable; the
 * {@code with*} methods return a changed copy.
 *
 * @param type the handler's name: letters, digits, {@code . _ - :}, at most {@value
 *     #MAX_TYPE_LENGTH} characters
 * @param payload what the handler gets; stored through the storage's stored values
 * @param priority from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY}, higher runs first (aged:
 *     see {@link JobStore})
 * @param dueAt when it may run first; null means now on the store's clock
 * @param maxRetries how many times a failed run is retried before the job becomes an incident
 * @param uniqueKey null, or a key no other unfinished job has: creating a second job with it
 *     returns the first one's id and creates nothing
 * @param exclusiveKey null, or the key of the entity this job works on: jobs with the same
 *     exclusive key never run at the same time anywhere in the cluster, and run in due order; a
 *     node claims a key's due jobs together and runs them one after another (see {@link JobStore})
 */
public record NewJob(
    String type,
    Object payload,
    int priority,
    Instant dueAt,
    int maxRetries,
    String uniqueKey,
    String exclusiveKey) {

  /** The lowest priority. */
  public static final int MIN_PRIORITY = 0;

  /** The highest priority. */
  public static final int MAX_PRIORITY = 100;

  /** Retries of a failed job unless set: 3. */
  public static final int DEFAULT_MAX_RETRIES = 3;

  /** The longest job type. */
  public static final int MAX_TYPE_LENGTH = 200;

  /** The longest exclusive key. */
  public static final int MAX_EXCLUSIVE_KEY_LENGTH = 1000;

  private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9._:-]+");

  /** Checks every component; the message names the one that is wrong and its value. */
  public NewJob {
    type(type);
    Require.nonNull(payload, "payload");
    if (priority < MIN_PRIORITY || priority > MAX_PRIORITY) {
      throw new IllegalArgumentException(
          "priority must be from "
              + MIN_PRIORITY
              + " to "
              + MAX_PRIORITY
              + ", was "
              + priority
              + " (job type '"
              + type
              + "')");
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
    }
    if (uniqueKey != null) {
      Require.nonBlank(uniqueKey, "uniqueKey");
    }
    if (exclusiveKey != null) {
      Require.nonBlank(exclusiveKey, "exclusiveKey");
      if (exclusiveKey.length() > MAX_EXCLUSIVE_KEY_LENGTH) {
        throw new IllegalArgumentException(
            "exclusiveKey must be at most "
                + MAX_EXCLUSIVE_KEY_LENGTH
                + " characters, was "
                + exclusiveKey.length()
                + " (job type '"
                + type
                + "')");
      }
    }
  }

  /** A job with no exclusive key: see the canonical constructor. */
  public NewJob(
      String type, Object payload, int priority, Instant dueAt, int maxRetries, String uniqueKey) {
    this(type, payload, priority, dueAt, maxRetries, uniqueKey, null);
  }

  /** A job of {@code type} with {@code payload}: priority 0, due now, 3 retries, no unique key. */
  public static NewJob of(String type, Object payload) {
    return new NewJob(type, payload, MIN_PRIORITY, null, DEFAULT_MAX_RETRIES, null, null);
  }

  /** {@code type}, failing with a message naming the rule when it is not a valid job type. */
  public static String type(String type) {
    Require.nonBlank(type, "type");
    if (type.length() > MAX_TYPE_LENGTH || !TYPE.matcher(type).matches()) {
      throw new IllegalArgumentException(
          "job type '"
              + type
              + "' must be 1 to "
              + MAX_TYPE_LENGTH
              + " letters, digits, '.', '_', '-' or ':'");
    }
    return type;
  }

  /** This job with {@code value} as its priority. */
  public NewJob withPriority(int value) {
    return new NewJob(type, payload, value, dueAt, maxRetries, uniqueKey, exclusiveKey);
  }

  /** This job, due at {@code value} (null: now). */
  public NewJob withDueAt(Instant value) {
    return new NewJob(type, payload, priority, value, maxRetries, uniqueKey, exclusiveKey);
  }

  /** This job with {@code value} retries. */
  public NewJob withMaxRetries(int value) {
    return new NewJob(type, payload, priority, dueAt, value, uniqueKey, exclusiveKey);
  }

  /** This job with {@code value} as its unique key (null: none). */
  public NewJob withUniqueKey(String value) {
    return new NewJob(type, payload, priority, dueAt, maxRetries, value, exclusiveKey);
  }

  /**
   * This job with {@code value} as its exclusive key (null: none): jobs with one exclusive key run
   * one at a time in the cluster, in due order.
   */
  public NewJob withExclusiveKey(String value) {
    return new NewJob(type, payload, priority, dueAt, maxRetries, uniqueKey, value);
  }
}
