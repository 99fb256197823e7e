#include "kube/Kubeconfig.h"
