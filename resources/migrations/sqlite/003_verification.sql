-- Trusted roots (public Sigstore trust material, never secrets) and the results of offline
-- verifications, so an auditor's verdicts survive the session and attach to evidence bundles.

CREATE TABLE trusted_roots (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,             -- file name it was imported from
    source_path     TEXT,                         -- absolute path it was imported from (for copy-as-command)
    sha256          TEXT    NOT NULL UNIQUE,      -- of the verbatim bytes
    content         BLOB    NOT NULL,
    is_default      INTEGER NOT NULL DEFAULT 0,
    imported_at     TEXT    NOT NULL
);

CREATE TABLE verifications (
    id                  INTEGER PRIMARY KEY,
    bundle_file         TEXT    NOT NULL,
    bundle_sha256       TEXT    NOT NULL,
    artifact_digest     TEXT,                     -- sha256:<hex> verified against
    mode                TEXT    NOT NULL,         -- identity | key
    policy              TEXT    NOT NULL,         -- JSON: the identity/issuer (or key) required
    trusted_root_sha256 TEXT,
    verified            INTEGER NOT NULL,
    summary             TEXT    NOT NULL,         -- "verified" or the first failed step
    signer_identity     TEXT,                     -- found in the certificate
    signer_issuer       TEXT,
    result              TEXT    NOT NULL,         -- JSON: every step, certificate, log entries, timestamps
    evidence_bundle_id  INTEGER REFERENCES evidence_bundles(id) ON DELETE SET NULL,
    verified_at         TEXT    NOT NULL
);
CREATE INDEX verifications_by_bundle ON verifications(bundle_sha256);
CREATE INDEX verifications_by_evidence ON verifications(evidence_bundle_id);

-- The signature verdict of an evidence bundle's attestation: NULL not checked (no trusted root, or
-- unsigned), 1 verified, 0 failed; detail says which step failed or who signed.
ALTER TABLE evidence_bundles ADD COLUMN signature_verified INTEGER;
ALTER TABLE evidence_bundles ADD COLUMN signature_detail TEXT;
