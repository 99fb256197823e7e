#include "kube/Client.h"
