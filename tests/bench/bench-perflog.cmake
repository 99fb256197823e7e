# Issue 26: peak RSS and time of `perf import` of a 520 MB nccl-tests log (4.4M rows), `runs show` and
# `runs show --source`, against `gzip -6 -c` of the same file, in one run.
qt_add_executable(pb_bench_perflog bench_perflog.cpp BenchChild.h)
target_link_libraries(pb_bench_perflog PRIVATE Qt6::Core)
target_include_directories(pb_bench_perflog PRIVATE ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(pb_bench_perflog PRIVATE PB_CLI_BINARY="$<TARGET_FILE:proofbench>")
add_dependencies(pb_bench_perflog proofbench)
pb_warnings(pb_bench_perflog)
list(APPEND PB_BENCH_TARGETS pb_bench_perflog)
