#include "VerifyModels.h"

#include "HealthModels.h"
#include "ops/TrustedRoots.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QRegularExpression>

namespace pb::models {

using evidence::HealthStatus;
using sigstore::StepState;

namespace {

QVariant greyed() {
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

QString timeText(qint64 ms) {
    return ms > 0 ? sigstore::formatMs(ms) : QString();
}

} // namespace

// --- Style --------------------------------------------------------------------------------------

QIcon StepStyle::icon(StepState s) {
    switch (s) {
    case StepState::Passed:
        return HealthStyle::icon(HealthStatus::Verified);
    case StepState::Failed:
        return HealthStyle::icon(HealthStatus::Invalid);
    case StepState::Skipped:
        break;
    }
    return HealthStyle::icon(HealthStatus::NoEvidence);
}

QColor StepStyle::color(StepState s) {
    switch (s) {
    case StepState::Passed:
        return HealthStyle::color(HealthStatus::Verified);
    case StepState::Failed:
        return HealthStyle::color(HealthStatus::Invalid);
    case StepState::Skipped:
        break;
    }
    return HealthStyle::color(HealthStatus::NoEvidence);
}

QIcon StepStyle::verdictIcon(bool verified) {
    return icon(verified ? StepState::Passed : StepState::Failed);
}

// --- Steps --------------------------------------------------------------------------------------

VerificationStepsModel::VerificationStepsModel(QObject* parent) : QAbstractTableModel(parent) {}

void VerificationStepsModel::setSteps(std::vector<sigstore::Step> steps) {
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

int VerificationStepsModel::rowOf(const QString& name) const {
    for (size_t i = 0; i < m_steps.size(); ++i)
        if (m_steps[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int VerificationStepsModel::firstFailedRow() const {
    for (size_t i = 0; i < m_steps.size(); ++i)
        if (m_steps[i].state == StepState::Failed)
            return static_cast<int>(i);
    return -1;
}

int VerificationStepsModel::countOf(StepState s) const {
    return static_cast<int>(std::count_if(m_steps.begin(), m_steps.end(),
                                          [s](const sigstore::Step& st) { return st.state == s; }));
}

int VerificationStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int VerificationStepsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerificationStepsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const sigstore::Step& s = stepAt(index.row());
    const int col = index.column();
    const bool compared = !s.expected.isEmpty() || !s.found.isEmpty();
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case StepColumn:
            return s.name;
        case ResultColumn:
            return sigstore::stepStateName(s.state);
        case DetailColumn:
            return QString(s.detail).replace(QLatin1Char('\n'), QLatin1Char(' '));
        default:
            return {};
        }
    case Qt::DecorationRole:
        return col == StepColumn ? QVariant(StepStyle::icon(s.state)) : QVariant();
    case Qt::ForegroundRole:
        if (col == ResultColumn)
            return s.state == StepState::Skipped ? greyed() : QVariant(StepStyle::color(s.state).darker(115));
        if (s.state == StepState::Skipped)
            return greyed();
        return {};
    case Qt::FontRole:
        if (col == ResultColumn || (s.state == StepState::Failed && col == StepColumn)) {
            QFont f;
            f.setBold(s.state != StepState::Skipped);
            return f;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1: %2").arg(s.name, sigstore::stepStateName(s.state));
        if (!s.detail.isEmpty())
            tip += QStringLiteral("\n") + s.detail;
        if (compared)
            tip += QStringLiteral("\nexpected: %1\nfound:    %2").arg(s.expected, s.found);
        return tip;
    }
    case StateRole:
        return sigstore::stepStateName(s.state);
    case ExpectedRole:
        return s.expected;
    case FoundRole:
        return s.found;
    case HasComparisonRole:
        return compared;
    default:
        return {};
    }
}

QVariant VerificationStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return QStringLiteral("Step");
    case ResultColumn:
        return QStringLiteral("Result");
    case DetailColumn:
        return QStringLiteral("Detail");
    default:
        return {};
    }
}

// --- Certificate extensions ---------------------------------------------------------------------

CertificateExtensionsModel::CertificateExtensionsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CertificateExtensionsModel::setExtensions(QList<QPair<QString, QString>> extensions) {
    beginResetModel();
    m_extensions = std::move(extensions);
    endResetModel();
}

QString CertificateExtensionsModel::valueOf(const QString& name) const {
    for (const auto& [n, v] : m_extensions)
        if (n == name)
            return v;
    return {};
}

int CertificateExtensionsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_extensions.size());
}

int CertificateExtensionsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CertificateExtensionsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& [name, value] = m_extensions.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? name
                                            : QString(value).replace(QLatin1Char('\n'), QLatin1Char(' '));
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2").arg(name, value);
    default:
        return {};
    }
}

