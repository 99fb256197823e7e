#include "oci/Registry.h"
