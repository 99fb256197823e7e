#include "RecipeView.h"
