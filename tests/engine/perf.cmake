# issue #8 perf tests: NCCL, AIPerf / GenAI-Perf / inference-perf parsers and AICR scoring.
pb_add_test(tst_perf SOURCES tst_perf.cpp LIBS pb_engine)
