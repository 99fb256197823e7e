# Issue #8: the validation runner, evidence emission and run store, end to end against
# pb-kube-testserver, and the validate / runs / perf import CLI.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_validation SOURCES tst_validation.cpp KubeTestServer.h LIBS pb_engine ENGINES sqlite postgresql)
  add_dependencies(tst_validation pb-kube-testserver proofbench)
  target_compile_definitions(tst_validation PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()

# Issue #20: every cluster fault scripted in the test server gives `other` with its cause, an
# incomplete run (exit 3), the cleanup and its leftovers, and the signing rule.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_validationfaults SOURCES tst_validationfaults.cpp KubeTestServer.h LIBS pb_engine ENGINES sqlite postgresql)
  add_dependencies(tst_validationfaults pb-kube-testserver)
  target_compile_definitions(tst_validationfaults PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()

# Issue #10: every input has a limit and a clear error.
pb_add_test(tst_limits SOURCES tst_limits.cpp LIBS pb_engine)

# Issue #10: kill -9 at random points of every kind of write (child: crashchild.cpp).
if(TARGET pb-kube-testserver)
  qt_add_executable(pb_crashchild crashchild.cpp)
  target_link_libraries(pb_crashchild PRIVATE pb_engine)
  pb_warnings(pb_crashchild)
  pb_add_test(tst_crashsafety SOURCES tst_crashsafety.cpp KubeTestServer.h ../gui/EvidenceFixture.h LIBS pb_engine Qt6::Sql ENGINES sqlite postgresql)
  add_dependencies(tst_crashsafety pb_crashchild pb-kube-testserver)
  target_compile_definitions(tst_crashsafety PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>"
                             PB_CRASH_CHILD="$<TARGET_FILE:pb_crashchild>")
  math(EXPR timeout "900 * ${PB_TEST_TIMEOUT_SCALE}")
  set_tests_properties(tst_crashsafety tst_crashsafety.postgresql PROPERTIES TIMEOUT ${timeout})
  # Qt Test's own watchdog (5 minutes a function) would end a kind of write whose 50 kill points take
  # longer on a busy machine; CTest's limit above still catches a hang.
  math(EXPR function_timeout_ms "${timeout} * 1000")
  set_property(TEST tst_crashsafety tst_crashsafety.postgresql APPEND PROPERTY ENVIRONMENT
               "QTEST_FUNCTION_TIMEOUT=${function_timeout_ms}")
endif()

# Issue #10: no token, client key, exec credential or passphrase in anything Proofbench writes.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_secrets SOURCES tst_secrets.cpp KubeTestServer.h LIBS pb_engine ENGINES sqlite postgresql)
  add_dependencies(tst_secrets pb-kube-testserver proofbench)
  target_compile_definitions(tst_secrets PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()

# Issue #26: no success the run did not have: evidence refused before the run or missing after it,
# every created object on record (--no-cleanup, runs cleanup), the validators' role, client errors.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_validationtruth SOURCES tst_validationtruth.cpp KubeTestServer.h LIBS pb_engine ENGINES sqlite postgresql)
  add_dependencies(tst_validationtruth pb-kube-testserver proofbench)
  target_compile_definitions(tst_validationtruth PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()
