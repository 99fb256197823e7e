#include "db/Postgres.h"

#include "db/Dialect.h"

#include <QHash>
#include <QMetaType>
#include <QMutex>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QVariant>

#include <libpq-fe.h>
#include <openssl/crypto.h>

#include <bit>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace pb::db::pg {

namespace {

QMutex g_passwordMutex;
QHash<QString, QString>& passwords() {
    static QHash<QString, QString> map;
    return map;
}

// libpq's keyword names (from PQconndefaults), so that `service=x` is a spec and `a=b.sqlite` is not.
const QStringList& keywords() {
    static const QStringList list = [] {
        QStringList out;
        if (PQconninfoOption* opts = PQconndefaults()) {
            for (PQconninfoOption* o = opts; o->keyword; ++o)
                out << QString::fromLatin1(o->keyword);
            PQconninfoFree(opts);
        }
        return out;
    }();
    return list;
}

// A value in libpq's keyword=value syntax: single-quoted, backslash and quote escaped.
QString quoted(const QString& value) {
    QString v = value;
    v.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    v.replace(QLatin1Char('\''), QLatin1String("\\'"));
    return QLatin1Char('\'') + v + QLatin1Char('\'');
}

} // namespace

bool isServerSpec(const QString& spec) {
    const QString s = spec.trimmed();
    if (s.startsWith(QLatin1String("postgresql://")) || s.startsWith(QLatin1String("postgres://")))
        return true;
    static const QRegularExpression re(QStringLiteral("^([a-z_]+)\\s*="));
    const auto m = re.match(s);
    return m.hasMatch() && keywords().contains(m.captured(1));
}

QString ServerSpec::value(const QString& key) const {
    for (const auto& [k, v] : params)
        if (k == key)
            return v;
    return {};
}

bool ServerSpec::isLocal() const {
    const QString host = value(QStringLiteral("host")), addr = value(QStringLiteral("hostaddr"));
    if (host.isEmpty() && addr.isEmpty())
        return true; // libpq's default: the Unix socket
    const QStringList hosts = (host.isEmpty() ? addr : host).split(QLatin1Char(','));
    for (const QString& h : hosts) {
        if (h.startsWith(QLatin1Char('/')) || h.startsWith(QLatin1Char('@')))
            continue;
        if (h == QLatin1String("localhost") || h == QLatin1String("::1") ||
            h.startsWith(QLatin1String("127.")))
            continue;
        return false;
    }
    return true;
}

QString ServerSpec::display() const {
    const QString host = value(QStringLiteral("host")).isEmpty() ? value(QStringLiteral("hostaddr"))
                                                                 : value(QStringLiteral("host"));
    const QString port = value(QStringLiteral("port")), user = value(QStringLiteral("user")),
                  dbname = value(QStringLiteral("dbname")), service = value(QStringLiteral("service"));
    QString out;
    if (!user.isEmpty())
        out += user + QLatin1Char('@');
    out += host.isEmpty() ? QStringLiteral("(local socket)") : host;
    if (!port.isEmpty())
        out += QLatin1Char(':') + port;
    if (!dbname.isEmpty())
        out += QLatin1Char('/') + dbname;
    if (!service.isEmpty())
        out = QStringLiteral("service %1").arg(service) +
              (host.isEmpty() && user.isEmpty() && dbname.isEmpty() ? QString()
                                                                    : QStringLiteral(" (%1)").arg(out));
    return out;
}

QString ServerSpec::canonical() const {
    QStringList parts;
    for (const auto& [k, v] : params)
        parts << k + QLatin1Char('=') + quoted(v);
    return parts.join(QLatin1Char(' '));
}

