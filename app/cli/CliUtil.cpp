#include "cli/CliUtil.h"
#include "core/Files.h"
#include "db/Postgres.h"
#include "ops/SigningKey.h"

#include "ops/PrepareDatabase.h"
#include "store/CatalogStore.h"
#include "store/VerificationStore.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cstdio>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}
QTextStream& err() {
    static QTextStream s(stderr);
    return s;
}

int fail(const Error& e) {
    // An error may quote the --db value; a password given in a URI is never printed.
    err() << "proofbench: " << db::pg::scrubRemembered(e.toString()) << Qt::endl;
    return kFailed;
}

int usage(const QString& message, const QString& verb) {
    err() << "proofbench: " << message << Qt::endl
          << "Run 'proofbench " << verb << " --help' for usage." << Qt::endl;
    return kUsage;
}

namespace {
QString& globalDbPath() {
    static QString path;
    return path;
}
} // namespace

void setGlobalDbPath(const QString& path) {
    globalDbPath() = path;
}

void addDb(Command& c) {
    c.addOption({QStringLiteral("db"),
                 QStringLiteral("Database: a SQLite file (default: %1), or a PostgreSQL server as a "
                                "postgresql:// URI or service=NAME.")
                     .arg(Database::defaultPath()),
                 QStringLiteral("DB")});
}

void addFormat(Command& c, const QString& values, const QString& def) {
    c.addOption({QStringLiteral("format"), QStringLiteral("Output format: %1 (default %2).").arg(values, def),
                 QStringLiteral("FORMAT"), def},
                {}, values);
}

QString dbPath(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("db")))
        return p.value(QStringLiteral("db"));
    return globalDbPath().isEmpty() ? Database::defaultPath() : globalDbPath();
}

// Opens the database as the GUI does: a new, empty database starts with the embedded sample catalog.
Result<std::unique_ptr<Database>> openDbAsIs(const QCommandLineParser& p) {
    Result<std::unique_ptr<Database>> db = Database::open(dbPath(p));
    if (!db)
        return db;
    // Where nothing can be stored, say so once: results are printed, no receipt is kept.
    const db::Access& access = (*db)->access();
    if (!db::mayWriteReceipts(access))
        err() << QStringLiteral("note: %1 is %2: results are shown, nothing is stored\n")
                     .arg(
                         (*db)->displayName(),
                         access.replica
                             ? QStringLiteral("a read-only replica")
                             : QStringLiteral("opened by role %1, which writes nothing").arg(access.roleName))
              << Qt::flush;
    return db;
}

Result<std::unique_ptr<Database>> openDb(const QCommandLineParser& p) {
    Result<std::unique_ptr<Database>> db = openDbAsIs(p);
    if (!db)
        return db;
    if (Result<QStringList> seeded = ops::prepareDatabase(**db); !seeded)
        return seeded.error();
    return db;
}

Result<QByteArray> readFile(const QString& path) {
    QFile f(path);
    if (Status s = openInputFile(f); !s)
        return s.error();
    return f.readAll();
}

// cosign's signer flags: a certificate identity and issuer (exact or regexp), or a public key.
namespace {
const QString kSigner = QStringLiteral("signer flags");
} // namespace

void addSignerOptions(Command& c) {
    c.addOption({QStringLiteral("certificate-identity"),
                 QStringLiteral("Exact certificate identity (SAN URI or e-mail)."), QStringLiteral("ID")},
                kSigner);
    c.addOption({QStringLiteral("certificate-identity-regexp"),
                 QStringLiteral("Identity regular expression (unanchored, as cosign)."),
                 QStringLiteral("RE")},
                kSigner);
    c.addOption({QStringLiteral("certificate-oidc-issuer"), QStringLiteral("Exact OIDC issuer."),
                 QStringLiteral("URL")},
                kSigner);
    c.addOption({QStringLiteral("certificate-oidc-issuer-regexp"),
                 QStringLiteral("OIDC issuer regular expression."), QStringLiteral("RE")},
                kSigner);
    c.addOption({QStringLiteral("key"), QStringLiteral("Public key (PEM) instead of a certificate identity."),
                 QStringLiteral("FILE")},
                kSigner);
    c.addOption({QStringLiteral("insecure-ignore-tlog"),
                 QStringLiteral("Accept a bundle without a transparency-log entry (as cosign).")},
                kSigner);
    c.addOption({QStringLiteral("trusted-root"),
                 QStringLiteral("Sigstore trusted_root.json (default: the database's default root)."),
                 QStringLiteral("FILE")},
                kSigner);
}

