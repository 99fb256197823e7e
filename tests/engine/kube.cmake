# issue #8 kube tests
pb_add_test(tst_kubeconfig SOURCES tst_kubeconfig.cpp LIBS pb_engine)

# Against pb-kube-testserver (tests/kube-testserver); registered once that target exists.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_kubeclient SOURCES tst_kubeclient.cpp LIBS pb_engine)
  add_dependencies(tst_kubeclient pb-kube-testserver)
  target_compile_definitions(tst_kubeclient PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()
