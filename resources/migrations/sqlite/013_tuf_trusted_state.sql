-- What the TUF client trusts between updates (trusted-root update; specification 5.2-5.4): per trust
-- lineage, keyed by the sha256 of the anchor its root chain started from, the latest verified
-- root.json (its bytes) and the versions and expiries of the other roles from the last successful
-- update, so that a later update refuses an older repository state (a rollback) and its root chain
-- starts from the latest trusted root, not the anchor. Written in the same transaction as the
-- imported trusted root and its provenance row. Public metadata only.
CREATE TABLE tuf_trusted_state (
    anchor_sha256       TEXT    PRIMARY KEY,
    anchor_name         TEXT    NOT NULL,  -- a path, or :/tuf/... for the root the app ships (shown)
    repository          TEXT    NOT NULL,  -- the folder the last update read (shown, not a key)
    root_version        INTEGER NOT NULL,
    root_expires        TEXT    NOT NULL,
    root_json           BLOB    NOT NULL,  -- the latest verified root.json, byte for byte
    root_sha256         TEXT    NOT NULL,
    timestamp_version   INTEGER NOT NULL,
    timestamp_expires   TEXT    NOT NULL,
    snapshot_version    INTEGER NOT NULL,
    snapshot_expires    TEXT    NOT NULL,
    snapshot_meta       TEXT    NOT NULL,  -- JSON object: each metadata file the snapshot lists -> its version
    targets_version     INTEGER NOT NULL,
    targets_expires     TEXT    NOT NULL,
    delegations         TEXT    NOT NULL,  -- JSON object: delegated role loaded -> {"version", "expires", "file"}
    verification_time   TEXT    NOT NULL,  -- what expiry was checked against in that update
    time_given          INTEGER NOT NULL,
    provenance_id       INTEGER REFERENCES trusted_root_provenance(id) ON DELETE SET NULL,
    updated_at          TEXT    NOT NULL   -- the clock when that update ran ("trusted since")
);

-- How each update's root chain started: 'anchor' (no trusted state yet for that anchor),
-- 'trusted-state' (continued from it), 'anchor-requested' (--from-anchor: the state was ignored, and
-- replaced by this update's). trusted_state: the state it continued from or ignored, as a summary.
ALTER TABLE trusted_root_provenance ADD COLUMN started_from TEXT NOT NULL DEFAULT 'anchor';
ALTER TABLE trusted_root_provenance ADD COLUMN trusted_state TEXT;
