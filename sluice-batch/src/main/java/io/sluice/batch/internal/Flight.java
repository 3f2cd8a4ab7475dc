package io.sluice.batch.internal;

/** A block in flight through a run's steps, and whether it holds one of the run's places. */
final class Flight {
  BlockStore.Block block;
  boolean holdsSlot = true;
  boolean written;

  Flight(BlockStore.Block block) {
    this.block = block;
  }
}