QVariant CertificateExtensionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn    ? QVariant(QStringLiteral("Extension"))
           : section == ValueColumn ? QVariant(QStringLiteral("Value"))
                                    : QVariant();
}

// --- Log entries --------------------------------------------------------------------------------

LogEntriesModel::LogEntriesModel(QObject* parent) : QAbstractTableModel(parent) {}

void LogEntriesModel::setEntries(std::vector<sigstore::LogEntryInfo> entries) {
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

int LogEntriesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int LogEntriesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LogEntriesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const sigstore::LogEntryInfo& e = m_entries[static_cast<size_t>(index.row())];
    const QString kind = e.version.isEmpty() ? e.kind : QStringLiteral("%1 %2").arg(e.kind, e.version);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LogColumn:
            return e.logUrl;
        case KindColumn:
            return kind;
        case IndexColumn:
            return QString::number(e.logIndex);
        case IntegratedTimeColumn:
            return e.integratedTime > 0 ? sigstore::formatMs(e.integratedTime * 1000)
                                        : QStringLiteral("— (Rekor v2)");
        case CheckpointColumn:
            return e.checkpointOrigin;
        case TreeSizeColumn:
            return e.treeSize > 0 ? QString::number(e.treeSize) : QString();
        case RootHashColumn:
            return e.rootHashHex;
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case IndexColumn:
            return e.logIndex;
        case IntegratedTimeColumn:
            return e.integratedTime;
        case TreeSizeColumn:
            return e.treeSize;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DecorationRole:
        return index.column() == LogColumn ? QVariant(StepStyle::verdictIcon(e.verified)) : QVariant();
    case Qt::ForegroundRole:
        return index.column() == IntegratedTimeColumn && e.integratedTime <= 0 ? greyed() : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == IndexColumn || index.column() == TreeSizeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        switch (index.column()) {
        case LogColumn:
            return QStringLiteral("%1\n%2").arg(e.logUrl, e.verified ? QStringLiteral("entry verified")
                                                                     : QStringLiteral("entry not verified"));
        case IntegratedTimeColumn:
            return e.integratedTime > 0
                       ? QStringLiteral("When the log says it integrated the entry (covered by its SET)")
                       : QStringLiteral("Rekor v2 entries carry no integrated time; an RFC 3161 timestamp "
                                        "says when the signature existed");
        case RootHashColumn:
            return e.rootHashHex;
        default:
            return data(index, Qt::DisplayRole);
        }
    case VerifiedRole:
        return e.verified;
    default:
        return {};
    }
}

QVariant LogEntriesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LogColumn:
        return QStringLiteral("Log");
    case KindColumn:
        return QStringLiteral("Entry kind");
    case IndexColumn:
        return QStringLiteral("Index");
    case IntegratedTimeColumn:
        return QStringLiteral("Integrated time");
    case CheckpointColumn:
        return QStringLiteral("Checkpoint origin");
    case TreeSizeColumn:
        return QStringLiteral("Tree size");
    case RootHashColumn:
        return QStringLiteral("Root hash");
    default:
        return {};
    }
}

// --- Timestamps ---------------------------------------------------------------------------------

TimestampsModel::TimestampsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TimestampsModel::setTimestamps(std::vector<sigstore::TimestampInfo> timestamps) {
    beginResetModel();
    m_timestamps = std::move(timestamps);
    endResetModel();
}

int TimestampsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_timestamps.size());
}

int TimestampsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimestampsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const sigstore::TimestampInfo& t = m_timestamps[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case AuthorityColumn:
            return t.tsaUri.isEmpty() ? QStringLiteral("(unnamed authority)") : t.tsaUri;
        case TimeColumn:
            return timeText(t.genTimeMs);
        case ResultColumn:
            return t.verified ? QStringLiteral("verified") : QStringLiteral("not verified");
        case DetailColumn:
            return QString(t.detail).replace(QLatin1Char('\n'), QLatin1Char(' '));
        default:
            return {};
        }
    case Qt::DecorationRole:
        return index.column() == AuthorityColumn ? QVariant(StepStyle::verdictIcon(t.verified)) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == ResultColumn)
            return StepStyle::color(t.verified ? StepState::Passed : StepState::Failed).darker(115);
        if (index.column() == AuthorityColumn && t.tsaUri.isEmpty())
            return greyed();
        return {};
    case Qt::ToolTipRole:
        return t.detail.isEmpty() ? data(index, Qt::DisplayRole) : QVariant(t.detail);
    case VerifiedRole:
        return t.verified;
    default:
        return {};
    }
}

