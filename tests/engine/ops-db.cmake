# Issue 31: `db copy` SQLite -> PostgreSQL -> SQLite with its proof and refusals, `db status` on both
# engines, and the connection errors (wrong password, server down, certificate not verified). It
# needs both engines, so it is registered for the PostgreSQL run only.
pb_add_test(tst_dbcopy SOURCES tst_dbcopy.cpp DbFixture.h LIBS pb_engine ENGINES postgresql)
add_dependencies(tst_dbcopy proofbench)
