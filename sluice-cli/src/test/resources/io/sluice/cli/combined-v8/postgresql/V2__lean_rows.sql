-- A message's payload is deleted by the acknowledgement that deletes its message, in the same
-- transaction, so the foreign key is dropped: its per-row triggers (a check on every payload
-- insert, a cascade on every message delete) cost about half of the database time of an enqueue
-- and an acknowledgement.
ALTER TABLE sluice_queue_payload DROP CONSTRAINT IF EXISTS sluice_queue_payload_id_fkey;

-- Stored values are already serialized, and compressed when their serializer has a codec: the
-- server keeps them out of line without compressing them again (pglz on every value over 2 KB
-- cost the server more CPU than the serializer it follows; choose a codec to compress).
ALTER TABLE sluice_queue_payload ALTER COLUMN payload SET STORAGE EXTERNAL;
ALTER TABLE sluice_object_store ALTER COLUMN value SET STORAGE EXTERNAL;

-- Only entries with a time to live are purged by expiry: the index leaves the others out, so a put
-- without one (most of them) writes no entry in it.
DROP INDEX sluice_object_store_expiry;
CREATE INDEX sluice_object_store_expiry ON sluice_object_store (store, expires_at)
  WHERE expires_at IS NOT NULL;
