// Helpers every CLI verb shares: output streams, the --db/--format/--help conventions, catalogs and
// criteria from flags, signer flags, passphrases and private keys.
#pragma once

#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "cli/Commands.h"
#include "core/Result.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "receipts/Ledger.h"
#include "sigstore/Crypto.h"
#include "sigstore/Keys.h"
#include "sigstore/TrustedRoot.h"
#include "sigstore/Verify.h"

#include <QCommandLineParser>
#include <QJsonValue>
#include <QTextStream>

#include <memory>
#include <optional>

namespace pb::cli {

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

QTextStream& out();
QTextStream& err();
int fail(const Error& e);
inline receipts::Outcome outcomeOf(bool ok) {
    return ok ? receipts::Outcome::Ok : receipts::Outcome::Failed;
}
int usage(const QString& message, const QString& verb);
// The --db PATH given as a global option (Cli.h: before or after the verb); dbPath() falls back to
// it when a verb's parser has no --db of its own, then to Database::defaultPath().
void setGlobalDbPath(const QString& path);
void addDb(Command& c);
void addFormat(Command& c, const QString& values, const QString& def);
QString dbPath(const QCommandLineParser& p);
Result<std::unique_ptr<db::Database>> openDb(const QCommandLineParser& p);
// The same without preparing it (no seeding): for commands that only read, or write only a receipt.
// Both say on stderr when nothing can be stored there (a read-only replica, an auditor).
Result<std::unique_ptr<db::Database>> openDbAsIs(const QCommandLineParser& p);
Result<QByteArray> readFile(const QString& path);
void addSignerOptions(Command& c);
Result<sigstore::Policy> signerPolicy(const QCommandLineParser& p, bool strict);
void printJson(const QJsonValue& v);
Result<catalog::Catalog> catalogFrom(const QCommandLineParser& p);
Result<catalog::Catalog> catalogFromSpec(const QString& spec, const QCommandLineParser& p);
void addCriteriaOptions(Command& c, const QString& prefix = {});
bool anyCriteria(const QCommandLineParser& p, const QString& prefix = {});
Result<catalog::Criteria> criteriaFrom(const QCommandLineParser& p, const catalog::Catalog& cat,
                                       const QString& prefix = {});
Result<catalog::ResolveOptions> resolveOptionsFrom(const QCommandLineParser& p);
bool writeOutput(const QCommandLineParser& p, const QByteArray& bytes);
void addPassphraseEnv(Command& c);
Result<sigstore::Passphrase> passphraseFrom(const QCommandLineParser& p, const QString& prompt, bool confirm);
Result<sigstore::crypto::Pkey> privateKeyFrom(const QCommandLineParser& p);

} // namespace pb::cli
