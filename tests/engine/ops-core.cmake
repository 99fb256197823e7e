# The operations layer's contract: receipts and effects as one step, nesting, the async front.
pb_add_test(tst_ops SOURCES tst_ops.cpp LIBS pb_engine ENGINES sqlite postgresql)
