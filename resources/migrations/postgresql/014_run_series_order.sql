-- run_series.seq: the order a check's points were written in (see the SQLite migration of the same
-- number). A database this migrates was made by the baseline and has its points in seq 0; a copy
-- from SQLite brings its seq values with it.
ALTER TABLE run_series ADD COLUMN seq bigint NOT NULL DEFAULT 0;
