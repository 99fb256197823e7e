# issue #9 receipts tests
