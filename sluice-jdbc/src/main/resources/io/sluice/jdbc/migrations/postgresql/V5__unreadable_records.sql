-- Why a dead letter is dead when its stored bytes could not be read (a checksum mismatch, a
-- truncated value, a class outside the allow-list): the take that met it dead-letters it at once
-- and writes the reason here. Its payload stays in sluice_queue_payload, as it was.
CREATE TABLE sluice_queue_dead (
  id     BIGINT PRIMARY KEY,
  reason TEXT   NOT NULL
);

-- (Version 5's other part, a batch block's record count, is sluice-batch's.)
