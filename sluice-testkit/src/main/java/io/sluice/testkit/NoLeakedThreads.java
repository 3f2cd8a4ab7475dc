package io.sluice.testkit;

import io.sluice.core.testing.SluiceThreads;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class whose tests, or whose {@code @BeforeAll}, left a {@code sluice-} platform
 * thread alive (a pool not shut down, a listener not joined, a storage not closed) 5 s after the
 * class ended, naming each thread and the test that started it. A thread may live as long as what
 * started it: a test's pool until the test ends, a server the class starts (even one whose threads
 * start lazily, on a test's first request) until the class ends. Threads alive before the class are
 * not its doing; threads of JUnit, the JDK, HikariCP or the JDBC drivers are not Sluice's ({@link
 * SluiceThreads}).
 *
 * <p>Registered for every test class of a module that has the test kit on its test class path: this
 * jar lists it in {@code META-INF/services/org.junit.jupiter.api.extension.Extension} and the
 * parent POM turns on {@code junit.jupiter.extensions.autodetection.enabled} for Surefire. A
 * project of your own does the same to get it.
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
