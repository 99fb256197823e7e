# Issue 17 (registry, fetch, records): the window's path and the CLI run one operation.
pb_add_test(tst_opsfetch SOURCES tst_opsfetch.cpp GuiTestUtil.h EvidenceFixture.h LIBS pb_widgets ENGINES sqlite postgresql)
add_dependencies(tst_opsfetch proofbench)
