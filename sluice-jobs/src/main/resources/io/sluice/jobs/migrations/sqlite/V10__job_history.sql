-- Job history: one row per job that ended, kept for sluice.jobs.history (7 days unless set) and
-- pruned in small batches by the first live node. state: 0 completed, 1 failed (the job became an
-- incident; an incident retried later and completed gets a completed row too). Times on the
-- application's clock, epoch milliseconds. id numbers the rows in the order they were written:
-- newest first is id descending, and a page goes on below the last id it showed.
CREATE TABLE sluice_job_history (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id        INTEGER NOT NULL,
  type          TEXT    NOT NULL,
  state         INTEGER NOT NULL,
  priority      INTEGER NOT NULL,
  unique_key    TEXT,
  exclusive_key TEXT,
  attempts      INTEGER NOT NULL,
  error         TEXT,
  node          TEXT,
  created_at    INTEGER NOT NULL,
  finished_at   INTEGER NOT NULL,
  payload_text  TEXT
);
-- A type's history, newest first. (No index on finished_at: the pruning reads the oldest rows by
-- id, and each index is one more write in every completion.)
CREATE INDEX sluice_job_history_type ON sluice_job_history (type, id);

-- The payload as text, written with the payload when history is kept, so that the history can be
-- searched without reading a payload back through its serializer. Null when history is off.
ALTER TABLE sluice_job_payload ADD COLUMN text TEXT;

-- A type's incidents: retried together in one statement.
CREATE INDEX sluice_job_incidents ON sluice_job (type) WHERE state = 2;
