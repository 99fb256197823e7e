-- Receipts ledger (issue #9): one row per action, hash-chained (engine/receipts/Ledger.h defines the
-- canonical form and the hash). Rows are only ever appended; receipts verify recomputes the chain
-- from these columns, so an edited, deleted, inserted or reordered row is detected.
CREATE TABLE receipts (
    seq         INTEGER PRIMARY KEY,            -- 1, 2, 3, ... (position in the chain)
    kind        TEXT    NOT NULL,               -- catalog.import, evidence.check, verify, ...
    created_at  TEXT    NOT NULL,               -- UTC, ISO 8601 with milliseconds and Z
    version     TEXT    NOT NULL,               -- Proofbench version that wrote it
    parameters  TEXT    NOT NULL DEFAULT '{}',  -- canonical JSON, never secrets
    inputs      TEXT    NOT NULL DEFAULT '[]',  -- canonical JSON [{name, sha256, size}]
    outputs     TEXT    NOT NULL DEFAULT '[]',
    result      TEXT    NOT NULL CHECK (result IN ('ok', 'failed', 'partial')),
    message     TEXT    NOT NULL DEFAULT '',
    prev_hash   TEXT    NOT NULL,               -- 64 hex; 64 zeros for seq 1
    hash        TEXT    NOT NULL                -- sha256(prev_hash || canonical), 64 hex
);
CREATE INDEX receipts_kind ON receipts (kind, created_at);

-- The chain head as last written, so deleting the newest receipts is noticed as well.
CREATE TABLE receipts_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT    NOT NULL
);

-- External records (ConfigHub-style YAML receipts) read by `records import`: one row per file,
-- replaced when the same path is imported again with other bytes.
CREATE TABLE external_records (
    id           INTEGER PRIMARY KEY,
    path         TEXT    NOT NULL UNIQUE,       -- absolute path at import
    relative     TEXT    NOT NULL,              -- path below the imported directory
    kind         TEXT    NOT NULL,
    name         TEXT    NOT NULL DEFAULT '',   -- metadata.name
    sha256       TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    content      BLOB    NOT NULL,              -- the file verbatim
    fields       TEXT    NOT NULL DEFAULT '{}', -- the parsed document as JSON
    entry        TEXT    NOT NULL DEFAULT '',   -- recipe entry directory it belongs to
    imported_at  TEXT    NOT NULL
);
CREATE INDEX external_records_entry ON external_records (entry, kind);
