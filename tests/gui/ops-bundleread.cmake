# The bundle view and the bundle compare view (widgets/bundle) in the real MainWindow, on AICR's
# golden bundles: open from the File menu, files, values, templated fields, unknown files, a hostile
# folder's error, cancel, import, compare.
pb_add_test(tst_bundleview SOURCES tst_bundleview.cpp GuiTestUtil.h LIBS pb_widgets ENGINES sqlite postgresql)
