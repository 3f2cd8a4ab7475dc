-- The key a batch instance was started with (batch-execute's key: a file's name, a date, an
-- order's id), null when it was started without one. At most one instance of a job per key, across
-- every process on the store: a second start with the same key would process the same input again.
ALTER TABLE sluice_batch_instance ADD COLUMN input_key TEXT;
CREATE UNIQUE INDEX sluice_batch_instance_key ON sluice_batch_instance (job, input_key);
