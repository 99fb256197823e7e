-- Who wrote a receipt (issue 32). On PostgreSQL the server sets it to the session's login user; a
-- SQLite file has no users, so receipts written here say nobody ('') rather than a name nobody
-- checked. A receipt copied from a server keeps its author.
ALTER TABLE receipts ADD COLUMN written_by text NOT NULL DEFAULT '';

-- The ledger is append-only: a receipt is never changed or removed by Proofbench or by a tool that
-- goes through SQLite. Whoever can write the file can drop these; the hash chain still tells.
CREATE TRIGGER receipts_no_update BEFORE UPDATE ON receipts BEGIN SELECT RAISE(ABORT, 'the receipts ledger is append-only: UPDATE refused'); END;
CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts BEGIN SELECT RAISE(ABORT, 'the receipts ledger is append-only: DELETE refused'); END;
-- An author is a name shown in one line: at most 200 characters, no control characters.
CREATE TRIGGER receipts_author BEFORE INSERT ON receipts WHEN length(NEW.written_by) > 200 OR NEW.written_by GLOB ('*[' || char(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127) || ']*') BEGIN SELECT RAISE(ABORT, 'receipts.written_by: not a user name (over 200 characters, or a control character)'); END;