Result<ServerSpec> parseServerSpec(const QString& spec) {
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(spec.trimmed().toUtf8().constData(), &err);
    if (!opts) {
        QString why = err ? QString::fromUtf8(err).trimmed() : QStringLiteral("out of memory");
        if (err)
            PQfreemem(err);
        return makeError(QStringLiteral("not a PostgreSQL connection string: %1").arg(why));
    }
    ServerSpec out;
    for (PQconninfoOption* o = opts; o->keyword; ++o) {
        if (!o->val || !*o->val)
            continue;
        const QString key = QString::fromLatin1(o->keyword), value = QString::fromUtf8(o->val);
        if (key == QLatin1String("password")) {
            out.password = value;
            continue;
        }
        out.params.emplace_back(key, value);
    }
    PQconninfoFree(opts);
    auto setDefault = [&out](const char* key, const QString& value) {
        if (!out.has(QString::fromLatin1(key)))
            out.params.emplace_back(QString::fromLatin1(key), value);
    };
    setDefault("application_name", QStringLiteral("proofbench"));
    setDefault("connect_timeout", QStringLiteral("10"));
    // A service file may name a remote host we cannot see here: libpq applies its sslmode then.
    if (!out.has(QStringLiteral("service")) && !out.isLocal())
        setDefault("sslmode", QStringLiteral("verify-full"));
    for (const auto& [k, v] : out.params)
        if (v.contains(QLatin1Char(';')))
            return makeError(QStringLiteral("the value of '%1' contains ';', which the Qt PostgreSQL driver "
                                            "cannot pass on")
                                 .arg(k));
    if (!out.password.isEmpty())
        rememberPassword(out.canonical(), out.password);
    return out;
}

QString specFromForm(const ServerForm& form) {
    QStringList parts;
    auto add = [&parts](const char* key, const QString& value) {
        if (!value.trimmed().isEmpty())
            parts << QString::fromLatin1(key) + QLatin1Char('=') + quoted(value.trimmed());
    };
    add("host", form.host);
    add("port", form.port);
    add("dbname", form.dbname);
    add("user", form.user);
    add("sslmode", form.sslmode);
    add("sslrootcert", form.sslrootcert);
    return parts.join(QLatin1Char(' '));
}

ServerForm formFromSpec(const ServerSpec& spec) {
    ServerForm f;
    f.host = spec.value(QStringLiteral("host"));
    if (f.host.isEmpty())
        f.host = spec.value(QStringLiteral("hostaddr"));
    f.port = spec.value(QStringLiteral("port"));
    f.dbname = spec.value(QStringLiteral("dbname"));
    f.user = spec.value(QStringLiteral("user"));
    f.sslmode = spec.value(QStringLiteral("sslmode"));
    f.sslrootcert = spec.value(QStringLiteral("sslrootcert"));
    return f;
}

QString transportWarning(const ServerSpec& spec) {
    if (spec.isLocal() || spec.has(QStringLiteral("service")))
        return {};
    const QString mode = spec.value(QStringLiteral("sslmode"));
    if (mode == QLatin1String("verify-full") || mode == QLatin1String("verify-ca"))
        return {};
    if (mode == QLatin1String("require"))
        return QStringLiteral("TLS without checking the server's certificate (sslmode=require): anyone "
                              "between here and the server can pose as it");
    return QStringLiteral("no TLS to a remote server (sslmode=%1): the password and every row travel in "
                          "clear")
        .arg(mode.isEmpty() ? QStringLiteral("prefer") : mode);
}

Status configure(QSqlDatabase& db, const ServerSpec& spec) {
    QStringList parts;
    for (const auto& [k, v] : spec.params)
        parts << k + QLatin1Char('=') + quoted(v);
    db.setConnectOptions(parts.join(QLatin1Char(' ')));
    const QString pw = spec.password.isEmpty() ? rememberedPassword(spec.canonical()) : spec.password;
    if (!pw.isEmpty())
        db.setPassword(pw);
    return {};
}

void rememberPassword(const QString& canonicalSpec, const QString& password) {
    QMutexLocker lock(&g_passwordMutex);
    passwords().insert(canonicalSpec, password);
}

QString rememberedPassword(const QString& canonicalSpec) {
    QMutexLocker lock(&g_passwordMutex);
    return passwords().value(canonicalSpec);
}

