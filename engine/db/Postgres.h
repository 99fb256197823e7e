// What Proofbench needs of libpq beside Qt's QPSQL driver: reading a server spec (a postgresql://
// URI, a libpq keyword/value string or `service=NAME`) with libpq's own parser, turning it into the
// driver's connect options (QPSQL takes no URI), keeping passwords out of every text it returns, and
// the raw PGconn* for what the driver does not expose (transaction state, TLS state, COPY).
#pragma once

#include "core/Result.h"

#include <QByteArrayView>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

struct pg_conn;
struct pg_result;

namespace pb::db::pg {

// True when `spec` names a PostgreSQL server rather than a SQLite file: a postgresql:// or
// postgres:// URI, or libpq keyword=value text (`service=proofbench`, `host=… dbname=…`).
bool isServerSpec(const QString& spec);

struct ServerSpec {
    std::vector<std::pair<QString, QString>> params; // libpq keywords and values, password excluded
    QString password;                                // from the spec itself (discouraged), else empty

    QString value(const QString& key) const;
    bool has(const QString& key) const { return !value(key).isEmpty(); }
    // True for a Unix socket or a loopback host (where TLS may be off).
    bool isLocal() const;
    // "user@host:port/dbname" (service name when that is all there is); never the password.
    QString display() const;
    // The spec again as keyword=value text without the password: what siblings and the status bar use.
    QString canonical() const;
};

// Parses with PQconninfoParse (URIs percent-decoded, query parameters included). Adds Proofbench's
// defaults when absent: application_name=proofbench, connect_timeout=10, and sslmode=verify-full for
// any host that is not local (a plain connection to a remote host must say sslmode=disable).
Result<ServerSpec> parseServerSpec(const QString& spec);

// What the window's Open Team Database dialog asks for, as libpq keywords: empty fields are left out
// (libpq's defaults and environment apply). `sslmode` empty means Proofbench's default (verify-full
// for a host that is not local).
struct ServerForm {
    QString host, port, dbname, user, sslmode, sslrootcert;
};
// The form as keyword=value text (values quoted as libpq reads them); parseServerSpec() accepts it.
QString specFromForm(const ServerForm& form);
// A spec's fields back into the form (a recent database, a --db given on the command line).
ServerForm formFromSpec(const ServerSpec& spec);
// Why the connection `spec` describes is not protected: a host that is not local reached without TLS
// (sslmode disable, allow or prefer) or with TLS whose certificate is not checked (require). Empty
// when it is local or verified.
QString transportWarning(const ServerSpec& spec);

// Applies the spec to a QPSQL connection (connect options; the password through setPassword).
Status configure(QSqlDatabase& db, const ServerSpec& spec);

// A password given for a spec during this process (the window's prompt, a URI that carried one):
// kept in memory only, so that sibling connections can open; never written anywhere.
void rememberPassword(const QString& canonicalSpec, const QString& password);
QString rememberedPassword(const QString& canonicalSpec);

// The connection's PGconn, or nullptr when it is not a QPSQL connection. Use on its thread only.
pg_conn* handle(const QSqlDatabase& db);
pg_conn* handle(const QSqlDriver* driver);
// "proofbench on db.example.org:5432": the database and server a connection is on (no user, never a
// password), or empty when the driver is not PostgreSQL.
QString serverOf(const QSqlDriver* driver);
bool inTransaction(const QSqlDatabase& db);
// Frees this thread's OpenSSL state (its error queue, filled when a TLS connection failed or was cut):
// for a thread that used server connections, just before it ends.
void endThread();
// True when libpq has found the connection closed (CONNECTION_BAD): a local look, no traffic.
bool connectionBroken(const QSqlDatabase& db);

struct TlsState {
    bool inUse = false;
    bool verified = false;    // the server certificate was checked against a CA (verify-ca / verify-full)
    bool hostChecked = false; // verify-full: the host name matched the certificate
    QString protocol, cipher;
};
TlsState tlsState(const QSqlDatabase& db);
QString serverVersion(const QSqlDatabase& db);
// The session's user as the server sees it.
QString sessionUser(const QSqlDatabase& db);

// `text` with `secret` replaced by "***" (error texts that might echo what was given).
QString scrub(QString text, const QString& secret);
// `text` with every password this process was given (rememberPassword) replaced by "***": for
// anything printed that may quote a --db value.
QString scrubRemembered(QString text);

// COPY table(columns) FROM STDIN inside the current transaction, for bulk inserts. `rows` are in
// PostgreSQL's text format (TAB between fields, \N for NULL, `\\`, `\t`, `\n`, `\r` escaped), or with
// `binary` the tuples of its binary format (appendBinaryRow; the header and trailer are added here).
Status copyIn(const QSqlDatabase& db, const QString& table, const QStringList& columns,
              const QByteArray& rows, bool binary = false);
// One field in COPY text format.
void appendCopyField(QByteArray& out, const QVariant& value);

// The binary COPY format, for the column types it is written for here (bigint, integer, smallint,
// boolean, double precision, real, text, varchar, json, jsonb, bytea): values travel as the server
// stores them (bytea as its bytes, not twice as many hex digits), and the server parses nothing.
// The type OIDs of `columns` of `table` (as the search path finds it), in order; an empty list when a
// column is missing or of a type binaryCopySupports() refuses, or the query fails.
std::vector<quint32> columnTypes(const QSqlDatabase& db, const QString& table, const QStringList& columns);
bool binaryCopySupports(quint32 typeOid);
// One tuple: the field count, then each value as `types` says. A value that does not fit its column
// (text where a number belongs, a fraction into an integer) is an error naming the column.
Status appendBinaryRow(QByteArray& out, const QVariantList& row, const std::vector<quint32>& types,
                       const QStringList& columns);

// A query's rows read with COPY (query) TO STDOUT in the binary format: streamed from the server a
// row at a time (memory stays bounded for any table), parsed without text conversion. `types` are
// the result columns' type OIDs (columnTypes); each must be one binaryCopySupports() accepts.
// Integers come back as qint64, floating point as double, bytea as QByteArray, text and JSON as
// QString, booleans as qint64 0/1; SQL NULL as a null QVariant. Use on the connection's thread.
class CopyOut {
  public:
    CopyOut(const QSqlDatabase& db, const QString& query, std::vector<quint32> types);
    ~CopyOut();
    CopyOut(const CopyOut&) = delete;
    CopyOut& operator=(const CopyOut&) = delete;

