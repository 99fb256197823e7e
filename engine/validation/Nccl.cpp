#include "validation/Nccl.h"
