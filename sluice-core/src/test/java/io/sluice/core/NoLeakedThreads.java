package io.sluice.core;

import io.sluice.core.testing.SluiceThreads;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test kit's {@code NoLeakedThreads} for the core's own tests, which cannot have the test kit
 * (it depends on the core: a reactor cycle). Registered for every test class of the core by {@code
 * src/test/resources/META-INF/services/org.junit.jupiter.api.extension.Extension}; the check itself
 * is {@link SluiceThreads}, shared with the test kit's.
 */
public final class NoLeakedThreads
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(NoLeakedThreads.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put("watch", new SluiceThreads.Watch());
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    context.getStore(NS).put("test", watch(context).testStarting());
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterEach(ExtensionContext context) {
    watch(context)
        .testEnded(context.getStore(NS).get("test", List.class), context.getDisplayName());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    watch(context).classEnded(context.getDisplayName());
  }

  /** The class's watch (a test's store sees its class's values). */
  private static SluiceThreads.Watch watch(ExtensionContext context) {
    return context.getStore(NS).get("watch", SluiceThreads.Watch.class);
  }
}
