# Import from Git… (widgets/catalog/GitImportDialog) against a repository built at test time from the
# real catalogs: listing, filter, multi-select import through ops::Async, cancel.
pb_add_test(tst_gitimportdialog SOURCES tst_gitimportdialog.cpp ../engine/GitCatalogFixture.h LIBS pb_widgets ENGINES sqlite postgresql)
