#include "oci/Reference.h"
