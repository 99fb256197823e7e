-- run_series.seq: the order a check's points were written in. A size measured twice keeps the
-- point written last; that order was the table's own storage order, which SQLite keeps (rowid) but
-- a PostgreSQL heap and either engine's sort do not promise. Rows already stored take their rowid.
ALTER TABLE run_series ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE run_series SET seq = rowid;
