package io.sluice.core.spi;

import io.sluice.core.Message;

/**
 * A processor that runs chains of processors of its own: a router or a scope ({@code choice},
 * {@code foreach}, {@code scatter-gather}, {@code try}…). It does not run them itself: it tells the
 * flow, one {@link Step} at a time, which chain to run next and what to do with its result, and the
 * flow runs each processor of that chain the way it runs its own (under {@code auto}, CPU_LITE work
 * stays on the thread, blocking work goes to a virtual thread under the flow's limit). A scope that
 * waits (for parallel routes, a retry's backoff) holds no thread under {@code auto}.
 *
 * <p>A message's way through nested scopes uses no thread stack: the flow keeps their chains in a
 * stack of its own, on the heap. (Starting and stopping nested scopes written in a flow does
 * recurse, so hundreds of levels written by hand are fine and thousands would not be.)
 */
public interface Scope extends Processor {

  /** Where the scope starts for {@code message}: a chain to run, a wait, or its result at once. */
  Step enter(Message message) throws Exception;

  /**
   * Runs the scope outside a flow (a batch step, a direct call): every chain on the calling thread,
   * every wait blocking it.
   */
  @Override
  default Message process(Message message) throws Exception {
    return InlineSteps.run(this, message);
  }

  /**
   * Deciding where a message goes is routing work: the scope's chains declare their own types. A
   * scope whose wait is a call to a remote system (an HTTP request) says BLOCKING_IO: under {@code
   * auto} it then holds a permit of the flow's adaptive limit from its {@link #enter} until its
   * wait ends, and its outcome feeds the limit as a blocking processor's does; its {@code enter}
   * still runs on the thread holding the message and must not block.
   */
  @Override
  default ProcessingType processingType() {
    return ProcessingType.CPU_LITE;
  }
}
