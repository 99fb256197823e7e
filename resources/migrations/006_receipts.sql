-- Receipts ledger (issue #9): placeholder, replaced by the receipts work.
SELECT 1;
