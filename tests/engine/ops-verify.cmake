# Issue 17: verify and verify --batch as operations (ops/Verify, ops/VerifyBatch, ops/TrustedRoots).
pb_add_test(tst_opsverify SOURCES tst_opsverify.cpp ../SigstoreCases.h LIBS pb_engine ENGINES sqlite postgresql)
