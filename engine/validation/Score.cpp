#include "validation/Score.h"
