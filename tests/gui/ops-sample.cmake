# Issue #18: the sample catalog's marks, the first-start welcome, Import from Git and the views'
# empty states, in the real MainWindow.
pb_add_test(tst_samplemarks SOURCES tst_samplemarks.cpp GuiTestUtil.h EvidenceFixture.h LIBS pb_widgets ENGINES sqlite postgresql)