// The policy the signer flags give; `strict` requires exactly one identity and one issuer flag.
Result<sigstore::Policy> signerPolicy(const QCommandLineParser& p, bool strict) {
    sigstore::Policy policy;
    policy.ignoreTlog = p.isSet(QStringLiteral("insecure-ignore-tlog"));
    const bool identityFlags = p.isSet(QStringLiteral("certificate-identity")) ||
                               p.isSet(QStringLiteral("certificate-identity-regexp")) ||
                               p.isSet(QStringLiteral("certificate-oidc-issuer")) ||
                               p.isSet(QStringLiteral("certificate-oidc-issuer-regexp"));
    if (p.isSet(QStringLiteral("key"))) {
        if (identityFlags)
            return makeError(QStringLiteral("--key cannot be combined with the certificate identity flags"));
        auto key = readFile(p.value(QStringLiteral("key")));
        if (!key)
            return key.error();
        policy.publicKeyPem = *key;
        return policy;
    }
    policy.identity = p.value(QStringLiteral("certificate-identity"));
    policy.identityRegexp = p.value(QStringLiteral("certificate-identity-regexp"));
    policy.issuer = p.value(QStringLiteral("certificate-oidc-issuer"));
    policy.issuerRegexp = p.value(QStringLiteral("certificate-oidc-issuer-regexp"));
    if (strict && policy.identity.isEmpty() == policy.identityRegexp.isEmpty())
        return makeError(QStringLiteral(
            "give exactly one of --certificate-identity and --certificate-identity-regexp (or --key)"));
    if (strict && policy.issuer.isEmpty() == policy.issuerRegexp.isEmpty())
        return makeError(QStringLiteral(
            "give exactly one of --certificate-oidc-issuer and --certificate-oidc-issuer-regexp"));
    return policy;
}

void printJson(const QJsonValue& v) {
    const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    out() << doc.toJson(QJsonDocument::Indented);
}

// ---- recipe -------------------------------------------------------------------------------------

Result<Catalog> catalogFrom(const QCommandLineParser& p) {
    const bool dir = p.isSet(QStringLiteral("catalog"));
    const bool label = p.isSet(QStringLiteral("version"));
    if (dir == label)
        return makeError(QStringLiteral("give exactly one of --catalog DIR or --version LABEL"));
    if (dir)
        return loadCatalog(p.value(QStringLiteral("catalog")));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    return CatalogStore(**db).loadCatalog(p.value(QStringLiteral("version")));
}

// A catalog named on the command line: a directory when one exists at that path, else a label.
Result<Catalog> catalogFromSpec(const QString& spec, const QCommandLineParser& p) {
    if (QFileInfo(spec).isDir())
        return loadCatalog(spec);
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return db.error();
    Result<Catalog> cat = CatalogStore(**db).loadCatalog(spec);
    if (!cat)
        return makeError(
            QStringLiteral("'%1' is neither a catalog directory nor a catalog version in the database")
                .arg(spec));
    return cat;
}

void addCriteriaOptions(Command& c, const QString& prefix) {
    const QString family =
        prefix.isEmpty() ? QStringLiteral("criteria") : QStringLiteral("%1criteria").arg(prefix);
    for (const QString& d : Criteria::dimensions())
        c.addOption({prefix + d,
                     prefix.isEmpty()
                         ? QStringLiteral("Criteria: %1 (omit or 'any' for no preference).").arg(d)
                         : QStringLiteral("Criteria of the 'to' side: %1 (default: as --%1).").arg(d),
                     d.toUpper()},
                    family);
    if (prefix.isEmpty())
        c.addOption({QStringLiteral("profile"), QStringLiteral("Select a profile value (repeatable)."),
                     QStringLiteral("NAME=VALUE")},
                    family);
}

