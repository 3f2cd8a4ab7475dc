package io.sluice.batch.internal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.core.SluiceException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader's store thread, when storing a group throws an Error (a serializer's stack overflow,
 * an allocation refused): the loader is told at its next hand-over and the committer closes, rather
 * than the thread dying and the loader waiting for ever for room in the full queue.
 */
class ALoaderStoreThreadHitByAnErrorFailsTheLoadTest {

  @Test
  void theLoaderIsToldAndNothingWaitsForEver() {
    LoadCommitter.Group group = new LoadCommitter.Group(List.of(), 1);
    assertThatThrownBy(
            () ->
                assertTimeoutPreemptively(
                    Duration.ofSeconds(10),
                    () -> {
                      try (LoadCommitter committer =
                          LoadCommitter.behind(
                              groups -> {
                                throw new StackOverflowError("storing");
                              },
                              "load-error-test")) {
                        for (int i = 0; i < 4 * LoadCommitter.DEPTH; i++) {
                          committer.submit(group);
                        }
                      }
                    }))
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("storing the loaded blocks failed")
        .hasMessageContaining("StackOverflowError: storing");
  }
}
