// The GUI-thread guard of the database layer (opt-in, for tests): once an observer is set,
// observer(sql) is called, on that thread, whenever a database is opened, a transaction begins or
// a statement runs on the QCoreApplication's main thread. Only connections opened after it is set
// report their statements. An empty function removes it. The window runs every database call on
// a worker (models::Workspace), so tests/gui/tst_guithreaddb installs an observer that fails on
// any call. Implemented in db/Database.cpp.
#pragma once

#include <QString>

#include <functional>

namespace pb::db {

using GuiThreadObserver = std::function<void(const QString& sql)>;
void setGuiThreadObserver(GuiThreadObserver observer);

} // namespace pb::db
