#include "oci/Layout.h"
