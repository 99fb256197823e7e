# Deployment bundle generation (issue #21): AICR parity, determinism, real catalog.
pb_add_test(tst_bundlegen SOURCES tst_bundlegen.cpp LIBS pb_engine)
