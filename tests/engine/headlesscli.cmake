# Issue 29: proofbench-cli links no widget library and answers as `proofbench VERB` does.
pb_add_test(tst_headlesscli SOURCES tst_headlesscli.cpp LIBS Qt6::Core ENGINES sqlite postgresql)
add_dependencies(tst_headlesscli proofbench proofbench-cli)
target_compile_definitions(tst_headlesscli PRIVATE PB_HEADLESS_CLI_BINARY="$<TARGET_FILE:proofbench-cli>")
