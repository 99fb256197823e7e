# Issue 17 (registry, fetch, records, receipts operations): each operation through the CLI binary
# and as the window calls it (ops::Async), outcomes and receipts compared.
pb_add_test(tst_opsrecords SOURCES tst_opsrecords.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_opsrecords proofbench)
