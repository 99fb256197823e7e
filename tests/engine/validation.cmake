# Issue #8: the validation runner, evidence emission and run store, end to end against
# pb-kube-testserver, and the validate / runs / perf import CLI.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_validation SOURCES tst_validation.cpp KubeTestServer.h LIBS pb_engine)
  add_dependencies(tst_validation pb-kube-testserver proofbench)
  target_compile_definitions(tst_validation PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()

# Issue #10: every input has a limit and a clear error.
pb_add_test(tst_limits SOURCES tst_limits.cpp LIBS pb_engine)
