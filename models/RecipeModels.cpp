#include "RecipeModels.h"
