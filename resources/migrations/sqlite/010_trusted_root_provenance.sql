-- Where a trusted root came from when it was taken from a TUF repository (trusted-root update):
-- the repository copy verified, the anchor the root chain started from, the versions of every role
-- that vouched for the target, and the time expiry was checked against. Public metadata only. One
-- row per verified update (the same trusted_root.json bytes may be vouched for more than once).
CREATE TABLE trusted_root_provenance (
    id                  INTEGER PRIMARY KEY,
    trusted_root_id     INTEGER NOT NULL REFERENCES trusted_roots(id) ON DELETE CASCADE,
    repository          TEXT    NOT NULL,  -- absolute folder of the repository copy
    target_name         TEXT    NOT NULL,  -- trusted_root.json
    target_file         TEXT    NOT NULL,  -- the file read, relative to the repository
    anchor_name         TEXT    NOT NULL,  -- a path, or :/tuf/... for the root the app ships
    anchor_sha256       TEXT    NOT NULL,
    anchor_version      INTEGER NOT NULL,
    root_chain          TEXT    NOT NULL,  -- JSON array of the root versions accepted after the anchor
    root_version        INTEGER NOT NULL,
    root_expires        TEXT    NOT NULL,
    timestamp_version   INTEGER NOT NULL,
    timestamp_expires   TEXT    NOT NULL,
    snapshot_version    INTEGER NOT NULL,
    snapshot_expires    TEXT    NOT NULL,
    targets_version     INTEGER NOT NULL,
    targets_expires     TEXT    NOT NULL,
    signed_by           TEXT    NOT NULL,  -- "targets" or the delegated role that lists the target
    verification_time   TEXT    NOT NULL,  -- what expiry was checked against
    time_given          INTEGER NOT NULL,  -- 1: the user fixed it (--at), 0: the clock at the update
    verified_at         TEXT    NOT NULL   -- the clock when the update ran
);
CREATE INDEX trusted_root_provenance_by_root ON trusted_root_provenance(trusted_root_id);
