package io.sluice.core.app;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.util.concurrent.TimeUnit;

/**
 * Percentiles read from a timer's histogram buckets (the flow timers publish a percentile
 * histogram, not computed percentiles): the upper bound of the bucket that holds the asked share of
 * the timed messages, so a figure is at most one bucket above the true one: Micrometer's buckets
 * widen by up to a third each, so a figure may be up to a third high.
 */
final class Latency {

  private Latency() {}

  /**
   * The {@code quantile} (0 to 1) of {@code snapshot} in milliseconds; null when it timed nothing
   * or has no buckets.
   */
  static Double percentile(HistogramSnapshot snapshot, double quantile) {
    if (snapshot == null || snapshot.count() == 0) {
      return null;
    }
    CountAtBucket[] buckets = snapshot.histogramCounts();
    if (buckets.length == 0) {
      return null;
    }
    double wanted = quantile * snapshot.count();
    double seen = 0;
    for (CountAtBucket bucket : buckets) {
      // The counts are cumulative (each bucket counts every value up to its bound).
      seen = Math.max(seen, bucket.count());
      if (seen >= wanted) {
        return bucket.bucket(TimeUnit.MILLISECONDS);
      }
    }
    return snapshot.max(TimeUnit.MILLISECONDS);
  }
}
