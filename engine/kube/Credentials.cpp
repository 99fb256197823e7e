#include "kube/Credentials.h"
