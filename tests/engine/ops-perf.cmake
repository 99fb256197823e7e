# issue 18: the faster catalog import stores the same bytes (encoder fast path vs its reference,
# parallel import vs resolveStoredRecipe + recipeBytes).
pb_add_test(tst_importperf SOURCES tst_importperf.cpp LIBS pb_engine ENGINES sqlite postgresql)
