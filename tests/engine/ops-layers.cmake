# The layering rules (docs/ARCHITECTURE.md), checked on the source tree.
pb_add_test(tst_layers SOURCES tst_layers.cpp LIBS Qt6::Core)