QVariant TimestampsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AuthorityColumn:
        return QStringLiteral("Timestamp authority");
    case TimeColumn:
        return QStringLiteral("Time (genTime)");
    case ResultColumn:
        return QStringLiteral("Result");
    case DetailColumn:
        return QStringLiteral("Detail");
    default:
        return {};
    }
}

// --- History ------------------------------------------------------------------------------------

VerificationHistoryModel::VerificationHistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

void VerificationHistoryModel::setRows(std::vector<store::StoredVerification> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int VerificationHistoryModel::rowOfId(qint64 id) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id)
            return static_cast<int>(i);
    return -1;
}

int VerificationHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int VerificationHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerificationHistoryModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const store::StoredVerification& v = rowAt(index.row());
    const QString signer = v.mode == QLatin1String("key")
                               ? QStringLiteral("public key")
                               : (v.signerIdentity.isEmpty() ? QStringLiteral("—") : v.signerIdentity);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return v.verifiedAt.isValid()
                       ? v.verifiedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                       : QString();
        case BundleColumn: {
            // Bundles are often all "<name>.sigstore.json" or "bundle.sigstore.json": keep the folder.
            const QFileInfo fi(v.bundleFile);
            const QString folder = fi.dir().dirName();
            return folder.isEmpty() || folder == QLatin1String(".")
                       ? fi.fileName()
                       : folder + QLatin1Char('/') + fi.fileName();
        }
        case SignerColumn:
            return signer;
        case SummaryColumn:
            return v.summary;
        default:
            return {};
        }
    case Qt::DecorationRole:
        return index.column() == TimeColumn ? QVariant(StepStyle::verdictIcon(v.verified)) : QVariant();
    case Qt::ForegroundRole:
        if (index.column() == SummaryColumn)
            return StepStyle::color(v.verified ? StepState::Passed : StepState::Failed).darker(115);
        return {};
    case Qt::ToolTipRole: {
        QStringList lines{QStringLiteral("%1 — %2").arg(v.verified ? QStringLiteral("verified")
                                                                   : QStringLiteral("not verified"),
                                                        v.summary),
                          QStringLiteral("bundle: %1").arg(v.bundleFile),
                          QStringLiteral("bundle sha256: %1").arg(v.bundleSha256)};
        if (!v.artifactDigest.isEmpty())
            lines << QStringLiteral("artifact: %1").arg(v.artifactDigest);
        if (!v.signerIdentity.isEmpty())
            lines << QStringLiteral("signer: %1").arg(v.signerIdentity);
        if (!v.signerIssuer.isEmpty())
            lines << QStringLiteral("issuer: %1").arg(v.signerIssuer);
        if (!v.trustedRootSha256.isEmpty())
            lines << QStringLiteral("trusted root sha256: %1").arg(v.trustedRootSha256);
        if (v.verifiedAt.isValid())
            lines << QStringLiteral("verified at %1 UTC")
                         .arg(v.verifiedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        return lines.join(QLatin1Char('\n'));
    }
    case IdRole:
        return v.id;
    case VerifiedRole:
        return v.verified;
    default:
        return {};
    }
}

QVariant VerificationHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return QStringLiteral("Verified at (UTC)");
    case BundleColumn:
        return QStringLiteral("Bundle");
    case SignerColumn:
        return QStringLiteral("Signer");
    case SummaryColumn:
        return QStringLiteral("Result");
    default:
        return {};
    }
}

// --- Command lines ------------------------------------------------------------------------------

sigstore::Policy VerifyRequest::policy() const {
    sigstore::Policy p;
    p.ignoreTlog = keyMode && ignoreTlog;
    if (keyMode) {
        p.publicKeyPem = keyPath.toUtf8(); // not the key: the caller reads it
        return p;
    }
    (identityRegexp ? p.identityRegexp : p.identity) = identity;
    (issuerRegexp ? p.issuerRegexp : p.issuer) = issuer;
    return p;
}

QString VerifyRequest::normalizedDigest() const {
    QString d = digest.trimmed().toLower();
    if (d.startsWith(QLatin1String("sha256:")))
        d = d.mid(7);
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    return hex.match(d).hasMatch() ? QStringLiteral("sha256:") + d : QString();
}

ops::VerifyRequest VerifyRequest::operation(qint64 trustedRootId) const {
    ops::VerifyRequest r;
    r.bundlePath = bundlePath;
    if (digestMode)
        r.artifactDigest = digest;
    else
        r.artifactPath = artifactPath;
    r.policy = policy();
    if (keyMode) {
        r.policy.publicKeyPem.clear(); // the operation reads the key's file
        r.keyPath = keyPath;
    }
    r.trustedRootId = trustedRootId;
    r.record = true;
    return r;
}

