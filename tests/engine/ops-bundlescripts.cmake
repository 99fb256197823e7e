# The helm bundle's scripts against AICR's (issue #27): deploy.sh of our bundle and of AICR's golden
# bundle run on pb-fake-cluster (tests/fake-cluster: kubectl, helm and sleep stand-ins answering from
# a scripted cluster) must change the cluster with the same commands in the same order.
qt_add_executable(pb-fake-cluster
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/main.cpp
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/Cluster.h
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/Kubectl.cpp
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/Helm.cpp
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/JsonPath.h
  ${PROJECT_SOURCE_DIR}/tests/fake-cluster/JsonPath.cpp)
target_link_libraries(pb-fake-cluster PRIVATE Qt6::Core)
pb_warnings(pb-fake-cluster)

pb_add_test(tst_bundlescripts SOURCES tst_bundlescripts.cpp BundleGoldenCases.h LIBS pb_engine)
add_dependencies(tst_bundlescripts pb-fake-cluster)
target_compile_definitions(tst_bundlescripts PRIVATE PB_FAKE_CLUSTER="$<TARGET_FILE:pb-fake-cluster>")
