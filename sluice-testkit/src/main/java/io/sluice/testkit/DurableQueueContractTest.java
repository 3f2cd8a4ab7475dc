package io.sluice.testkit;

import io.sluice.core.store.DurableQueue;
import io.sluice.core.store.QueueOptions;
import io.sluice.core.store.Storage;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/**
 * The contract every {@link DurableQueue} keeps, to extend once per {@link Storage}: FIFO takes
 * that lock; acks, nacks and releases fenced by the lock that took the message; redelivery when a
 * lock lapses; dead letters after {@link QueueOptions#maxDeliveries()}; competing owners that never
 * hold one message at once; queues of different names partitioned; and, for a storage that keeps
 * what it wrote, messages that survive closing and opening it again.
 *
 * <p>A subclass gives a new, empty storage ({@link #newStorage}) and, when it keeps anything, the
 * same storage opened again ({@link #reopen}). Lock expiries and delays are measured on the parts'
 * manual clock, which moves only when a test moves it; only the wait of {@link
 * DurableQueue#take(int, Duration)} is real time.
 *
 * <p>Its parts ({@link QueueTakeContract}, {@link QueueLockContract}) run as its nested classes,
 * each test on a new storage this class makes.
 */
public abstract class DurableQueueContractTest {

  /** A new, empty storage whose stores use this clock. Called before each test. */
  protected abstract Storage newStorage(Clock clock) throws Exception;

  /** The same storage opened again after close(), or null when it keeps nothing (memory). */
  protected Storage reopen(Clock clock) throws Exception {
    return null;
  }

  /** {@link QueueTakeContract} on this implementation. */
  @Nested
  public class Takes extends QueueTakeContract {
    @Override
    protected DurableQueueContractTest implementation() {
      return DurableQueueContractTest.this;
    }
  }

  /** {@link QueueLockContract} on this implementation. */
  @Nested
  public class Locks extends QueueLockContract {
    @Override
    protected DurableQueueContractTest implementation() {
      return DurableQueueContractTest.this;
    }
  }

  /** {@link DeadLetterContract} on this implementation. */
  @Nested
  public class DeadLetters extends DeadLetterContract {
    @Override
    protected DurableQueueContractTest implementation() {
      return DurableQueueContractTest.this;
    }
  }
}
