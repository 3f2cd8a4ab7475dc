-- Version 5 has two parts: this one and sluice-jdbc's (the reasons of dead letters); they were
-- one file while sluice-jdbc held every table. The runner applies both and records the version once.

-- How many records a batch block holds, so that a block whose stored records cannot be read
-- still counts them all as failed. Null for a block stored before this version.
ALTER TABLE sluice_batch_block ADD COLUMN record_count INTEGER;
