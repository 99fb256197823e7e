// What the window and every CLI verb do after opening the database, before anything else: the
// one-time upgrades of stored data that SQL migrations cannot compute, then the first start's
// sample catalog.
#pragma once

#include "db/Database.h"

#include <QStringList>

namespace pb::ops {

// Returns the sample versions imported (empty unless the database held no catalog).
Result<QStringList> prepareDatabase(db::Database& db);

} // namespace pb::ops
