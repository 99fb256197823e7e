-- The files `perf import` parsed (issue 26), kept by their SHA-256, zlib-compressed in chunks of at
-- most 4 MiB (see the SQLite migration of the same number).
CREATE TABLE run_sources (
    digest              text    PRIMARY KEY,
    size                bigint  NOT NULL,
    stored_size         bigint  NOT NULL,
    encoding            text    NOT NULL,
    chunks              bigint  NOT NULL,
    stored_at           text    NOT NULL
);
CREATE TABLE run_source_chunks (
    digest              text    NOT NULL REFERENCES run_sources (digest) ON DELETE CASCADE,
    seq                 bigint  NOT NULL,
    data                bytea   NOT NULL,
    PRIMARY KEY (digest, seq)
);
-- The chunks are compressed already.
ALTER TABLE run_source_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE runs ADD COLUMN source_digest text;
