# Resolve, diff and export of recipes: the operations both faces call with the same options.
pb_add_test(tst_opsrecipe SOURCES tst_opsrecipe.cpp LIBS pb_engine ENGINES sqlite postgresql)
