#include "SigningModels.h"

#include "ops/Keygen.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>

#include <algorithm>
#include <array>

namespace pb::models {

using deploy::FileState;
using deploy::TrustLevel;

namespace {

QVariant greyed() {
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

// The glyph inside a disc: a tick, a cross, a bar, a plus, a "not equal" or a question mark.
enum class Glyph { Tick, Cross, Minus, Plus, NotEqual, Question, Shield };

QImage discImage(const QColor& c, Glyph g, int size) {
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 16.0, size / 16.0);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawEllipse(QRectF(1, 1, 14, 14));
    p.setPen(QPen(Qt::white, 1.9, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    switch (g) {
    case Glyph::Tick: {
        QPainterPath check;
        check.moveTo(4.6, 8.3);
        check.lineTo(7.0, 10.7);
        check.lineTo(11.4, 5.6);
        p.drawPath(check);
        break;
    }
    case Glyph::Cross:
        p.drawLine(QPointF(5.3, 5.3), QPointF(10.7, 10.7));
        p.drawLine(QPointF(10.7, 5.3), QPointF(5.3, 10.7));
        break;
    case Glyph::Minus:
        p.drawLine(QPointF(4.8, 8), QPointF(11.2, 8));
        break;
    case Glyph::Plus:
        p.drawLine(QPointF(4.8, 8), QPointF(11.2, 8));
        p.drawLine(QPointF(8, 4.8), QPointF(8, 11.2));
        break;
    case Glyph::NotEqual:
        p.setPen(QPen(Qt::white, 1.6, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(4.8, 6.6), QPointF(11.2, 6.6));
        p.drawLine(QPointF(4.8, 9.6), QPointF(11.2, 9.6));
        p.drawLine(QPointF(9.6, 4.4), QPointF(6.4, 11.8));
        break;
    case Glyph::Question: {
        QPainterPath q;
        q.moveTo(5.9, 6.3);
        q.cubicTo(5.9, 3.6, 10.3, 3.6, 10.3, 6.2);
        q.cubicTo(10.3, 7.9, 8.0, 7.9, 8.0, 9.6);
        p.drawPath(q);
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        p.drawEllipse(QPointF(8, 12.0), 1.1, 1.1);
        break;
    }
    case Glyph::Shield: {
        // Attested: a signature line under a tick — signed by the key, the creator not proven.
        QPainterPath check;
        check.moveTo(4.8, 7.4);
        check.lineTo(7.0, 9.6);
        check.lineTo(11.2, 4.9);
        p.drawPath(check);
        p.setPen(QPen(Qt::white, 1.4, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(4.6, 11.8), QPointF(11.4, 11.8));
        break;
    }
    }
    return img;
}

QIcon discIcon(const QColor& c, Glyph g) {
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return {};
    QIcon icon;
    for (int size : {16, 32, 64})
        icon.addPixmap(QPixmap::fromImage(discImage(c, g, size)));
    return icon;
}

// Icons are drawn once per process (QIcon needs a GUI application; freed before it goes).
std::array<QIcon, 4>* g_trustIcons = nullptr;
std::array<QIcon, 4>* g_fileIcons = nullptr;

void dropIcons() {
    delete g_trustIcons;
    g_trustIcons = nullptr;
    delete g_fileIcons;
    g_fileIcons = nullptr;
}

void ensureIcons() {
    if (g_trustIcons || !qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return;
    qAddPostRoutine(dropIcons);
    g_trustIcons = new std::array<QIcon, 4>{
        discIcon(TrustStyle::color(TrustLevel::Unknown), Glyph::Cross),
        discIcon(TrustStyle::color(TrustLevel::Unverified), Glyph::Question),
        discIcon(TrustStyle::color(TrustLevel::Attested), Glyph::Shield),
        discIcon(TrustStyle::color(TrustLevel::Verified), Glyph::Tick),
    };
    g_fileIcons = new std::array<QIcon, 4>{
        discIcon(TrustStyle::fileColor(FileState::Ok), Glyph::Tick),
        discIcon(TrustStyle::fileColor(FileState::Changed), Glyph::NotEqual),
        discIcon(TrustStyle::fileColor(FileState::Missing), Glyph::Minus),
        discIcon(TrustStyle::fileColor(FileState::Unexpected), Glyph::Plus),
    };
}

int problemRank(FileState s) {
    switch (s) {
    case FileState::Changed:
        return 0;
    case FileState::Missing:
        return 1;
    case FileState::Unexpected:
        return 2;
    case FileState::Ok:
        break;
    }
    return 3;
}

} // namespace

// --- Style --------------------------------------------------------------------------------------

QColor TrustStyle::color(TrustLevel level) {
    switch (level) {
    case TrustLevel::Verified:
        return QColor(0x2E, 0x7D, 0x32);
    case TrustLevel::Attested:
        return QColor(0x15, 0x65, 0xC0);
    case TrustLevel::Unverified:
        return QColor(0xC7, 0x7C, 0x02);
    case TrustLevel::Unknown:
        break;
    }
    return QColor(0xC6, 0x28, 0x28);
}

QColor TrustStyle::background(TrustLevel level) {
    switch (level) {
    case TrustLevel::Verified:
        return QColor(0xE3, 0xF4, 0xE6);
    case TrustLevel::Attested:
        return QColor(0xE1, 0xEC, 0xFA);
    case TrustLevel::Unverified:
        return QColor(0xFF, 0xF3, 0xD0);
    case TrustLevel::Unknown:
        break;
    }
    return QColor(0xFB, 0xE3, 0xE3);
}

QIcon TrustStyle::icon(TrustLevel level) {
    ensureIcons();
    if (!g_trustIcons)
        return {};
    return (*g_trustIcons)[static_cast<size_t>(static_cast<int>(level) - 1)];
}

QColor TrustStyle::fileColor(FileState s) {
    switch (s) {
    case FileState::Ok:
        return QColor(0x2E, 0x7D, 0x32);
    case FileState::Changed:
        return QColor(0xC6, 0x28, 0x28);
    case FileState::Missing:
        return QColor(0xE6, 0x51, 0x00);
    case FileState::Unexpected:
        break;
    }
    return QColor(0x7B, 0x1F, 0xA2);
}

QIcon TrustStyle::fileIcon(FileState s) {
    ensureIcons();
    if (!g_fileIcons)
        return {};
    return (*g_fileIcons)[static_cast<size_t>(s)];
}

QString TrustStyle::explanation(TrustLevel level) {
    switch (level) {
    case TrustLevel::Verified:
        return QStringLiteral("Every file matches, the bundle attestation verifies and the aicr binary that "
                              "made it is NVIDIA's release.");
    case TrustLevel::Attested:
        return QStringLiteral("Every file matches and the bundle attestation verifies; the creator's binary "
                              "is not proven.");
    case TrustLevel::Unverified:
        return QStringLiteral("Every file matches checksums.txt, but nothing signs it.");
    case TrustLevel::Unknown:
        break;
    }
    return QStringLiteral("Nothing about this bundle can be trusted.");
}

// --- Keys ---------------------------------------------------------------------------------------

KeysModel::KeysModel(QObject* parent) : QAbstractTableModel(parent) {}

Result<std::vector<StoredKey>> storedPublicKeys(const ops::Context& ctx) {
    return ops::publicKeys(ctx);
}

void KeysModel::setKeys(std::vector<store::StoredKey> keys) {
    beginResetModel();
    m_keys = std::move(keys);
    std::stable_sort(m_keys.begin(), m_keys.end(), [](const store::StoredKey& a, const store::StoredKey& b) {
        return a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id > b.id;
    });
    endResetModel();
}

int KeysModel::rowOfFingerprint(const QString& fingerprint) const {
    for (size_t i = 0; i < m_keys.size(); ++i)
        if (m_keys[i].fingerprint == fingerprint)
            return static_cast<int>(i);
    return -1;
}

int KeysModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_keys.size());
}

int KeysModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KeysModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const store::StoredKey& k = keyAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LabelColumn:
            return k.label.isEmpty() ? QStringLiteral("(no label)") : k.label;
        case FingerprintColumn:
            return k.fingerprint;
        case CreatedColumn:
            return k.createdAt.isValid() ? k.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                         : QString();
        default:
            return {};
        }
    case Qt::FontRole:
        if (index.column() == FingerprintColumn)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == CreatedColumn || (index.column() == LabelColumn && k.label.isEmpty()))
            return greyed();
        return {};
    case Qt::ToolTipRole:
        return QStringLiteral("%1\nfingerprint (SHA-256 of the public key; bundles carry it in base64 as "
                              "their hint): %2\n"
                              "added %3 UTC")
            .arg(k.label, k.fingerprint, k.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    case FingerprintRole:
        return k.fingerprint;
    case PublicPemRole:
        return k.publicPem;
    case IdRole:
        return k.id;
    default:
        return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LabelColumn:
        return QStringLiteral("Key");
    case FingerprintColumn:
        return QStringLiteral("Fingerprint");
    case CreatedColumn:
        return QStringLiteral("Added (UTC)");
    default:
        return {};
    }
}

// --- Deployment files ---------------------------------------------------------------------------

DeploymentFilesModel::DeploymentFilesModel(QObject* parent) : QAbstractTableModel(parent) {}

void DeploymentFilesModel::setFiles(std::vector<deploy::FileCheck> files) {
    beginResetModel();
    m_files = std::move(files);
    endResetModel();
}

int DeploymentFilesModel::rowOf(const QString& path) const {
    for (size_t i = 0; i < m_files.size(); ++i)
        if (m_files[i].path == path)
            return static_cast<int>(i);
    return -1;
}

int DeploymentFilesModel::countOf(FileState s) const {
    return static_cast<int>(std::count_if(m_files.begin(), m_files.end(),
                                          [s](const deploy::FileCheck& f) { return f.state == s; }));
}

int DeploymentFilesModel::problemCount() const {
    return static_cast<int>(m_files.size()) - countOf(FileState::Ok);
}

int DeploymentFilesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_files.size());
}

int DeploymentFilesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeploymentFilesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const deploy::FileCheck& f = fileAt(index.row());
    const int col = index.column();
    const bool problem = f.state != FileState::Ok;
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case StateColumn:
            return deploy::fileStateName(f.state);
        case PathColumn:
            return f.path;
        case ExpectedColumn:
            return f.expected.isEmpty()
                       ? (f.state == FileState::Unexpected ? QStringLiteral("(not listed)") : QString())
                       : f.expected;
        case FoundColumn:
            return f.found.isEmpty()
                       ? (f.state == FileState::Missing ? QStringLiteral("(no such file)") : QString())
                       : f.found;
        default:
            return {};
        }
    case Qt::DecorationRole:
        return col == StateColumn ? QVariant(TrustStyle::fileIcon(f.state)) : QVariant();
    case Qt::ForegroundRole:
        if (col == StateColumn && problem)
            return TrustStyle::fileColor(f.state).darker(110);
        if ((col == ExpectedColumn && f.expected.isEmpty()) || (col == FoundColumn && f.found.isEmpty()))
            return greyed();
        if (col == FoundColumn && f.state == FileState::Changed)
            return TrustStyle::fileColor(f.state).darker(110);
        return {};
    case Qt::FontRole:
        if (col == ExpectedColumn || col == FoundColumn) {
            QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
            return mono;
        }
        if (problem && (col == StateColumn || col == PathColumn)) {
            QFont f2;
            f2.setBold(true);
            return f2;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1: %2").arg(f.path, deploy::fileStateName(f.state));
        if (!f.expected.isEmpty())
            tip += QStringLiteral("\nexpected sha256: %1").arg(f.expected);
        if (!f.found.isEmpty())
            tip += QStringLiteral("\nfound sha256:    %1").arg(f.found);
        return tip;
    }
    case StateRole:
        return deploy::fileStateName(f.state);
    case ProblemRole:
        return problem;
    case SortRole:
        switch (col) {
        case StateColumn:
            return QStringLiteral("%1 %2").arg(problemRank(f.state)).arg(f.path);
        case ExpectedColumn:
            return f.expected;
        case FoundColumn:
            return f.found;
        default:
            return f.path;
        }
    default:
        return {};
    }
}

