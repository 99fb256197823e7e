# issue #20: pb-kube-testserver's cluster faults and API behaviour, driven by the production client
# (engine/kube/Client) over real TLS sockets.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_kubefaults SOURCES tst_kubefaults.cpp KubeTestServer.h LIBS pb_engine)
  add_dependencies(tst_kubefaults pb-kube-testserver)
  target_compile_definitions(tst_kubefaults PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()
# kubectl parity against the server (kubectl compared when installed).
if(TARGET pb-kube-testserver)
  pb_add_test(tst_kubeparity SOURCES tst_kubeparity.cpp KubeTestServer.h LIBS pb_engine)
  add_dependencies(tst_kubeparity pb-kube-testserver)
  target_compile_definitions(tst_kubeparity PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()
