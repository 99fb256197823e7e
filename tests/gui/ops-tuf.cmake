# Issue 19 section 3: the Verify view's "Update from a TUF repository…" dialog (TufUpdateDialog) on the
# real Sigstore TUF repository copy.
pb_add_test(tst_tufupdatedialog SOURCES tst_tufupdatedialog.cpp LIBS pb_widgets ENGINES sqlite postgresql)
