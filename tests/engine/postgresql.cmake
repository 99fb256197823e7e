# Issue 31: the private PostgreSQL test server (tools/pgtest-server.sh) as the tests see it: TLS
# verified against the run's CA, scram-sha-256, no plain connections, TestDatabase's databases.
pb_add_test(tst_pgserver SOURCES tst_pgserver.cpp LIBS Qt6::Sql PostgreSQL::PostgreSQL ENGINES postgresql)
pb_add_test(tst_bulkinsert SOURCES tst_bulkinsert.cpp LIBS pb_engine ENGINES sqlite postgresql)
# Issue 32: a team on one database: concurrent writers (child: teamchild.cpp, and the CLI), the
# append-only ledger, roles, on a SQLite file and on the server.
qt_add_executable(pb_teamchild teamchild.cpp)
target_link_libraries(pb_teamchild PRIVATE pb_engine)
pb_warnings(pb_teamchild)
pb_add_test(tst_team SOURCES tst_team.cpp DbFixture.h LIBS pb_engine Qt6::Sql ENGINES sqlite postgresql)
add_dependencies(tst_team pb_teamchild proofbench)
target_compile_definitions(tst_team PRIVATE PB_TEAM_CHILD="$<TARGET_FILE:pb_teamchild>")
