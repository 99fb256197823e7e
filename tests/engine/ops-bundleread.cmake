# Deployment bundles read and compared (engine/bundle Read/Diff, ops/BundleImport, ops/BundleDiff,
# cli/BundleCompareCommands): every golden case of AICR's five deployers, hostile trees, the CLI,
# and bundles generated from two real catalogs against the recipe diff.
pb_add_test(tst_bundleimport SOURCES tst_bundleimport.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_bundleimport proofbench)
pb_add_test(tst_bundlediff SOURCES tst_bundlediff.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_bundlediff proofbench)
