-- The failed records of batch instances: one row per record that failed (at a step, at the input,
-- or at the output), written by the commit that adds it to the instance's failed count, so a
-- killed process leaves no count without its rows and a resumed run writes none twice. position
-- is its place in the input (a CSV line; 0 for a row standing for a stored block that cannot be
-- read), step where it failed ('input', 'output' or a step's name), error why, payload a short
-- text of what it held (cut at 200 characters), failed_at the commit's time (epoch milliseconds).
-- An instance keeps at most keep_failed_records rows (the job's keepFailedRecords, set by each run
-- as it begins); failures_kept counts them, and beyond the bound only the failed count grows.
CREATE TABLE sluice_batch_failure (
  instance_id BIGINT NOT NULL,
  position    BIGINT NOT NULL,
  step        TEXT   NOT NULL,
  error       TEXT   NOT NULL,
  payload     TEXT,
  failed_at   BIGINT NOT NULL
);
CREATE INDEX sluice_batch_failure_position ON sluice_batch_failure (instance_id, position);
ALTER TABLE sluice_batch_instance ADD COLUMN failures_kept BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sluice_batch_instance ADD COLUMN keep_failed_records BIGINT NOT NULL DEFAULT 1000;