pg_conn* handle(const QSqlDatabase& db) {
    if (db.driverName() != QLatin1String("QPSQL"))
        return nullptr;
    return handle(db.driver());
}

pg_conn* handle(const QSqlDriver* driver) {
    if (!driver || driver->dbmsType() != QSqlDriver::PostgreSQL)
        return nullptr;
    const QVariant h = driver->handle();
    // Qt 6 names the type after the struct tag ("pg_conn*"); compare both spellings.
    if (!h.isValid() || (qstrcmp(h.typeName(), "pg_conn*") != 0 && qstrcmp(h.typeName(), "PGconn*") != 0))
        return nullptr;
    return *static_cast<pg_conn* const*>(h.constData());
}

QString serverOf(const QSqlDriver* driver) {
    PGconn* c = handle(driver);
    if (!c)
        return {};
    const QString host = QString::fromUtf8(PQhost(c));
    const QString where = host.startsWith(QLatin1Char('/'))
                              ? QStringLiteral("the local socket %1").arg(host)
                              : QStringLiteral("%1:%2").arg(host, QString::fromUtf8(PQport(c)));
    return QStringLiteral("%1 on %2").arg(QString::fromUtf8(PQdb(c)), where);
}

bool inTransaction(const QSqlDatabase& db) {
    PGconn* c = handle(db);
    if (!c)
        return false;
    const PGTransactionStatusType s = PQtransactionStatus(c);
    return s == PQTRANS_INTRANS || s == PQTRANS_INERROR;
}

void endThread() {
    OPENSSL_thread_stop();
}

bool connectionBroken(const QSqlDatabase& db) {
    PGconn* c = handle(db);
    return c && PQstatus(c) == CONNECTION_BAD;
}

TlsState tlsState(const QSqlDatabase& db) {
    TlsState out;
    PGconn* c = handle(db);
    if (!c)
        return out;
    out.inUse = PQsslInUse(c) == 1;
    if (out.inUse) {
        out.protocol = QString::fromLatin1(PQsslAttribute(c, "protocol"));
        out.cipher = QString::fromLatin1(PQsslAttribute(c, "cipher"));
    }
    QString mode;
    if (PQconninfoOption* opts = PQconninfo(c)) {
        for (PQconninfoOption* o = opts; o->keyword; ++o)
            if (qstrcmp(o->keyword, "sslmode") == 0 && o->val)
                mode = QString::fromLatin1(o->val);
        PQconninfoFree(opts);
    }
    out.verified = out.inUse && (mode == QLatin1String("verify-ca") || mode == QLatin1String("verify-full"));
    out.hostChecked = out.inUse && mode == QLatin1String("verify-full");
    return out;
}

QString serverVersion(const QSqlDatabase& db) {
    PGconn* c = handle(db);
    const char* v = c ? PQparameterStatus(c, "server_version") : nullptr;
    return v ? QString::fromUtf8(v) : QString();
}

QString sessionUser(const QSqlDatabase& db) {
    PGconn* c = handle(db);
    const char* u = c ? PQuser(c) : nullptr;
    return u ? QString::fromUtf8(u) : QString();
}

QString scrub(QString text, const QString& secret) {
    if (!secret.isEmpty())
        text.replace(secret, QStringLiteral("***"));
    return text;
}

QString scrubRemembered(QString text) {
    QMutexLocker lock(&g_passwordMutex);
    for (const QString& secret : std::as_const(passwords()))
        if (!secret.isEmpty())
            text.replace(secret, QStringLiteral("***"));
    return text;
}

