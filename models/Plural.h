// The views' name for pb::counted (core/Plural.h): "1 recipe" / "3 recipes".
#pragma once

#include "core/Plural.h"

namespace pb::models {

using pb::counted;

} // namespace pb::models
