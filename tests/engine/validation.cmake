# issue #8 validation tests
