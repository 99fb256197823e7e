# issue #11 OCI tests