void appendCopyField(QByteArray& out, const QVariant& value) {
    if (value.isNull()) {
        out += "\\N";
        return;
    }
    switch (value.metaType().id()) {
    case QMetaType::QByteArray: {
        out += "\\\\x";
        out += value.toByteArray().toHex();
        return;
    }
    case QMetaType::Bool:
        out += value.toBool() ? "1" : "0";
        return;
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Long:
    case QMetaType::ULong:
        out += QByteArray::number(value.toLongLong());
        return;
    case QMetaType::Double:
    case QMetaType::Float: {
        const double d = value.toDouble();
        out += std::isfinite(d) ? QByteArray::number(d, 'g', 17) : QByteArray("\\N");
        return;
    }
    default:
        break;
    }
    const QByteArray text = value.toString().toUtf8();
    out.reserve(out.size() + text.size());
    for (const char ch : text) {
        switch (ch) {
        case '\\':
            out += "\\\\";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            out += ch;
        }
    }
}

namespace {

// What to do about a failed libpq call, as sqlError says it for a QSqlQuery (Dialect::adviceNote).
QString adviceSuffix(const QString& server, const PGresult* r) {
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    return Dialect(Engine::PostgreSQL).adviceNote(state ? QString::fromLatin1(state) : QString(), server);
}

// A read's error (Rows, CopyOut): what was read, the server's words, then the advice when there is
// some (it names the server), else the server.
Error readError(const QString& what, const QString& error, const QString& advice, const QString& server) {
    if (!advice.isEmpty() || server.isEmpty())
        return makeError(QStringLiteral("%1: %2%3").arg(what, error, advice));
    return makeError(QStringLiteral("%1: %2 (%3)").arg(what, error, server));
}

} // namespace

Status copyIn(const QSqlDatabase& db, const QString& table, const QStringList& columns,
              const QByteArray& rows, bool binary) {
    PGconn* c = handle(db);
    if (!c)
        return makeError(QStringLiteral("COPY needs a PostgreSQL connection"));
    const QByteArray sql = QStringLiteral("COPY %1 (%2) FROM STDIN%3")
                               .arg(table, columns.join(QLatin1Char(',')),
                                    binary ? QStringLiteral(" (FORMAT binary)") : QString())
                               .toUtf8();
    PGresult* r = PQexec(c, sql.constData());
    const bool started = PQresultStatus(r) == PGRES_COPY_IN;
    QString error = started ? QString() : QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
    const QString server = serverOf(db.driver());
    QString advice = started ? QString() : adviceSuffix(server, r);
    PQclear(r);
    if (!started)
        return makeError(QStringLiteral("COPY into %1 refused: %2%3").arg(table, error, advice));
    // CopyData messages of 64 KiB: the server parses one while the next is on its way (1 MiB
    // messages made the catalog files' COPY take half again as long).
    constexpr qsizetype chunk = 64 << 10;
    bool ok = true;
    // Binary: the signature, no flags, no header extension; after the tuples, a field count of -1.
    static constexpr char kHeader[] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
    static constexpr char kTrailer[] = "\377\377";
    if (binary)
        ok = PQputCopyData(c, kHeader, int(sizeof kHeader - 1)) == 1;
    for (qsizetype at = 0; ok && at < rows.size(); at += chunk)
        ok = PQputCopyData(c, rows.constData() + at, int(std::min(chunk, rows.size() - at))) == 1;
    if (binary && ok)
        ok = PQputCopyData(c, kTrailer, int(sizeof kTrailer - 1)) == 1;
    ok = PQputCopyEnd(c, ok ? nullptr : "client failed to send the rows") == 1 && ok;
    while (PGresult* res = PQgetResult(c)) {
        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
            ok = false;
            if (error.isEmpty()) {
                error = QString::fromUtf8(PQresultErrorMessage(res)).trimmed();
                advice = adviceSuffix(server, res);
            }
        }
        PQclear(res);
    }
    if (!ok)
        return makeError(QStringLiteral("COPY into %1 failed: %2%3")
                             .arg(table,
                                  error.isEmpty() ? QString::fromUtf8(PQerrorMessage(c)).trimmed() : error,
                                  advice));
    return {};
}

