# Catalog versions read straight from Git repositories (engine/git, ops/ImportCatalogGit): a
# repository built at test time from the five real catalogs, imported through the CLI and the op.
pb_add_test(tst_gitimport SOURCES tst_gitimport.cpp GitCatalogFixture.h LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_gitimport proofbench)
