# Issue #19: Verify an AICR Release… (widgets/verify/ReleaseVerifyDialog) on the real release bundles
# and catalog, and the catalog binding in the tree, recipe header and health header.
pb_add_test(tst_releaseverifydialog SOURCES tst_releaseverifydialog.cpp GuiTestUtil.h LIBS pb_widgets ENGINES sqlite postgresql)
