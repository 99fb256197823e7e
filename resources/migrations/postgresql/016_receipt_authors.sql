-- Who wrote a receipt (issue 32): the session's login user (session_user), checked by the server,
-- not merely claimed by the client. A receipt that names anybody else (or nobody) is refused, unless
-- the writer is the table's owner (or a superuser) copying a ledger with `db copy`, whose receipts keep
-- their authors (a SQLite file's receipts have none).
ALTER TABLE receipts ADD COLUMN written_by text NOT NULL DEFAULT '';

CREATE FUNCTION receipts_author() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF length(NEW.written_by) > 200 OR NEW.written_by ~ '[\x01-\x1f\x7f]' THEN
        RAISE EXCEPTION 'receipts.written_by: not a user name (over 200 characters, or a control character)'
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.written_by IS DISTINCT FROM session_user::text
       AND NOT pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'MEMBER') THEN
        RAISE EXCEPTION 'receipts.written_by: a receipt written by % must name % as its writer, not "%"',
            session_user, session_user, NEW.written_by
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER receipts_author BEFORE INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION receipts_author();

-- The ledger is append-only for every role, the owner included. A superuser can still switch
-- triggers off (session_replication_role); the hash chain then shows what was changed.
CREATE FUNCTION receipts_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the receipts ledger is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER receipts_no_update BEFORE UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION receipts_append_only();
CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION receipts_append_only();
CREATE TRIGGER receipts_no_truncate BEFORE TRUNCATE ON receipts FOR EACH STATEMENT EXECUTE FUNCTION receipts_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON receipts FROM PUBLIC;
