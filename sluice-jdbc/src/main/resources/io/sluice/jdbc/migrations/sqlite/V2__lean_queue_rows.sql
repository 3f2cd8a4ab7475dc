-- A message's payload is deleted by the acknowledgement that deletes its message, in the same
-- transaction and one statement for all of them, instead of by a trigger run once per message.
DROP TRIGGER IF EXISTS sluice_queue_payload_delete;
