-- Issue #20: what a validation run could not delete from the cluster (its cleanup retried until a
-- limit), so the window and `proofbench runs leftovers` can show it and `runs cleanup` delete it
-- later; and, for a check that could not run or finish (`other`), the fault's class and the
-- Kubernetes reason (its message stays in run_checks.message).
CREATE TABLE run_leftovers (
    id              INTEGER PRIMARY KEY,
    run_id          INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    path            TEXT    NOT NULL,          -- the API path, e.g. /apis/batch/v1/namespaces/ns/jobs/name
    error           TEXT    NOT NULL DEFAULT '', -- why the last delete failed
    recorded_at     TEXT    NOT NULL,
    removed_at      TEXT,                      -- set by `runs cleanup` when it is gone
    UNIQUE (run_id, path)
);
CREATE INDEX run_leftovers_open ON run_leftovers (run_id) WHERE removed_at IS NULL;

ALTER TABLE run_checks ADD COLUMN cause TEXT NOT NULL DEFAULT '';
ALTER TABLE run_checks ADD COLUMN k8s_reason TEXT NOT NULL DEFAULT '';

-- Where an imported run's time came from: 'given' (--at), 'report' (the report records it) or
-- 'unknown' (started_at is then the import time, and history marks it); '' for cluster runs.
ALTER TABLE runs ADD COLUMN time_source TEXT NOT NULL DEFAULT '';