QVariant DeploymentFilesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ExpectedColumn)
        return QStringLiteral("The file's sha256 as checksums.txt lists it");
    if (role == Qt::ToolTipRole && section == FoundColumn)
        return QStringLiteral("The sha256 of the file on disk now");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StateColumn:
        return QStringLiteral("State");
    case PathColumn:
        return QStringLiteral("File");
    case ExpectedColumn:
        return QStringLiteral("Expected sha256");
    case FoundColumn:
        return QStringLiteral("Found sha256");
    default:
        return {};
    }
}

// --- Filter -------------------------------------------------------------------------------------

DeploymentFilesFilterModel::DeploymentFilesFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(DeploymentFilesModel::SortRole);
}

void DeploymentFilesFilterModel::setProblemsOnly(bool on) {
    if (on == m_problemsOnly)
        return;
    m_problemsOnly = on;
    invalidateRowsFilter();
}

void DeploymentFilesFilterModel::setFilterText(const QString& text) {
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateRowsFilter();
}

bool DeploymentFilesFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex idx = sourceModel()->index(sourceRow, DeploymentFilesModel::PathColumn, sourceParent);
    if (m_problemsOnly && !idx.data(DeploymentFilesModel::ProblemRole).toBool())
        return false;
    if (m_words.isEmpty())
        return true;
    const QString path = idx.data().toString();
    const QString state = idx.data(DeploymentFilesModel::StateRole).toString();
    return std::all_of(m_words.begin(), m_words.end(), [&](const QString& w) {
        return path.contains(w, Qt::CaseInsensitive) || state.compare(w, Qt::CaseInsensitive) == 0;
    });
}

} // namespace pb::models
