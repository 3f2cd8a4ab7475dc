-- A batch job's output file across nodes (PostgreSQL). A node that takes a block through its last
-- step leaves the block's output lines (UTF-8) in its row, the step moved past the last and the
-- records emptied, with its counts committed; no node claims it again. The node that writes the
-- output (writer, writer_epoch: under its node lease, as the loader) appends the lines of the
-- blocks in block order, forces the file, and deletes their rows in the commit that sets
-- output_bytes, fenced by its lease; another node takes the writing over once that lease lapses.
-- An embedded SQLite store has one process, which writes its lines itself: these stay empty.
ALTER TABLE sluice_batch_block ADD COLUMN lines BLOB;
ALTER TABLE sluice_batch_instance ADD COLUMN writer TEXT;
ALTER TABLE sluice_batch_instance ADD COLUMN writer_epoch BIGINT;
