# issue #8 kube tests
