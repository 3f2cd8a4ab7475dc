package io.sluice.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;

/**
 * Waits for SIGTERM or SIGINT. Handling the signals ourselves (instead of in a shutdown hook) lets
 * the command stop its flows gracefully and then exit with its own code, 0 after a clean stop,
 * where a shutdown hook would leave the JVM to exit with 143. A second signal during the drain
 * exits at once with code 1.
 */
final class ShutdownSignal {

  private final CountDownLatch received = new CountDownLatch(1);
  private final AtomicReference<String> name = new AtomicReference<>();
  private final Runnable onFirst;

  private ShutdownSignal(Runnable onFirst) {
    this.onFirst = onFirst;
  }

  /** Installs the handlers for TERM and INT. */
  static ShutdownSignal install() {
    return install(() -> {});
  }

  /**
   * Installs the handlers for TERM and INT; the first signal runs {@code onFirst} (on the JVM's
   * signal thread: it must return quickly) besides waking {@link #await()}.
   */
  static ShutdownSignal install(Runnable onFirst) {
    ShutdownSignal signal = new ShutdownSignal(onFirst);
    for (String which : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(which), s -> signal.receive("SIG" + s.getName()));
    }
    return signal;
  }

  private void receive(String signalName) {
    if (!name.compareAndSet(null, signalName)) {
      // A second signal while draining: the user wants out now.
      System.err.println(
          "sluice: "
              + signalName
              + " again: exiting now, without waiting for"
              + " messages in flight (files still in their directory are read at the next start)");
      Runtime.getRuntime().halt(ExitCodes.FAILED);
    }
    received.countDown();
    onFirst.run();
  }

  /** Blocks until a signal arrives; returns its name (SIGTERM or SIGINT). */
  String await() throws InterruptedException {
    received.await();
    return name.get();
  }
}
