package io.sluice.http.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one Netty engine of the process: a group of event loops, one per core, that every HTTP server
 * and the requester share. It starts with its first user and stops after its last.
 */
public final class NettyEngine {

  private static final ReentrantLock LOCK = new ReentrantLock();
  private static EventLoopGroup group;
  private static int users;

  private NettyEngine() {}

  /** The shared event loops; call {@link #release()} once when done with them. */
  public static EventLoopGroup acquire() {
    LOCK.lock();
    try {
      if (group == null) {
        group =
            new MultiThreadIoEventLoopGroup(
                Math.max(2, Runtime.getRuntime().availableProcessors()),
                threads(),
                NioIoHandler.newFactory());
      }
      users++;
      return group;
    } finally {
      LOCK.unlock();
    }
  }

  /** Gives the event loops back; the last user stops them. */
  public static void release() {
    EventLoopGroup stopping;
    LOCK.lock();
    try {
      if (--users > 0) {
        return;
      }
      stopping = group;
      group = null;
    } finally {
      LOCK.unlock();
    }
    // Everything was closed by its user already: nothing is left to finish quietly. An event loop
    // cannot wait for its own group to end; any other thread does, so no thread outlives a stop.
    var terminated = stopping.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    boolean onEventLoop = false;
    for (EventExecutor loop : stopping) {
      onEventLoop |= loop.inEventLoop();
    }
    if (!onEventLoop) {
      terminated.syncUninterruptibly();
    }
  }

  private static ThreadFactory threads() {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "sluice-http-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
