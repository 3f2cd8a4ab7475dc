-- A message's payload is deleted by the acknowledgement that deletes its message, in the same
-- transaction and one statement for all of them, instead of by a trigger run once per message.
DROP TRIGGER IF EXISTS sluice_queue_payload_delete;

-- Only entries with a time to live are purged by expiry: the index leaves the others out, so a put
-- without one (most of them) writes no entry in it.
DROP INDEX sluice_object_store_expiry;
CREATE INDEX sluice_object_store_expiry ON sluice_object_store (store, expires_at)
  WHERE expires_at IS NOT NULL;