namespace {

// Type OIDs (pg_type.dat; fixed for built-in types).
enum : quint32 {
    kBool = 16,
    kBytea = 17,
    kInt8 = 20,
    kInt2 = 21,
    kInt4 = 23,
    kText = 25,
    kJson = 114,
    kFloat4 = 700,
    kFloat8 = 701,
    kVarchar = 1043,
    kJsonb = 3802,
};

template <class T> void appendBigEndian(QByteArray& out, T v) {
    using U = std::make_unsigned_t<T>;
    const U u = static_cast<U>(v);
    char bytes[sizeof(T)];
    for (size_t i = 0; i < sizeof(T); ++i)
        bytes[i] = static_cast<char>((u >> (8 * (sizeof(T) - 1 - i))) & 0xff);
    out.append(bytes, sizeof(T));
}

void appendField(QByteArray& out, QByteArrayView bytes) {
    appendBigEndian<qint32>(out, static_cast<qint32>(bytes.size()));
    out.append(bytes.data(), bytes.size());
}

// What the text format would carry for a value in a text column (numbers as the text path writes them).
QByteArray textOf(const QVariant& v) {
    switch (v.metaType().id()) {
    case QMetaType::QByteArray:
        return v.toByteArray();
    case QMetaType::Bool:
        return v.toBool() ? "1" : "0";
    case QMetaType::Double:
    case QMetaType::Float:
        return QByteArray::number(v.toDouble(), 'g', 17);
    default:
        return v.toString().toUtf8();
    }
}

std::optional<qint64> integerOf(const QVariant& v) {
    bool ok = false;
    qint64 n = 0;
    switch (v.metaType().id()) {
    case QMetaType::Double:
    case QMetaType::Float: {
        const double d = v.toDouble();
        if (!std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 9.0e18)
            return std::nullopt;
        return static_cast<qint64>(d);
    }
    case QMetaType::ULongLong:
        if (v.toULongLong() > quint64(std::numeric_limits<qint64>::max()))
            return std::nullopt;
        return static_cast<qint64>(v.toULongLong());
    default:
        n = v.toLongLong(&ok);
        return ok ? std::optional<qint64>(n) : std::nullopt;
    }
}

} // namespace

bool binaryCopySupports(quint32 typeOid) {
    switch (typeOid) {
    case kBool:
    case kBytea:
    case kInt8:
    case kInt2:
    case kInt4:
    case kText:
    case kJson:
    case kFloat4:
    case kFloat8:
    case kVarchar:
    case kJsonb:
        return true;
    default:
        return false;
    }
}

std::vector<quint32> columnTypes(const QSqlDatabase& db, const QString& table, const QStringList& columns) {
    PGconn* c = handle(db);
    if (!c)
        return {};
    const QByteArray name = table.toUtf8();
    const char* values[] = {name.constData()};
    PGresult* r = PQexecParams(c,
                               "SELECT attname, atttypid FROM pg_attribute WHERE attrelid = to_regclass($1) "
                               "AND attnum > 0 AND NOT attisdropped",
                               1, nullptr, values, nullptr, nullptr, 0);
    QHash<QString, quint32> byName;
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        for (int i = 0; i < PQntuples(r); ++i)
            byName.insert(QString::fromUtf8(PQgetvalue(r, i, 0)),
                          static_cast<quint32>(std::strtoul(PQgetvalue(r, i, 1), nullptr, 10)));
    PQclear(r);
    std::vector<quint32> types;
    for (const QString& column : columns) {
        const quint32 oid = byName.value(column, 0);
        if (!binaryCopySupports(oid))
            return {};
        types.push_back(oid);
    }
    return types;
}

