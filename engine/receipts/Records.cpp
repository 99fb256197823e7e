#include "receipts/Records.h"
