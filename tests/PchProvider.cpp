// Compiled only so that a pb_testpch_* target exists to build the precompiled headers the tests of
// one folder reuse (pb_test_pch in tests/CMakeLists.txt). It defines nothing.
