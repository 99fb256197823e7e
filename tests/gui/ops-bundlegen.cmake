# File > Generate Bundle… (widgets/bundle/GenerateBundleDialog) in the real MainWindow on a recipe of
# the real 2026-08-19 catalog: worker, digest of what is on disk, refusal, opening in the bundle view.
pb_add_test(tst_generatebundle SOURCES tst_generatebundle.cpp GuiTestUtil.h LIBS pb_widgets ENGINES sqlite postgresql)
