# Issue 31: the team store (PostgreSQL) against SQLite, psql \copy and pg_dump | psql, on a private
# server that tools/bench-postgres.sh starts; without one the benchmark says so and exits 0.
qt_add_executable(pb_bench_postgres bench_postgres.cpp BenchEvidence.h BenchHealthView.h)
target_link_libraries(pb_bench_postgres PRIVATE pb_models pb_testdb Qt6::Widgets)
target_include_directories(pb_bench_postgres PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(pb_bench_postgres PRIVATE PB_SHARED_DATA="${PB_SHARED_DATA}")
pb_warnings(pb_bench_postgres)
list(APPEND PB_BENCH_TARGETS pb_bench_postgres)
