# Issue 18: one recipe digest per purpose (evidence, parity), labelled in every verb and JSON;
# faithful diffs (full values, formats, --ignore version-only). Runs the real CLI binary.
pb_add_test(tst_recipedigests SOURCES tst_recipedigests.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_recipedigests proofbench)
