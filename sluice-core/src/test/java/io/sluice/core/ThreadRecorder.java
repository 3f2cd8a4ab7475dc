package io.sluice.core;

import io.sluice.core.spi.ProcessingType;
import io.sluice.core.spi.Processor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A processor that passes messages on and remembers the thread of each call. */
final class ThreadRecorder implements Processor {

  private final String name;
  private final ProcessingType type;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  ThreadRecorder(String name, ProcessingType type) {
    this.name = name;
    this.type = type;
  }

  @Override
  public Message process(Message message) {
    threads.add(Thread.currentThread());
    return message.withVariable(name, Thread.currentThread().getName());
  }

  List<Thread> threads() {
    return threads;
  }

  List<String> threadNames() {
    return threads.stream().map(Thread::getName).toList();
  }

  @Override
  public ProcessingType processingType() {
    return type;
  }

  @Override
  public String name() {
    return name;
  }
}
