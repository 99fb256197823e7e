// Item models over one offline Sigstore verification (sigstore::VerificationResult): its steps with
// their verdicts, the certificate's extensions, the transparency-log entries and the RFC 3161
// timestamps; and over the verifications stored in the database (StoredVerification). Also
// what the Verify view puts on the clipboard: the same check as a `proofbench verify` or a cosign
// command line. No widgets.
#pragma once

#include "ops/Verify.h"
#include "sigstore/Verify.h"
#include "store/VerificationStore.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QIcon>

#include <optional>
#include <vector>

namespace pb::models {

// Stored records the Verify and Sign views show (plain values; views name these, not store:: types).
using StoredTrustedRoot = store::StoredTrustedRoot;
using StoredVerification = store::StoredVerification;

// The tick, cross and dash of a step (the health view's verified / invalid / no-evidence glyphs).
struct StepStyle {
    static QIcon icon(sigstore::StepState s);
    static QColor color(sigstore::StepState s);
    static QIcon verdictIcon(bool verified);
};

// The steps of a verification in the order they ran: name, result, detail. A step that compared
// two values carries them in ExpectedRole / FoundRole (shown side by side by the view).
class VerificationStepsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { StepColumn, ResultColumn, DetailColumn, ColumnCount };
    enum Role {
        StateRole = Qt::UserRole + 1, // "passed" | "failed" | "skipped"
        ExpectedRole,
        FoundRole,
        HasComparisonRole, // bool: expected or found is set
    };

    explicit VerificationStepsModel(QObject* parent = nullptr);

    void setSteps(std::vector<sigstore::Step> steps);
    void clear() { setSteps({}); }
    const std::vector<sigstore::Step>& steps() const { return m_steps; }
    const sigstore::Step& stepAt(int row) const { return m_steps[static_cast<size_t>(row)]; }
    int rowOf(const QString& name) const; // -1 when absent
    int firstFailedRow() const;           // -1 when nothing failed
    int countOf(sigstore::StepState s) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<sigstore::Step> m_steps;
};

// The leaf certificate's extensions, in certificate order: name (or OID) and value.
class CertificateExtensionsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, ValueColumn, ColumnCount };

    explicit CertificateExtensionsModel(QObject* parent = nullptr);

    void setExtensions(QList<QPair<QString, QString>> extensions);
    void clear() { setExtensions({}); }
    // The value of the first extension named `name`; empty when absent.
    QString valueOf(const QString& name) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    QList<QPair<QString, QString>> m_extensions;
};

// Transparency-log entries: log, kind and version, index, integrated time, checkpoint origin, tree
// size and root hash; the log column's icon says whether the entry verified.
class LogEntriesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        LogColumn,
        KindColumn,
        IndexColumn,
        IntegratedTimeColumn,
        CheckpointColumn,
        TreeSizeColumn,
        RootHashColumn,
        ColumnCount
    };
    enum Role { VerifiedRole = Qt::UserRole + 1, SortRole };

    explicit LogEntriesModel(QObject* parent = nullptr);

    void setEntries(std::vector<sigstore::LogEntryInfo> entries);
    void clear() { setEntries({}); }
    const std::vector<sigstore::LogEntryInfo>& entries() const { return m_entries; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<sigstore::LogEntryInfo> m_entries;
};

// RFC 3161 timestamps: the authority, the time it attests, verified or not, and why.
class TimestampsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { AuthorityColumn, TimeColumn, ResultColumn, DetailColumn, ColumnCount };
    enum Role { VerifiedRole = Qt::UserRole + 1 };

    explicit TimestampsModel(QObject* parent = nullptr);

    void setTimestamps(std::vector<sigstore::TimestampInfo> timestamps);
    void clear() { setTimestamps({}); }
    const std::vector<sigstore::TimestampInfo>& timestamps() const { return m_timestamps; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<sigstore::TimestampInfo> m_timestamps;
};

// Verifications stored in the database, newest first: when, verdict, bundle, signer, summary.
class VerificationHistoryModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { TimeColumn, BundleColumn, SignerColumn, SummaryColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1, VerifiedRole };

    explicit VerificationHistoryModel(QObject* parent = nullptr);

    void setRows(std::vector<StoredVerification> rows);
    void clear() { setRows({}); }
    const std::vector<StoredVerification>& rows() const { return m_rows; }
    const StoredVerification& rowAt(int row) const { return m_rows[static_cast<size_t>(row)]; }
    int rowOfId(qint64 id) const; // -1 when absent

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<StoredVerification> m_rows;
};

// What the user asked to verify, as the Verify view's inputs hold it; turned into the command lines
// that reproduce the same check outside the app.
struct VerifyRequest {
    QString bundlePath;
    bool digestMode = false; // the artifact's digest only, not its bytes
    QString artifactPath;
    QString digest; // "sha256:<hex>" or bare hex
    bool keyMode = false;
    QString identity;
    bool identityRegexp = false;
    QString issuer;
    bool issuerRegexp = false;
    QString keyPath;
    bool ignoreTlog = false; // --insecure-ignore-tlog (key mode, signed offline)
    // The trusted root's file when known; otherwise its stored file name, and `databasePath` lets
    // `proofbench verify --db` use the database's default root when that is the one chosen.
    QString trustedRootPath;
    QString trustedRootName;
    bool trustedRootIsDefault = false;
    QString databasePath;
    bool dsse = false; // the bundle holds a DSSE envelope (cosign verify-blob-attestation)

    // The policy without the key's bytes (publicKeyPem holds a placeholder in key mode).
    sigstore::Policy policy() const;
    // "sha256:<hex>", lower case; empty when `digest` is not a sha256 digest.
    QString normalizedDigest() const;
    // The same check as the operation runs it (ops::verify), against the stored root
    // `trustedRootId` (0: the database's default), recorded.
    ops::VerifyRequest operation(qint64 trustedRootId) const;
};

// What the Verify view reads from the database, and its one quick write. Worker side: run them
// through the window's runner (ops::Async, the job's own connection), never on the GUI thread.
Result<std::vector<StoredTrustedRoot>> storedTrustedRoots(const ops::Context& ctx);
Result<std::vector<StoredVerification>> recentVerifications(const ops::Context& ctx, int limit = 200);
// A trusted root imported (ops::importTrustedRoot, as the default root, as
// `proofbench verify --import-trusted-root`); its id.
Result<qint64> importTrustedRoot(const ops::Context& ctx, const QString& path);

// One line on where a stored trusted root came from: "From TUF: root v15 (chain from v13), timestamp
// v762, …; verified as of …; repository …" or "Imported from FILE".
QString trustedRootProvenanceText(const StoredTrustedRoot& root);

// POSIX shell quoting: bare when only safe characters, otherwise single quotes.
QString shellQuote(const QString& arg);
QString shellJoin(const QStringList& args);
// `proofbench verify --bundle … (--artifact … | --digest sha256:…) … (--trusted-root … | --db …)`
QStringList proofbenchArguments(const VerifyRequest& r);
// `cosign verify-blob[-attestation] --bundle … --trusted-root … <policy flags> (ARTIFACT | --digest …)`
QStringList cosignArguments(const VerifyRequest& r);

} // namespace pb::models