Status appendBinaryRow(QByteArray& out, const QVariantList& row, const std::vector<quint32>& types,
                       const QStringList& columns) {
    if (static_cast<size_t>(row.size()) != types.size())
        return makeError(
            QStringLiteral("a row of %1 values for %2 columns").arg(row.size()).arg(types.size()));
    appendBigEndian<qint16>(out, static_cast<qint16>(row.size()));
    for (qsizetype i = 0; i < row.size(); ++i) {
        const QVariant& v = row[i];
        if (v.isNull()) {
            appendBigEndian<qint32>(out, -1);
            continue;
        }
        auto refuse = [&](const char* what) {
            return makeError(QStringLiteral("column %1: '%2' is not %3")
                                 .arg(i < columns.size() ? columns[i] : QString::number(i + 1),
                                      v.toString().left(40), QLatin1String(what)));
        };
        switch (types[static_cast<size_t>(i)]) {
        case kBool: {
            const std::optional<qint64> n =
                v.metaType().id() == QMetaType::Bool ? qint64(v.toBool()) : integerOf(v);
            if (!n || (*n != 0 && *n != 1))
                return refuse("a boolean");
            appendBigEndian<qint32>(out, 1);
            out += char(*n);
            break;
        }
        case kInt2:
        case kInt4:
        case kInt8: {
            const std::optional<qint64> n = integerOf(v);
            const quint32 t = types[static_cast<size_t>(i)];
            if (!n || (t == kInt2 && (*n < INT16_MIN || *n > INT16_MAX)) ||
                (t == kInt4 && (*n < INT32_MIN || *n > INT32_MAX)))
                return refuse("an integer of the column's size");
            if (t == kInt2) {
                appendBigEndian<qint32>(out, 2);
                appendBigEndian<qint16>(out, static_cast<qint16>(*n));
            } else if (t == kInt4) {
                appendBigEndian<qint32>(out, 4);
                appendBigEndian<qint32>(out, static_cast<qint32>(*n));
            } else {
                appendBigEndian<qint32>(out, 8);
                appendBigEndian<qint64>(out, *n);
            }
            break;
        }
        case kFloat4:
        case kFloat8: {
            bool ok = false;
            const double d = v.toDouble(&ok);
            if (!ok)
                return refuse("a number");
            if (!std::isfinite(d)) { // as the text path writes it: no value
                appendBigEndian<qint32>(out, -1);
                break;
            }
            if (types[static_cast<size_t>(i)] == kFloat4) {
                appendBigEndian<qint32>(out, 4);
                appendBigEndian<quint32>(out, std::bit_cast<quint32>(static_cast<float>(d)));
            } else {
                appendBigEndian<qint32>(out, 8);
                appendBigEndian<quint64>(out, std::bit_cast<quint64>(d));
            }
            break;
        }
        case kBytea:
            appendField(out,
                        v.metaType().id() == QMetaType::QByteArray ? v.toByteArray() : v.toString().toUtf8());
            break;
        case kJsonb: {
            const QByteArray text = textOf(v);
            appendBigEndian<qint32>(out, static_cast<qint32>(text.size() + 1));
            out += char(1); // jsonb's binary format version
            out += text;
            break;
        }
        default: // text, varchar, json
            appendField(out, textOf(v));
        }
    }
    return {};
}

namespace {

template <class T> T readBigEndian(const char* p) {
    using U = std::make_unsigned_t<T>;
    U u = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
        u = static_cast<U>((u << 8) | static_cast<unsigned char>(p[i]));
    return static_cast<T>(u);
}

} // namespace

CopyOut::CopyOut(const QSqlDatabase& db, const QString& query, std::vector<quint32> types)
    : m_conn(handle(db)), m_types(std::move(types)), m_server(serverOf(db.driver())) {
    if (!m_conn) {
        m_error = QStringLiteral("not a PostgreSQL connection");
        return;
    }
    for (quint32 t : m_types)
        if (!binaryCopySupports(t)) {
            m_error = QStringLiteral("a column of type %1 cannot be read in COPY's binary format").arg(t);
            return;
        }
    const QByteArray sql = QStringLiteral("COPY (%1) TO STDOUT (FORMAT binary)").arg(query).toUtf8();
    PGresult* r = PQexec(m_conn, sql.constData());
    m_started = PQresultStatus(r) == PGRES_COPY_OUT;
    if (!m_started) {
        m_error = QString::fromUtf8(r ? PQresultErrorMessage(r) : PQerrorMessage(m_conn)).trimmed();
        m_advice = adviceSuffix(m_server, r);
    }
    PQclear(r);
}

