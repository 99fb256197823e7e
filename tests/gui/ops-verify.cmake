# Issue 17: the same verification through the CLI binary and through the Verify view (ops::verify).
pb_add_test(tst_verifyfaces SOURCES tst_verifyfaces.cpp GuiTestUtil.h SigstoreCases.h LIBS pb_widgets ENGINES sqlite postgresql)
add_dependencies(tst_verifyfaces proofbench)
