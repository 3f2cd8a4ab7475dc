package io.sluice.core.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rate of each flow, from the counts {@link Operations} reads: every read of a flow's count is
 * kept, with when it was read, for {@link #WINDOW_NANOS}; the rate is the count's rise since the
 * oldest read kept, over the time between. The console reads every second, so the rate is that of
 * the last few seconds; nothing samples while nobody looks, and the first read of a flow has no
 * rate yet (0).
 */
final class FlowRates {

  /** How far back the reads a rate is measured over go. */
  static final long WINDOW_NANOS = 5_000_000_000L;

  private record Read(long at, long count) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Deque<Read>> reads = new HashMap<>();

  /** Records that {@code flow} had ended {@code count} messages at {@code now}; its rate per s. */
  double rate(String flow, long count, long now) {
    lock.lock();
    try {
      Deque<Read> kept = reads.computeIfAbsent(flow, f -> new ArrayDeque<>());
      // Keep one read older than the window so the rate spans the whole of it.
      while (kept.size() > 1) {
        Iterator<Read> oldestFirst = kept.iterator();
        oldestFirst.next();
        if (now - oldestFirst.next().at() < WINDOW_NANOS) {
          break;
        }
        kept.removeFirst();
      }
      if (kept.size() > 64) {
        kept.removeFirst(); // many readers at once: the window stays bounded anyway
      }
      kept.addLast(new Read(now, count));
      Read oldest = kept.getFirst();
      long elapsed = now - oldest.at();
      return elapsed <= 0 || count < oldest.count() ? 0 : (count - oldest.count()) * 1e9 / elapsed;
    } finally {
      lock.unlock();
    }
  }
}
