# Issue #21: generating the helm bundle of every leaf of the 2026-08-19 catalog against `cp -r` of the
# same output tree (an I/O floor), in one run.
qt_add_executable(pb_bench_bundle bench_bundle.cpp)
target_link_libraries(pb_bench_bundle PRIVATE pb_engine)
target_compile_definitions(pb_bench_bundle PRIVATE PB_SHARED_DATA="${PB_SHARED_DATA}")
pb_warnings(pb_bench_bundle)
list(APPEND PB_BENCH_TARGETS pb_bench_bundle)
