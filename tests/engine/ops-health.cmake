# The health table and the release review report follow version order and label what they show:
# defaults (newest, previous) whatever the import order, the chosen baseline, the sample mark and
# origin in every export, leaf names for wildcard leaves, pointers read under the name the evidence
# records, and `proofbench report` quiet on stderr.
pb_add_test(tst_healthreport SOURCES tst_healthreport.cpp LIBS pb_engine ENGINES sqlite postgresql)
add_dependencies(tst_healthreport proofbench)