CopyOut::~CopyOut() {
    drain();
}

// A COPY left before its end is read to the end, so that the connection can take the next command.
void CopyOut::drain() {
    if (!m_started || !m_conn)
        return;
    m_started = false;
    char* data = nullptr;
    while (PQgetCopyData(m_conn, &data, 0) > 0)
        PQfreemem(data);
    while (PGresult* r = PQgetResult(m_conn)) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && m_error.isEmpty()) {
            m_error = QString::fromUtf8(PQresultErrorMessage(r)).trimmed();
            m_advice = adviceSuffix(m_server, r);
        }
        PQclear(r);
    }
}

bool CopyOut::fail(const QString& why) {
    if (m_error.isEmpty())
        m_error = why;
    drain();
    return false;
}

bool CopyOut::fill(qsizetype bytes) {
    while (m_buffer.size() - m_at < bytes) {
        if (m_ended)
            return false;
        if (m_at > 0) { // what was read is dropped before more arrives
            m_buffer.remove(0, m_at);
            m_at = 0;
        }
        char* data = nullptr;
        const int n = PQgetCopyData(m_conn, &data, 0);
        if (n > 0) {
            m_buffer.append(data, n);
            PQfreemem(data);
        } else {
            m_ended = true;
            if (n == -2)
                return fail(QString::fromUtf8(PQerrorMessage(m_conn)).trimmed());
            drain(); // -1: the COPY finished; its result says whether it went well
            return false;
        }
    }
    return true;
}

bool CopyOut::next() {
    if (!m_error.isEmpty() || !m_conn)
        return false;
    if (!m_headerRead) {
        static constexpr char kSignature[] = "PGCOPY\n\377\r\n";
        if (!fill(19))
            return fail(QStringLiteral("the server's COPY data ended before its header"));
        if (std::memcmp(m_buffer.constData() + m_at, kSignature, 11) != 0)
            return fail(QStringLiteral("the server's COPY data has no binary signature"));
        const qint32 extension = readBigEndian<qint32>(m_buffer.constData() + m_at + 15);
        m_at += 19;
        if (extension < 0 || !fill(extension))
            return fail(QStringLiteral("the server's COPY header is cut short"));
        m_at += extension;
        m_headerRead = true;
    }
    if (!fill(2))
        return failed() ? false : fail(QStringLiteral("the server's COPY data ended without its trailer"));
    const qint16 fields = readBigEndian<qint16>(m_buffer.constData() + m_at);
    m_at += 2;
    if (fields == -1) { // the trailer
        m_ended = true;
        drain();
        return false;
    }
    if (static_cast<size_t>(fields) != m_types.size())
        return fail(
            QStringLiteral("a row of %1 fields where %2 were expected").arg(fields).arg(m_types.size()));
    m_row.resize(fields);
    for (qint16 i = 0; i < fields; ++i) {
        if (!fill(4))
            return fail(QStringLiteral("the server's COPY data ended inside a row"));
        const qint32 length = readBigEndian<qint32>(m_buffer.constData() + m_at);
        m_at += 4;
        if (length == -1) {
            m_row[i] = QVariant();
            continue;
        }
        if (length < 0 || !fill(length))
            return fail(QStringLiteral("the server's COPY data ended inside a value"));
        const char* p = m_buffer.constData() + m_at;
        auto wrongSize = [&] {
            return fail(QStringLiteral("a value of %1 bytes for a column of type %2")
                            .arg(length)
                            .arg(m_types[size_t(i)]));
        };
        switch (m_types[static_cast<size_t>(i)]) {
        case kBool:
            if (length != 1)
                return wrongSize();
            m_row[i] = QVariant(qint64(*p != 0));
            break;
        case kInt2:
            if (length != 2)
                return wrongSize();
            m_row[i] = QVariant(qint64(readBigEndian<qint16>(p)));
            break;
        case kInt4:
            if (length != 4)
                return wrongSize();
            m_row[i] = QVariant(qint64(readBigEndian<qint32>(p)));
            break;
        case kInt8:
            if (length != 8)
                return wrongSize();
            m_row[i] = QVariant(readBigEndian<qint64>(p));
            break;
        case kFloat4:
            if (length != 4)
                return wrongSize();
            m_row[i] = QVariant(double(std::bit_cast<float>(readBigEndian<quint32>(p))));
            break;
        case kFloat8:
            if (length != 8)
                return wrongSize();
            m_row[i] = QVariant(std::bit_cast<double>(readBigEndian<quint64>(p)));
            break;
        case kBytea:
            m_row[i] = QVariant(QByteArray(p, length));
            break;
        case kJsonb: // a version byte, then the text
            if (length < 1)
                return wrongSize();
            m_row[i] = QVariant(QString::fromUtf8(p + 1, length - 1));
            break;
        default:
            m_row[i] = QVariant(QString::fromUtf8(p, length));
        }
        m_at += length;
    }
    return true;
}

