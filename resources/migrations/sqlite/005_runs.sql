-- Validation runs (issue #8): a run against a cluster, or results a user imported (`perf import`).
-- A run row is written when it starts and updated as each check ends, so a run that fails, is
-- cancelled or whose process dies is kept with what it measured. Credentials are never stored:
-- only the kubeconfig context's name and the server URL.
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    run_uid         TEXT    NOT NULL UNIQUE,
    source          TEXT    NOT NULL CHECK (source IN ('cluster', 'import')),
    state           TEXT    NOT NULL,          -- running, passed, failed, cancelled, error, readiness-failed, imported
    reason          TEXT    NOT NULL DEFAULT '',
    recipe_name     TEXT    NOT NULL DEFAULT '',
    coordinate      TEXT    NOT NULL DEFAULT '', -- what history groups by: the recipe name or --coordinate
    catalog_version TEXT    NOT NULL DEFAULT '',
    criteria        TEXT    NOT NULL DEFAULT '{}', -- JSON
    context         TEXT    NOT NULL DEFAULT '',
    server          TEXT    NOT NULL DEFAULT '',
    namespace       TEXT    NOT NULL DEFAULT '',
    phases          TEXT    NOT NULL DEFAULT '',   -- comma-separated, in run order
    tool_version    TEXT    NOT NULL DEFAULT '',
    started_at      TEXT    NOT NULL,
    finished_at     TEXT,
    snapshot_yaml   BLOB,
    readiness       TEXT    NOT NULL DEFAULT '[]', -- JSON list of constraint checks
    evidence_dir    TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX runs_coordinate ON runs (coordinate, started_at);

CREATE TABLE run_checks (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    phase           TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    state           TEXT    NOT NULL,          -- pending, running, passed, failed, skipped, other
    exit_code       INTEGER,
    message         TEXT    NOT NULL DEFAULT '',
    image           TEXT    NOT NULL DEFAULT '',
    job             TEXT    NOT NULL DEFAULT '',
    pod             TEXT    NOT NULL DEFAULT '',
    started_at      TEXT,
    finished_at     TEXT,
    duration_ms     INTEGER NOT NULL DEFAULT 0,
    log             BLOB,
    result_lines    TEXT    NOT NULL DEFAULT '[]', -- JSON list of RESULT: lines
    extra           TEXT    NOT NULL DEFAULT '{}', -- the ##AICR-EXTRA## object
    verdict         TEXT,                          -- our scoring: passed, failed, skipped (NULL: not scored)
    score_message   TEXT    NOT NULL DEFAULT '',
    detail          TEXT    NOT NULL DEFAULT '{}', -- parsed summary (NCCL footer, versions, transport; inference format)
    UNIQUE (run_id, name)
);

CREATE TABLE run_metrics (
    id              INTEGER PRIMARY KEY,
    check_id        INTEGER NOT NULL REFERENCES run_checks (id) ON DELETE CASCADE,
    name            TEXT    NOT NULL,          -- busbw, output-throughput, ttft-p99, ...
    unit            TEXT    NOT NULL,
    value           REAL    NOT NULL,
    constraint_text TEXT,
    threshold       REAL,
    effective       REAL,
    pass            INTEGER NOT NULL
);
CREATE INDEX run_metrics_check ON run_metrics (check_id);

-- Every point of every measured series: NCCL rows by message size, inference distributions by
-- percentile (x = 50, 90, 95, 99; avg as x = 0, min -1, max 100).
CREATE TABLE run_series (
    check_id        INTEGER NOT NULL REFERENCES run_checks (id) ON DELETE CASCADE,
    series          TEXT    NOT NULL,          -- nccl.oop.busbw, nccl.ip.busbw, nccl.oop.algbw, nccl.ip.algbw, nccl.oop.time, nccl.ip.time, ttft, itl, latency
    x               REAL    NOT NULL,
    y               REAL    NOT NULL
);
CREATE INDEX run_series_check ON run_series (check_id, series);
