#include "YamlDialog.h"