    // The next row into row(); false at the end or on an error (failed() then says so).
    bool next();
    const QVariantList& row() const { return m_row; }
    bool failed() const { return !m_error.isEmpty(); }
    Error error(const QString& what) const;

  private:
    bool fill(qsizetype bytes); // at least `bytes` unread bytes buffered, or false at the end
    bool fail(const QString& why);
    void drain();

    pg_conn* m_conn = nullptr;
    std::vector<quint32> m_types;
    QByteArray m_buffer;
    qsizetype m_at = 0;
    QVariantList m_row;
    QString m_error;
    QString m_advice; // " (server: what to do)" for an error the dialect has advice for
    QString m_server;
    bool m_started = false, m_ended = false, m_headerRead = false;
};

// A SELECT run with libpq on the connection's own handle and read as the server sends it (text),
// without a QVariant per cell: for large reads (the health table), where QPSQL's forward-only mode
// makes one result per row and converts every value. `?` placeholders (none inside literals) are
// bound as integers; the whole result arrives at the first next(). Use on the connection's thread.
class Rows {
  public:
    Rows(const QSqlDatabase& db, const char* sql);
    ~Rows();
    Rows(const Rows&) = delete;
    Rows& operator=(const Rows&) = delete;

    bool prepared() const { return m_conn != nullptr; }
    bool bind(int i, qint64 v); // 1-based, as the placeholders are numbered
    // Runs the query at the first call. True on a row; false at the end or on an error.
    bool next();
    bool failed() const { return !m_error.isEmpty(); }
    Error error(const QString& what) const;

    // The column's bytes as the server sent them (UTF-8 text); a null view for SQL NULL. Valid
    // while this object lives.
    QByteArrayView bytes(int i) const;
    QString text(int i) const;
    qint64 integer64(int i) const;
    int integer(int i) const { return static_cast<int>(integer64(i)); }

  private:
    pg_conn* m_conn = nullptr;
    pg_result* m_result = nullptr;
    QByteArray m_sql;
    std::vector<QByteArray> m_params;
    QString m_error;
    QString m_advice;
    QString m_server;
    int m_row = -1, m_rows = 0;
    bool m_executed = false;
};

} // namespace pb::db::pg
