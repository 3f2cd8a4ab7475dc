package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.core.SluiceException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The loader's store thread, when storing a group throws an Error (a serializer's stack overflow,
 * an allocation refused): the loader is told at its next hand-over and the committer closes, rather
 * than the thread dying and the loader waiting for ever for room in the full queue. Every group
 * handed over is either stored or given back as dropped (the places the loader took for its blocks
 * go back with it).
 */
class ALoaderStoreThreadHitByAnErrorFailsTheLoadTest {

  @Test
  void theLoaderIsToldAndNothingWaitsForEver() {
    LoadCommitter.Group group = new LoadCommitter.Group(List.of(), 1);
    AtomicInteger handedOver = new AtomicInteger();
    AtomicInteger tried = new AtomicInteger();
    AtomicInteger dropped = new AtomicInteger();
    assertThatThrownBy(
            () ->
                assertTimeoutPreemptively(
                    Duration.ofSeconds(10),
                    () -> {
                      try (LoadCommitter committer =
                          LoadCommitter.behind(
                              groups -> {
                                tried.addAndGet(groups.size());
                                throw new StackOverflowError("storing");
                              },
                              groups -> dropped.addAndGet(groups.size()),
                              "load-error-test")) {
                        for (int i = 0; i < 4 * LoadCommitter.DEPTH; i++) {
                          committer.submit(group);
                          handedOver.incrementAndGet();
                        }
                      }
                    }))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("storing the loaded blocks failed")
        .hasMessageContaining("StackOverflowError: storing");
    assertThat(tried.get() + dropped.get()).isEqualTo(handedOver.get());
  }
}