Error CopyOut::error(const QString& what) const {
    return readError(what, m_error, m_advice, m_server);
}

Rows::Rows(const QSqlDatabase& db, const char* sql) : m_conn(handle(db)), m_server(serverOf(db.driver())) {
    // `?` -> `$n`, as QPSQL's prepare does.
    int n = 0;
    for (const char* p = sql; *p; ++p) {
        if (*p == '?')
            m_sql += '$' + QByteArray::number(++n);
        else
            m_sql += *p;
    }
    m_params.resize(static_cast<size_t>(n));
    if (!m_conn)
        m_error = QStringLiteral("not a PostgreSQL connection");
}

Rows::~Rows() {
    PQclear(m_result);
}

bool Rows::bind(int i, qint64 v) {
    if (i < 1 || static_cast<size_t>(i) > m_params.size() || m_executed)
        return false;
    m_params[static_cast<size_t>(i - 1)] = QByteArray::number(v);
    return true;
}

bool Rows::next() {
    if (!m_conn || !m_error.isEmpty())
        return false;
    if (!m_executed) {
        m_executed = true;
        std::vector<const char*> values;
        for (const QByteArray& p : m_params)
            values.push_back(p.constData());
        m_result = PQexecParams(m_conn, m_sql.constData(), int(values.size()), nullptr, values.data(),
                                nullptr, nullptr, 0);
        if (PQresultStatus(m_result) != PGRES_TUPLES_OK) {
            m_error = QString::fromUtf8(m_result ? PQresultErrorMessage(m_result) : PQerrorMessage(m_conn))
                          .trimmed();
            if (m_error.isEmpty())
                m_error = QStringLiteral("the query returned no rows result");
            m_advice = adviceSuffix(m_server, m_result);
            return false;
        }
        m_rows = PQntuples(m_result);
    }
    return ++m_row < m_rows;
}

Error Rows::error(const QString& what) const {
    return readError(what, m_error, m_advice, m_server);
}

QByteArrayView Rows::bytes(int i) const {
    if (!m_result || m_row < 0 || m_row >= m_rows || i < 0 || i >= PQnfields(m_result) ||
        PQgetisnull(m_result, m_row, i))
        return {};
    const int length = PQgetlength(m_result, m_row, i);
    return length == 0 ? QByteArrayView("", 0) : QByteArrayView(PQgetvalue(m_result, m_row, i), length);
}

QString Rows::text(int i) const {
    const QByteArrayView b = bytes(i);
    if (b.isNull())
        return {};
    return b.isEmpty() ? QString(QLatin1String("")) : QString::fromUtf8(b);
}

qint64 Rows::integer64(int i) const {
    const QByteArrayView b = bytes(i);
    if (b.size() == 1 && (b[0] == 't' || b[0] == 'f')) // boolean
        return b[0] == 't' ? 1 : 0;
    qint64 v = 0;
    std::from_chars(b.data(), b.data() + b.size(), v);
    return v;
}

} // namespace pb::db::pg
