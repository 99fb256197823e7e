# Issue 17, part C: the evidence import, bundle import and evidence check operations (each with
# its receipt in one transaction), invalid pointers kept with their reasons, and the report's
# HTML/Markdown written by the engine alone (this test links pb_engine only: no Qt Gui).
pb_add_test(tst_opsevidence SOURCES tst_opsevidence.cpp BundleFixture.h LIBS pb_engine PkgConfig::LIBARCHIVE ENGINES sqlite postgresql)
add_dependencies(tst_opsevidence proofbench)
