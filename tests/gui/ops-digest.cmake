# Issue 18: the Recipe view and Compare show the CLI's labelled digests (evidence, parity) for the
# same recipe; Compare's baseline follows version order, marks sample data, hides version-only moves.
pb_add_test(tst_digestcompare SOURCES tst_digestcompare.cpp GuiTestUtil.h LIBS pb_widgets ENGINES sqlite postgresql)
add_dependencies(tst_digestcompare proofbench)
