-- Batch instances shared by the nodes of one store (PostgreSQL). A block is claimed by a node
-- under its lease (sluice_job_node, the job executor's: owner is the node, epoch the fencing
-- token); every move of a claimed block is fenced by both and by the lease being valid on the
-- database's clock, so a node that wakes after its lease lapsed commits nothing. A block whose
-- owner's lease lapsed is claimable by any node. loader and loader_epoch name the node reading the
-- instance's input under its lease: another node takes the loading over, from input_position,
-- once that lease lapses. definition_text is the readable form of the definition's fingerprint, so
-- that a node joining with other steps is told what differs. An embedded SQLite store has one
-- process: its blocks are never claimed and these columns stay empty.
ALTER TABLE sluice_batch_block ADD COLUMN owner TEXT;
ALTER TABLE sluice_batch_block ADD COLUMN epoch BIGINT;
ALTER TABLE sluice_batch_instance ADD COLUMN loader TEXT;
ALTER TABLE sluice_batch_instance ADD COLUMN loader_epoch BIGINT;
ALTER TABLE sluice_batch_instance ADD COLUMN definition_text TEXT;

-- Per instance and node: the records the node took through the last step (processed, of which
-- failed) and the blocks it took out, written by the same commit as the instance's totals: the
-- per-node breakdown of sluice batch list and the progress display.
CREATE TABLE sluice_batch_node (
  instance_id BIGINT NOT NULL,
  node        TEXT   NOT NULL,
  processed   BIGINT NOT NULL DEFAULT 0,
  failed      BIGINT NOT NULL DEFAULT 0,
  blocks      BIGINT NOT NULL DEFAULT 0,
  updated_at  BIGINT NOT NULL,
  PRIMARY KEY (instance_id, node)
);
