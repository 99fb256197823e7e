#include "oci/Auth.h"
