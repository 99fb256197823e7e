# Issue 31: the private PostgreSQL test server (tools/pgtest-server.sh) as the tests see it: TLS
# verified against the run's CA, scram-sha-256, no plain connections, TestDatabase's databases.
pb_add_test(tst_pgserver SOURCES tst_pgserver.cpp LIBS Qt6::Sql PostgreSQL::PostgreSQL ENGINES postgresql)
pb_add_test(tst_bulkinsert SOURCES tst_bulkinsert.cpp LIBS pb_engine ENGINES sqlite postgresql)
