package io.sluice.core;

import java.time.Duration;

/** Threading profiles for tests. */
final class Profiles {

  private Profiles() {}

  /** One thread, a queue of {@code queue}, and this exhausted action. */
  static ThreadingProfile oneThread(int queue, ExhaustedAction action) {
    return ThreadingProfile.builder()
        .maxThreadsActive(1)
        .maxQueue(queue)
        .exhaustedAction(action)
        .waitTimeout(Duration.ofMillis(300))
        .build();
  }

  static ThreadingProfile threads(int threads) {
    return ThreadingProfile.builder().maxThreadsActive(threads).maxQueue(100).build();
  }
}
