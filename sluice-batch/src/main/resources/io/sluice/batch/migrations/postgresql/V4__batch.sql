-- Batch jobs (sluice-batch). Times are epoch milliseconds on the application's clock.
--
-- One row per instance of a batch job: its state (0 loading, 1 running, 2 stopped, 3 completed,
-- 4 failed), how far its input was read (the position to resume reading from), and its totals:
-- records loaded, failed (at any step or in the input), and through every step (processed), of
-- which successful (never failed). stop_requested is set by a process that wants the instance to
-- stop (sluice batch stop): the process running it looks every few hundred milliseconds, stops
-- dispatching blocks, and clears it when it ends or the instance is resumed.
CREATE TABLE sluice_batch_instance (
  id             BIGSERIAL PRIMARY KEY,
  job            TEXT     NOT NULL,
  definition     TEXT     NOT NULL,
  state          SMALLINT NOT NULL,
  input_done     BOOLEAN  NOT NULL DEFAULT FALSE,
  input_position BIGINT   NOT NULL DEFAULT 0,
  loaded         BIGINT   NOT NULL DEFAULT 0,
  failed         BIGINT   NOT NULL DEFAULT 0,
  processed      BIGINT   NOT NULL DEFAULT 0,
  successful     BIGINT   NOT NULL DEFAULT 0,
  created_at     BIGINT   NOT NULL,
  updated_at     BIGINT   NOT NULL,
  result         TEXT,
  stop_requested BOOLEAN  NOT NULL DEFAULT FALSE
);
CREATE INDEX sluice_batch_instance_job ON sluice_batch_instance (job, id);

-- One row per block of records not through every step yet: step is the next step to run; the
-- records (payloads, and each one's failure) are one stored value. Moving a block to its next
-- step rewrites this row and adds the step's counts in one transaction.
CREATE TABLE sluice_batch_block (
  instance_id BIGINT  NOT NULL,
  block_no    BIGINT  NOT NULL,
  step        INTEGER NOT NULL,
  records     BYTEA   NOT NULL,
  PRIMARY KEY (instance_id, block_no)
);

-- Per instance and step: records the step took (accepted), those it failed, and those it let
-- pass by (not accepted).
CREATE TABLE sluice_batch_step (
  instance_id BIGINT  NOT NULL,
  step        INTEGER NOT NULL,
  processed   BIGINT  NOT NULL DEFAULT 0,
  failed      BIGINT  NOT NULL DEFAULT 0,
  skipped     BIGINT  NOT NULL DEFAULT 0,
  PRIMARY KEY (instance_id, step)
);
