-- Why a dead letter is dead when its stored bytes could not be read (a checksum mismatch, a
-- truncated value, a class outside the allow-list): the take that met it dead-letters it at once
-- and writes the reason here. Its payload stays in sluice_queue_payload, as it was.
CREATE TABLE sluice_queue_dead (
  id     BIGINT PRIMARY KEY,
  reason TEXT   NOT NULL
);

-- How many records a batch block holds, so that a block whose stored records cannot be read
-- still counts them all as failed. Null for a block stored before this version.
ALTER TABLE sluice_batch_block ADD COLUMN record_count INTEGER;
