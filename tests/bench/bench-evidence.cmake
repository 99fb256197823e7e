# Issue 28: peak RSS of `evidence import --bundles` for 1, 10 and 100 bundles (and of the issue's
# hostile layouts) against `gzip -dc | sha256sum` of the same layers, in one run.
qt_add_executable(pb_bench_evidence bench_evidence.cpp BenchChild.h)
target_link_libraries(pb_bench_evidence PRIVATE Qt6::Core PkgConfig::LIBARCHIVE)
target_include_directories(pb_bench_evidence PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(pb_bench_evidence PRIVATE PB_CLI_BINARY="$<TARGET_FILE:proofbench>")
add_dependencies(pb_bench_evidence proofbench)
pb_warnings(pb_bench_evidence)
list(APPEND PB_BENCH_TARGETS pb_bench_evidence)