Result<std::vector<StoredTrustedRoot>> storedTrustedRoots(const ops::Context& ctx) {
    return store::VerificationStore(ctx.db()).trustedRoots();
}

Result<std::vector<StoredVerification>> recentVerifications(const ops::Context& ctx, int limit) {
    return store::VerificationStore(ctx.db()).recent(limit);
}

Result<qint64> importTrustedRoot(const ops::Context& ctx, const QString& path) {
    return ops::importTrustedRoot(ctx, path, true);
}

QString shellQuote(const QString& arg) {
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (safe.match(arg).hasMatch())
        return arg;
    QString out = arg;
    out.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

QString shellJoin(const QStringList& args) {
    QStringList quoted;
    quoted.reserve(args.size());
    for (const QString& a : args)
        quoted << shellQuote(a);
    return quoted.join(QLatin1Char(' '));
}

namespace {

QString digestArg(const VerifyRequest& r) {
    const QString d = r.normalizedDigest();
    return d.isEmpty() ? r.digest.trimmed() : d;
}

QString rootArg(const VerifyRequest& r) {
    if (!r.trustedRootPath.isEmpty())
        return r.trustedRootPath;
    return r.trustedRootName.isEmpty() ? QStringLiteral("trusted_root.json") : r.trustedRootName;
}

} // namespace

QStringList proofbenchArguments(const VerifyRequest& r) {
    QStringList a{QStringLiteral("proofbench"), QStringLiteral("verify"), QStringLiteral("--bundle"),
                  r.bundlePath};
    if (r.digestMode)
        a << QStringLiteral("--digest") << digestArg(r);
    else
        a << QStringLiteral("--artifact") << r.artifactPath;
    if (r.keyMode) {
        a << QStringLiteral("--key") << r.keyPath;
        if (r.ignoreTlog)
            a << QStringLiteral("--insecure-ignore-tlog");
    } else {
        a << (r.identityRegexp ? QStringLiteral("--certificate-identity-regexp")
                               : QStringLiteral("--certificate-identity"))
          << r.identity;
        a << (r.issuerRegexp ? QStringLiteral("--certificate-oidc-issuer-regexp")
                             : QStringLiteral("--certificate-oidc-issuer"))
          << r.issuer;
    }
    // A root known only by its stored name: the database's default root is the same one.
    if (r.trustedRootPath.isEmpty() && r.trustedRootIsDefault && !r.databasePath.isEmpty())
        a << QStringLiteral("--db") << r.databasePath;
    else
        a << QStringLiteral("--trusted-root") << rootArg(r);
    return a;
}

QStringList cosignArguments(const VerifyRequest& r) {
    QStringList a{QStringLiteral("cosign"),
                  r.dsse ? QStringLiteral("verify-blob-attestation") : QStringLiteral("verify-blob"),
                  QStringLiteral("--bundle"),
                  r.bundlePath,
                  QStringLiteral("--trusted-root"),
                  rootArg(r)};
    if (r.keyMode) {
        a << QStringLiteral("--key") << r.keyPath;
        if (r.ignoreTlog)
            a << QStringLiteral("--insecure-ignore-tlog=true");
    } else {
        // The policy's own flags, so the app and cosign cannot disagree on their spelling.
        QStringList flags = r.policy().cosignFlags();
        if (flags.isEmpty())
            flags << QStringLiteral("--certificate-identity") << r.identity
                  << QStringLiteral("--certificate-oidc-issuer") << r.issuer;
        a << flags;
    }
    if (r.digestMode) {
        QString hex = digestArg(r);
        if (hex.startsWith(QLatin1String("sha256:")))
            hex = hex.mid(7);
        a << QStringLiteral("--digest") << hex << QStringLiteral("--digestAlg") << QStringLiteral("sha256");
    } else {
        a << r.artifactPath;
    }
    return a;
}

QString trustedRootProvenanceText(const store::StoredTrustedRoot& root) {
    if (!root.provenance)
        return root.sourcePath.isEmpty()
                   ? QObject::tr("Imported from %1").arg(root.name)
                   : QObject::tr("Imported from %1").arg(QDir::toNativeSeparators(root.sourcePath));
    const store::TrustedRootProvenance& p = *root.provenance;
    return QObject::tr("From TUF: %1. Repository %2; anchor %3 (v%4). Earliest expiry %5.")
        .arg(p.summary(), QDir::toNativeSeparators(p.repository), p.anchorName)
        .arg(p.anchorVersion)
        .arg(p.earliestExpiry().toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
}

} // namespace pb::models
