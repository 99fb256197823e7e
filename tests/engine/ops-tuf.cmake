# Issue 19 section 3: a trust root from TUF, offline (engine/tuf, ops/TrustedRootUpdate, the CLI).
pb_add_test(tst_tuf SOURCES tst_tuf.cpp TufFixture.h LIBS pb_engine)
pb_add_test(tst_tufupdate SOURCES tst_tufupdate.cpp TufFixture.h LIBS pb_engine ENGINES sqlite postgresql)
# tuf-js for the interop test: tools/bootstrap.sh installs tests/interop/tuf-js (pinned by its
# package-lock.json) here with `npm ci`; without node or the package the test skips with a message.
pb_add_test(tst_tufinterop SOURCES tst_tufinterop.cpp TufFixture.h LIBS pb_engine)
target_compile_definitions(tst_tufinterop PRIVATE PB_TUF_JS_DIR="${CMAKE_BINARY_DIR}/tuf-js")
