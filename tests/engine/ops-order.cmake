# Version order (semver, else source date, samples first) and what follows it in the store:
# versions(), previous, newest, a recipe's "vs previous version"; migration 007 on an old database.
pb_add_test(tst_versionorder SOURCES tst_versionorder.cpp LIBS pb_engine ENGINES sqlite postgresql)
