# Issue 17: `perf import` as one operation (ops::perfImport), the CLI and a direct call compared;
# the run store writes no receipt of its own.
pb_add_test(tst_opsperfimport SOURCES tst_opsperfimport.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_opsperfimport proofbench)
