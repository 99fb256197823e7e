# issue #8 perf tests
