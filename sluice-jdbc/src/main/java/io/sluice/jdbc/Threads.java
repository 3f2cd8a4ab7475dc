package io.sluice.jdbc;

/** What the storage's own threads (writer, listener) share. */
final class Threads {

  private Threads() {}

  /** Waits for {@code thread} to end, however often interrupted; keeps the interrupt. */
  static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
