-- Result bodies leave the text column (ADR 0017). A result's JSON is kept as
-- bytes: by PostgreSQL in the row (result_body), by the embedded store in a
-- file of its own beside the database (result_file, under sluice.data-dir),
-- since multi-megabyte rows are what made the embedded store stall.
-- result_size is the body's length in bytes. Rows written before this
-- migration keep their body in the old result column and are read from there.
ALTER TABLE dispatches ADD COLUMN result_body BYTEA;
ALTER TABLE dispatches ADD COLUMN result_file VARCHAR(255);
ALTER TABLE dispatches ADD COLUMN result_size BIGINT;
