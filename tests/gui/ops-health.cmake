# The Health view and the report dialog tell the truth about what they show: the inspector of a
# stale/outside row names the pointers its counts come from and why they no longer match; wildcard
# leaves are named by their overlay; the sample is marked and every version shows its origin; the
# report's baseline picker defaults to the previous version in version order.
pb_add_test(tst_healthtruth SOURCES tst_healthtruth.cpp GuiTestUtil.h LIBS pb_widgets ENGINES sqlite postgresql)
