# CLI and window answer one question alike: each operation through both faces (issue 17).
pb_add_test(tst_opsparity SOURCES tst_opsparity.cpp GuiTestUtil.h SigningFixture.h EvidenceFixture.h LIBS pb_widgets ENGINES sqlite postgresql)
add_dependencies(tst_opsparity proofbench)
