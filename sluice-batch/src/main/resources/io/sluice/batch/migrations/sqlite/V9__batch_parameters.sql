-- The parameters a batch instance was started with (the starting message's variables, or sluice
-- batch run --param name=value), one stored value written by the application's serializer; null
-- when it was started without any. Every record's message carries them as variables, on every
-- start of the instance (a resume reads them back).
ALTER TABLE sluice_batch_instance ADD COLUMN parameters BLOB;
