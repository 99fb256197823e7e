# Deployment bundle generation (issue #21): AICR parity, determinism, real catalog.
pb_add_test(tst_bundlegen SOURCES tst_bundlegen.cpp LIBS pb_engine ENGINES sqlite postgresql)
# Digest index of a generated bundle, checked by records check (issue #21).
pb_add_test(tst_bundleindex SOURCES tst_bundleindex.cpp LIBS pb_engine ENGINES sqlite postgresql)
