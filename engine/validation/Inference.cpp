#include "validation/Inference.h"
