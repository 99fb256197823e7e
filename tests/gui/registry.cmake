# Registry (issue #11) GUI files
pb_add_test(tst_registrymodels SOURCES tst_registrymodels.cpp GuiTestUtil.h LIBS pb_models)
pb_add_test(tst_fetchevidence SOURCES tst_fetchevidence.cpp GuiTestUtil.h EvidenceFixture.h LIBS pb_widgets ENGINES sqlite postgresql)
