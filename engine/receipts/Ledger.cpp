#include "receipts/Ledger.h"
