# issue #11 OCI tests: docker-registry (Debian package docker-registry) and skopeo as real peers;
# each test skips with a clear message when they are not installed.
pb_add_test(tst_oci SOURCES tst_oci.cpp BundleFixture.h LIBS pb_engine PkgConfig::LIBARCHIVE)
add_dependencies(tst_oci proofbench)
