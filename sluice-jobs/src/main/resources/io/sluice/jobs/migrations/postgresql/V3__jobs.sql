-- Durable jobs (sluice-jobs). Times on the application's clock are epoch milliseconds; leases are
-- measured on the database's clock.
--
-- One narrow row per unfinished job; its payload apart in sluice_job_payload, so a claim, a
-- failure or a reclaim rewrites a few bytes. state: 0 waiting, 1 running (claimed), 2 incident.
-- sort_key = due_at - priority * aging: the claim order, which lets a low priority job wait only
-- a bounded time. owner and epoch are the claiming node's lease: the fence of every completion.
CREATE TABLE sluice_job (
  id           BIGSERIAL PRIMARY KEY,
  type         TEXT     NOT NULL,
  priority     INTEGER  NOT NULL,
  due_at       BIGINT   NOT NULL,
  sort_key     BIGINT   NOT NULL,
  state        SMALLINT NOT NULL,
  owner        TEXT,
  epoch        BIGINT,
  retries_left INTEGER  NOT NULL,
  attempts     INTEGER  NOT NULL DEFAULT 0,
  unique_key   TEXT,
  created_at   BIGINT   NOT NULL
);

-- The one index that serves the claim: waiting jobs in claim order, due time and type read from
-- the index.
CREATE INDEX sluice_job_claim ON sluice_job (sort_key) INCLUDE (due_at, type) WHERE state = 0;
-- Running jobs by their lease: the reclaim of lapsed nodes and the fenced completions' scan.
CREATE INDEX sluice_job_running ON sluice_job (owner, epoch) WHERE state = 1;
-- At most one unfinished job per unique key.
CREATE UNIQUE INDEX sluice_job_unique ON sluice_job (unique_key) WHERE unique_key IS NOT NULL;

CREATE TABLE sluice_job_payload (
  id      BIGINT PRIMARY KEY,
  payload BYTEA  NOT NULL
);
ALTER TABLE sluice_job_payload ALTER COLUMN payload SET STORAGE EXTERNAL;

-- The last error of a job that failed; a job in state 2 is an incident and this is why.
CREATE TABLE sluice_job_error (
  id        BIGINT PRIMARY KEY,
  error     TEXT   NOT NULL,
  failed_at BIGINT NOT NULL
);

-- One row per executor node: its lease on the database's clock and its epoch (fencing token).
CREATE TABLE sluice_job_node (
  node          TEXT   PRIMARY KEY,
  lease_expires BIGINT NOT NULL,
  epoch         BIGINT NOT NULL
);
