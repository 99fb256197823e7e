// Reaching a team database from the window (issue 32): the Open Team Database dialog's fields as a
// libpq spec, the warning for an unprotected connection, a connection test, the recent databases,
// and opening a database for a new window. Connecting runs on a worker; a password libpq cannot find
// is asked for on the GUI thread and kept in memory only (db::pg::rememberPassword), never written.
#pragma once

#include "OpenDatabase.h"
#include "core/Result.h"
#include "db/Postgres.h"
#include "ops/DbAdmin.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <optional>

namespace pb::models {

using ServerForm = db::pg::ServerForm;
using ConnectionReport = ops::DatabaseStatus;

bool isServerSpec(const QString& spec);
QString specFromForm(const ServerForm& form);
// nullopt when `spec` is not a PostgreSQL server (a file) or does not parse.
std::optional<ServerForm> formFromSpec(const QString& spec);
// db::pg::transportWarning for a spec (empty for a file, a local server or a verified one).
QString transportWarning(const QString& spec);
// "PostgreSQL user@host:port/db" or the file's path: never a password.
QString describeDatabase(const QString& spec);
// Short, for a title bar: the server database's name and host, or the file's name.
QString titleName(const QString& spec);
// How the connection's transport was checked, in words: "TLS verified (TLSv1.3, host name checked)",
// "TLS, certificate not verified", "no TLS", or "local file".
QString describeTransport(const ConnectionReport& status);

// On a worker: ops::testConnection (the schema is not touched).
Result<ConnectionReport> testConnection(const QString& spec);
// On a worker: opens `spec`, migrates and prepares it as the window needs (ops::prepareDatabase);
// returns the spec the window's workspace opens (a file's absolute path; a server's spec without any
// password in it).
Result<QString> prepareForWindow(const QString& spec);

// Databases opened lately, newest first, at most kMaxRecent: file paths and server specs without
// passwords (QSettings "databases/recent").
inline constexpr int kMaxRecent = 8;
QStringList recentDatabases();
void addRecentDatabase(const QString& spec);
// For a password prompt: where it goes ("pbtest@127.0.0.1:5432/proofbench").
QString passwordTarget(const QString& spec);
// Keeps `password` for `spec` in this process's memory (db::pg::rememberPassword).
void rememberPassword(const QString& spec, const QString& password);

// Runs work() on a worker; when it fails only for want of a (right) password and `ask` gives one,
// remembers it and runs work() again (three tries at most). done() gets the last result on
// `receiver`'s thread, never after `receiver` is gone.
template <typename T>
void runWithPassword(QObject* receiver, const QString& spec, std::function<Result<T>()> work,
                     PasswordPrompt ask, std::function<void(Result<T>)> done, int attempt = 0) {
    auto* watcher = new QFutureWatcher<Result<T>>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                     [receiver, watcher, spec, work, ask, done, attempt] {
                         Result<T> result = watcher->future().takeResult();
                         watcher->deleteLater();
                         if (!result && ask && attempt < 3 && isServerSpec(spec) &&
                             needsPassword(result.error())) {
                             if (const std::optional<QString> pw = ask(passwordTarget(spec), attempt > 0)) {
                                 rememberPassword(spec, *pw);
                                 runWithPassword<T>(receiver, spec, work, ask, done, attempt + 1);
                                 return;
                             }
                         }
                         done(std::move(result));
                     });
    watcher->setFuture(QtConcurrent::run([work] { return work(); }));
}

} // namespace pb::models
