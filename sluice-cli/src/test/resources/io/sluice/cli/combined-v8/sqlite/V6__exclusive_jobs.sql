-- Exclusive jobs: jobs with one exclusive key never run at the same time, and run in due order.
-- Null for a job without a key (and for every job stored before this version).
ALTER TABLE sluice_job ADD COLUMN exclusive_key TEXT;

-- The claim's index holds the jobs without a key only: their claim never walks past keyed jobs
-- (a claim read every waiting keyed job once the others were done).
DROP INDEX sluice_job_claim;
-- (The key is a column of it, null, so that SQLite reads the claim from the index alone.)
CREATE INDEX sluice_job_claim ON sluice_job (sort_key, due_at, type, exclusive_key)
  WHERE state = 0 AND exclusive_key IS NULL;
-- The keyed jobs that wait, in claim order: where a claim looks for the keys it may take (empty,
-- and so free to read, when no job has a key).
CREATE INDEX sluice_job_keyed_claim ON sluice_job (sort_key, due_at, type, exclusive_key)
  WHERE state = 0 AND exclusive_key IS NOT NULL;
-- A key's jobs by state and due order: whether one of them is claimed, and which come next.
CREATE INDEX sluice_job_key ON sluice_job (exclusive_key, state, due_at, id)
  WHERE exclusive_key IS NOT NULL;
