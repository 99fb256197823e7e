-- The files `perf import` parsed (issue 26), kept by their SHA-256 so a run can be traced to its exact
-- input and the input read back (`runs show RUN --source FILE`): zlib-compressed, in chunks of at most
-- 4 MiB so neither writing nor reading one needs the whole file in memory. One copy per digest, however
-- many runs name it.
CREATE TABLE run_sources (
    digest          TEXT    PRIMARY KEY,       -- sha256:<hex> of the original bytes
    size            INTEGER NOT NULL,          -- bytes of the original
    stored_size     INTEGER NOT NULL,          -- bytes of its chunks
    encoding        TEXT    NOT NULL,          -- 'zlib' (RFC 1950 stream over the chunks, in seq order)
    chunks          INTEGER NOT NULL,
    stored_at       TEXT    NOT NULL
);
CREATE TABLE run_source_chunks (
    digest          TEXT    NOT NULL REFERENCES run_sources (digest) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    data            BLOB    NOT NULL,
    PRIMARY KEY (digest, seq)
);
-- The run names its file by digest (written in the same transaction as the file's row; no foreign key, so the
-- column can be dropped like any other).
ALTER TABLE runs ADD COLUMN source_digest TEXT;
