package io.sluice.batch.internal;

/** A block in flight through a run's steps, and whether it holds one of the run's places. */
final class Flight {
  BlockStore.Block block;
  boolean holdsSlot = true;
  boolean written;

  /**
   * Whether the block is through (its last move committed) or no longer this run's (a move found it
   * held under another lease): on a shared store, a block that leaves unsettled is let go, or no
   * node would run it while this node's lease holds.
   */
  boolean settled;

  Flight(BlockStore.Block block) {
    this.block = block;
  }
}
