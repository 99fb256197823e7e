# Issue 17, input safety: every file is opened non-blocking and refused unless regular (FIFOs never
# hang), skipped tree entries are reported by name, duplicate archive members are errors, and empty or
# over-limit evidence pointers are kept as invalid pointers with their reason.
pb_add_test(tst_inputsafety SOURCES tst_inputsafety.cpp LIBS pb_engine PkgConfig::LIBARCHIVE)
