package io.sluice.core;

import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a {@code sluice-} platform thread alive (a pool not shut down, a
 * listener not joined). Threads alive before the test are not its doing and are ignored.
 */
public final class NoLeakedThreads implements BeforeEachCallback, AfterEachCallback {

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(NoLeakedThreads.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("before", SluiceThreads.alive("sluice-"));
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterEach(ExtensionContext context) {
    List<Thread> before = context.getStore(NS).get("before", List.class);
    SluiceThreads.assertNoneLeft(
        () -> SluiceThreads.startedSince(before), "threads started by the test");
  }
}
