-- Signing keys known to this database: public halves and fingerprints only. Private keys live in
-- their own encrypted files and are never stored here.
CREATE TABLE signing_keys (
    id              INTEGER PRIMARY KEY,
    fingerprint     TEXT    NOT NULL UNIQUE,  -- base64 SHA-256 of the SPKI, the bundle's publicKey hint
    public_pem      TEXT    NOT NULL,
    label           TEXT    NOT NULL,         -- file name it was created or imported as
    created_at      TEXT    NOT NULL
);
