# Issue 29: every command declares itself; its help, synopsis, completion and the README table are checked against the declaration.
pb_add_test(tst_clicommands SOURCES tst_clicommands.cpp LIBS pb_cli)
add_dependencies(tst_clicommands proofbench)
