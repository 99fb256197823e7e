# Issue #19 sections 1 and 2: AICR release verification (ops::verifyRelease, engine/release) and
# catalog versions bound to a release; real bundles and catalog from ../shared/data/aicr.
pb_add_test(tst_release SOURCES tst_release.cpp ../SigstoreCases.h LIBS pb_engine PkgConfig::LIBARCHIVE ENGINES sqlite postgresql)
add_dependencies(tst_release proofbench)
