# Issue 17 (validate as one operation): the same validation once through the CLI binary and once
# through the window's path (models::ValidationController -> models::Workspace -> ops::validate), against
# pb-kube-testserver, with the runs and receipts compared.
if(TARGET pb-kube-testserver)
  pb_add_test(tst_validatefaces SOURCES tst_validatefaces.cpp ValidationFixture.h LIBS pb_models ENGINES sqlite postgresql)
  add_dependencies(tst_validatefaces pb-kube-testserver proofbench)
  target_compile_definitions(tst_validatefaces PRIVATE PB_KUBE_TESTSERVER="$<TARGET_FILE:pb-kube-testserver>")
endif()
