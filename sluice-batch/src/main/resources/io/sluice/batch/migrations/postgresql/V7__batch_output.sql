-- How many bytes of a batch job's output file its commits count (sluice-batch BatchOutput): a
-- block leaves after its last step in the commit that sets this to the end of its lines, and a
-- resumed run cuts the file back to it. Null while the instance has not begun its output (or has
-- none).
ALTER TABLE sluice_batch_instance ADD COLUMN output_bytes BIGINT;
