-- The test module's part of version 5.
ALTER TABLE widget ADD COLUMN colour TEXT;
