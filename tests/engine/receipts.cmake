# Issue #9: the receipts ledger (canonical form, receipts from every action through the CLI, tamper
# detection with the sqlite3 tool, signed head) and ConfigHub external records.
pb_add_test(tst_receipts SOURCES tst_receipts.cpp CatalogFixture.h BundleFixture.h ../SigstoreCases.h LIBS pb_engine PkgConfig::LIBARCHIVE ENGINES sqlite postgresql)
add_dependencies(tst_receipts proofbench)
pb_add_test(tst_records SOURCES tst_records.cpp ../SigstoreCases.h LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_records proofbench)
