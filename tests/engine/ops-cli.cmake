# Issue 17: tst_cli checks the help and the CLI/GUI decision against the command table itself.
target_link_libraries(tst_cli PRIVATE pb_cli)