bool anyCriteria(const QCommandLineParser& p, const QString& prefix) {
    for (const QString& d : Criteria::dimensions())
        if (p.isSet(prefix + d))
            return true;
    return false;
}

// Criteria flags (with an optional prefix whose flags override the plain ones) checked against the catalog.
Result<Criteria> criteriaFrom(const QCommandLineParser& p, const Catalog& cat, const QString& prefix) {
    QMap<QString, QString> flags;
    for (const QString& d : Criteria::dimensions())
        flags.insert(d, !prefix.isEmpty() && p.isSet(prefix + d) ? p.value(prefix + d) : p.value(d));
    return parseUserCriteria(cat, flags);
}

Result<ResolveOptions> resolveOptionsFrom(const QCommandLineParser& p) {
    ResolveOptions opt;
    for (const QString& pv : p.values(QStringLiteral("profile"))) {
        const int eq = pv.indexOf(QLatin1Char('='));
        if (eq <= 0 || eq == pv.size() - 1)
            return makeError(QStringLiteral("--profile expects NAME=VALUE, got '%1'").arg(pv));
        opt.profiles.insert(pv.left(eq), pv.mid(eq + 1));
    }
    return opt;
}

bool writeOutput(const QCommandLineParser& p, const QByteArray& bytes) {
    const QString path = p.value(QStringLiteral("output"));
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        std::fwrite(bytes.constData(), 1, static_cast<size_t>(bytes.size()), stdout);
        std::fflush(stdout);
        return true;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        err() << "proofbench: " << path << ": cannot write: " << f.errorString() << Qt::endl;
        return false;
    }
    return true;
}

// ---- keys and signing ---------------------------------------------------------------------------

void addPassphraseEnv(Command& c) {
    c.addOption(
        {QStringLiteral("passphrase-env"),
         QStringLiteral(
             "Read the key's passphrase from this environment variable (never from the command line); "
             "without it, the passphrase is asked on the terminal."),
         QStringLiteral("VAR")});
}

// The passphrase from the named environment variable, or asked on the terminal without echo.
Result<sigstore::Passphrase> passphraseFrom(const QCommandLineParser& p, const QString& prompt,
                                            bool confirm) {
    if (p.isSet(QStringLiteral("passphrase-env"))) {
        const QByteArray name = p.value(QStringLiteral("passphrase-env")).toLocal8Bit();
        if (!qEnvironmentVariableIsSet(name.constData()))
            return makeError(
                QStringLiteral("environment variable %1 is not set").arg(QString::fromLocal8Bit(name)), {}, 0,
                QStringLiteral("--passphrase-env"));
        return sigstore::Passphrase(qgetenv(name.constData()));
    }
    const int fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return makeError(QStringLiteral("no terminal to ask for the passphrase: give --passphrase-env VAR"));
    auto ask = [fd](const QString& text) {
        termios old{};
        tcgetattr(fd, &old);
        termios quiet = old;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(fd, TCSAFLUSH, &quiet);
        const QByteArray t = text.toLocal8Bit();
        (void)!::write(fd, t.constData(), size_t(t.size()));
        QByteArray line;
        char c = 0;
        while (::read(fd, &c, 1) == 1 && c != '\n')
            line += c;
        tcsetattr(fd, TCSAFLUSH, &old);
        (void)!::write(fd, "\n", 1);
        return sigstore::Passphrase(std::move(line));
    };
    sigstore::Passphrase first = ask(prompt);
    if (confirm) {
        sigstore::Passphrase second = ask(QStringLiteral("Repeat the passphrase: "));
        if (first.bytes() != second.bytes()) {
            ::close(fd);
            return makeError(QStringLiteral("the passphrases differ"));
        }
    }
    ::close(fd);
    return first;
}

Result<sigstore::crypto::Pkey> privateKeyFrom(const QCommandLineParser& p) {
    const QString path = p.value(QStringLiteral("key"));
    auto pass = passphraseFrom(p, QStringLiteral("Passphrase for %1: ").arg(path), false);
    if (!pass)
        return pass.error();
    // Read and decrypted as every operation does (bounded, regular files only).
    return ops::loadSigningKey(ops::SigningKey{path, std::move(*pass)});
}

} // namespace pb::cli
