#include "HealthModels.h"

#include "Plural.h"

#include "db/Database.h"
#include "report/HealthTable.h"

#include <QCoreApplication>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>
#include <QRegularExpression>

#include <algorithm>
#include <cstring>
#include <set>

namespace pb::models {

using evidence::HealthRow;
using evidence::HealthStatus;
using evidence::Pointer;
using evidence::PointerLayout;
using evidence::SignerClass;

// --- Colours and icons --------------------------------------------------------------------------

QColor HealthStyle::color(HealthStatus s) {
    switch (s) {
    case HealthStatus::Verified:
        return QColor(0x2E, 0x7D, 0x32);
    case HealthStatus::VerifiedFailedPhases:
        return QColor(0xE6, 0x51, 0x00);
    case HealthStatus::VerifiedIncomplete:
        return QColor(0x8D, 0x6E, 0x63);
    case HealthStatus::Signed:
        return QColor(0x15, 0x65, 0xC0);
    case HealthStatus::Pending:
        return QColor(0xC7, 0x7C, 0x02);
    case HealthStatus::Stale:
        return QColor(0x7B, 0x1F, 0xA2);
    case HealthStatus::Invalid:
        return QColor(0xC6, 0x28, 0x28);
    case HealthStatus::NoEvidence:
        break;
    }
    return QColor(0x8A, 0x8A, 0x8A);
}

QColor HealthStyle::background(HealthStatus s) {
    switch (s) {
    case HealthStatus::Verified:
        return QColor(0xD8, 0xF2, 0xDF);
    case HealthStatus::VerifiedFailedPhases:
        return QColor(0xFF, 0xE0, 0xC2);
    case HealthStatus::VerifiedIncomplete:
        return QColor(0xEF, 0xE6, 0xE2);
    case HealthStatus::Signed:
        return QColor(0xDA, 0xE8, 0xFA);
    case HealthStatus::Pending:
        return QColor(0xFF, 0xF0, 0xC2);
    case HealthStatus::Stale:
        return QColor(0xEE, 0xDD, 0xF5);
    case HealthStatus::Invalid:
        return QColor(0xFB, 0xDA, 0xDA);
    case HealthStatus::NoEvidence:
        break;
    }
    return {}; // no tint: the absence of evidence is the normal case, not an alarm
}

int HealthStyle::rank(HealthStatus s) {
    switch (s) {
    case HealthStatus::Invalid:
        return 0;
    case HealthStatus::VerifiedFailedPhases:
        return 1;
    case HealthStatus::VerifiedIncomplete:
        return 2;
    case HealthStatus::Stale:
        return 3;
    case HealthStatus::NoEvidence:
        return 4;
    case HealthStatus::Pending:
        return 5;
    case HealthStatus::Signed:
        return 6;
    case HealthStatus::Verified:
        return 7;
    }
    return 4;
}

namespace {

// Draws the status glyph on a 16×16 grid scaled to `size`.
QImage statusImage(HealthStatus s, int size) {
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 16.0, size / 16.0);
    const QColor c = HealthStyle::color(s);
    QPen white(Qt::white, 1.9, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    if (s == HealthStatus::NoEvidence) {
        p.setPen(QPen(c, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(1.75, 1.75, 12.5, 12.5));
        p.setPen(QPen(c, 1.8, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(5.5, 8), QPointF(10.5, 8));
        return img;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawEllipse(QRectF(1, 1, 14, 14));
    p.setPen(white);
    p.setBrush(Qt::NoBrush);
    switch (s) {
    case HealthStatus::Verified: {
        QPainterPath check;
        check.moveTo(4.6, 8.3);
        check.lineTo(7.0, 10.7);
        check.lineTo(11.4, 5.6);
        p.drawPath(check);
        break;
    }
    case HealthStatus::VerifiedFailedPhases:
        p.drawLine(QPointF(8, 4.2), QPointF(8, 9.0));
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        p.drawEllipse(QPointF(8, 11.7), 1.15, 1.15);
        break;
    case HealthStatus::Signed: {
        // A signature scribble: signed, but nobody has checked it yet.
        QPainterPath scribble;
        scribble.moveTo(3.8, 10.0);
        scribble.cubicTo(5.0, 5.0, 6.6, 13.0, 8.0, 8.6);
        scribble.cubicTo(9.2, 5.0, 10.4, 11.8, 12.4, 7.4);
        p.setPen(QPen(Qt::white, 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPath(scribble);
        break;
    }
    case HealthStatus::Pending: {
        QPainterPath hands;
        hands.moveTo(8, 4.3);
        hands.lineTo(8, 8.2);
        hands.lineTo(10.8, 9.9);
        p.drawPath(hands);
        break;
    }
    case HealthStatus::Stale: {
        QPainterPath arc;
        const QRectF r(4.4, 4.4, 7.2, 7.2);
        arc.arcMoveTo(r, 100);
        arc.arcTo(r, 100, 260);
        p.setPen(QPen(Qt::white, 1.6, Qt::SolidLine, Qt::RoundCap));
        p.drawPath(arc);
        QPainterPath head;
        head.moveTo(7.3, 2.9);
        head.lineTo(9.9, 4.7);
        head.lineTo(7.0, 6.3);
        head.closeSubpath();
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        p.drawPath(head);
        break;
    }
    case HealthStatus::Invalid:
        p.drawLine(QPointF(5.3, 5.3), QPointF(10.7, 10.7));
        p.drawLine(QPointF(10.7, 5.3), QPointF(5.3, 10.7));
        break;
    case HealthStatus::VerifiedIncomplete:
        // Three dots: verified, but not every check ran to a verdict.
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        for (const qreal x : {4.6, 8.0, 11.4})
            p.drawEllipse(QPointF(x, 8.0), 1.2, 1.2);
        break;
    case HealthStatus::NoEvidence:
        break;
    }
    return img;
}

// Built on first use (a QPixmap needs the GUI application), dropped before it goes away.
std::array<QIcon, kHealthStatuses.size()>* g_icons = nullptr;

void dropIcons() {
    delete g_icons;
    g_icons = nullptr;
}

QVariant greyed() {
    return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
}

QString utcText(const QDateTime& t) {
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : QString();
}

// SearchTextRole: the recipe, its status and its criteria (Criteria::dimensions() order), joined by
// spaces and lower-cased. Written in one pass when it is all ASCII, as recipe names and criteria
// are (10,000 of these are built before the table's first paint).
QString searchText(const HealthRow& r) {
    const QString status = healthStatusName(r.status);
    const QString* const words[] = {&r.recipe,
                                    &status,
                                    &r.criteria.service,
                                    &r.criteria.accelerator,
                                    &r.criteria.os,
                                    &r.criteria.intent,
                                    &r.criteria.platform,
                                    &r.leafOverlay};
    qsizetype size = -1;
    for (const QString* w : words)
        size += 1 + w->size();
    QString out(size, Qt::Uninitialized);
    char16_t* d = reinterpret_cast<char16_t*>(out.data());
    char16_t any = 0;
    for (const QString* w : words) {
        if (w != words[0])
            *d++ = u' ';
        for (const QChar ch : *w) {
            const char16_t c = ch.unicode();
            any |= c;
            *d++ = c >= u'A' && c <= u'Z' ? char16_t(c + 32) : c;
        }
    }
    if (any < 0x80)
        return out;
    QStringList all;
    for (const QString* w : words)
        all << *w;
    return all.join(QLatin1Char(' ')).toLower();
}

// The criterion a criteria column shows (Criteria::dimensions() order); empty for other columns.
const QString& criterionOf(const HealthRow& r, int column) {
    static const QString none;
    switch (column) {
    case HealthModel::ServiceColumn:
        return r.criteria.service;
    case HealthModel::AcceleratorColumn:
        return r.criteria.accelerator;
    case HealthModel::OsColumn:
        return r.criteria.os;
    case HealthModel::IntentColumn:
        return r.criteria.intent;
    case HealthModel::PlatformColumn:
        return r.criteria.platform;
    default:
        return none;
    }
}

// The sign of QString::compare(a, b, Qt::CaseInsensitive), without Qt's per-character case folding
// while both strings are ASCII (recipe names and criteria are): the first differing pair that is
// not ASCII hands the whole comparison to Qt.
int compareCaseInsensitive(QStringView a, QStringView b) {
    const qsizetype n = std::min(a.size(), b.size());
    const char16_t* x = a.utf16();
    const char16_t* y = b.utf16();
    qsizetype i = 0;
    // Names share long prefixes ("h100-eks-ubuntu-training-…"): skip equal ones four at a time.
    for (; i + 4 <= n; i += 4) {
        quint64 wx, wy;
        std::memcpy(&wx, x + i, sizeof wx);
        std::memcpy(&wy, y + i, sizeof wy);
        if (wx != wy)
            break;
    }
    for (; i < n; ++i) {
        char16_t cx = x[i], cy = y[i];
        if (cx == cy)
            continue; // same prefix, same folding
        if (cx >= 0x80 || cy >= 0x80)
            return QtPrivate::compareStrings(a, b, Qt::CaseInsensitive);
        if (cx >= u'A' && cx <= u'Z')
            cx += 32;
        if (cy >= u'A' && cy <= u'Z')
            cy += 32;
        if (cx != cy)
            return cx < cy ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

} // namespace

QIcon HealthStyle::icon(HealthStatus s) {
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return {};
    if (!g_icons) {
        g_icons = new std::array<QIcon, kHealthStatuses.size()>();
        qAddPostRoutine(dropIcons);
    }
    // Each drawn when first asked for: a table that shows one status draws one icon.
    QIcon& icon = (*g_icons)[static_cast<size_t>(s)];
    if (icon.isNull())
        for (int size : {16, 32, 64})
            icon.addPixmap(QPixmap::fromImage(statusImage(s, size)));
    return icon;
}

QIcon HealthStyle::pointerIcon(const Pointer& p) {
    if (!p.isValid())
        return icon(HealthStatus::Invalid);
    if (!p.isSigned())
        return icon(HealthStatus::Pending);
    return icon(HealthStatus::Signed);
}

int signerCount(const HealthRow& row, SignerClass c) {
    switch (c) {
    case SignerClass::FirstParty:
        return row.firstParty;
    case SignerClass::Community:
        return row.community;
    case SignerClass::Partner:
        return row.partner;
    case SignerClass::Reported:
        break;
    }
    return row.reported;
}

QString signersText(const HealthRow& row) {
    QStringList parts;
    for (SignerClass c : kSignerClasses)
        if (const int n = signerCount(row, c); n > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(evidence::signerClassName(c));
    return parts.join(QStringLiteral(" · "));
}

// --- HealthModel --------------------------------------------------------------------------------

QString recipeToolTip(const HealthRow& r) {
    // The full name (the view elides in the middle), what it resolves from and where its evidence is.
    QStringList lines{r.displayName()};
    if (r.displayName() != r.recipe)
        lines << QStringLiteral("recipe name: %1").arg(r.recipe);
    if (!r.leafOverlay.isEmpty() && r.leafOverlay != r.displayName())
        lines << QStringLiteral("leaf overlay: %1").arg(r.leafOverlay);
    if (!r.evidenceName.isEmpty())
        lines << QStringLiteral("evidence recorded as: %1").arg(r.evidenceName);
    lines << (r.inCatalog()
                  ? QStringLiteral("%1: %2").arg(healthStatusName(r.status), r.reason)
                  : QStringLiteral("Evidence for a recipe that is not in this catalog version.\n%1: %2")
                        .arg(healthStatusName(r.status), r.reason));
    return lines.join(QLatin1Char('\n'));
}

HealthModel::HealthModel(QObject* parent) : QAbstractTableModel(parent) {}

void HealthModel::setRows(std::vector<HealthRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    m_search.clear();
    m_search.reserve(m_rows.size());
    m_names.clear();
    m_names.reserve(m_rows.size());
    m_counts.fill(0);
    for (const HealthRow& r : m_rows) {
        m_search.push_back(searchText(r));
        m_names.push_back(r.displayName()); // shares the recipe's string unless it differs
        ++m_counts[static_cast<size_t>(r.status)];
    }
    endResetModel();
}

int HealthModel::rowOf(const QString& recipe) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].recipe == recipe)
            return static_cast<int>(i);
    return -1;
}

int HealthModel::countOf(HealthStatus s) const {
    return m_counts[static_cast<size_t>(s)];
}

QStringList HealthModel::distinctValues(Column column) const {
    if (column < ServiceColumn || column > PlatformColumn)
        return {};
    std::set<QString> values;
    for (const HealthRow& r : m_rows)
        if (const QString& v = criterionOf(r, column); !v.isEmpty())
            values.insert(v);
    return QStringList(values.begin(), values.end());
}

HealthModel::SortKey HealthModel::sortKey(int row, int col) const {
    // Mirrors data(SortRole); lessThan() compares these.
    const HealthRow& r = m_rows[static_cast<size_t>(row)];
    auto text = [](QStringView v) { return SortKey{v, 0, true}; };
    auto number = [](qint64 v) { return SortKey{{}, v, false}; };
    if (col >= ServiceColumn && col <= PlatformColumn)
        return r.inCatalog() ? text(criterionOf(r, col)) : text(u"\U0010FFFF"); // outside the catalog: last
    switch (col) {
    case RecipeColumn:
        return text(m_names[static_cast<size_t>(row)]);
    case StatusColumn:
        return number(HealthStyle::rank(r.status));
    case SignersColumn:
        return number(r.firstParty + r.community + r.partner + r.reported);
    case PointersColumn:
        return number(r.pointers);
    case AttestedColumn:
        return number(r.newestAttestedAt.isValid() ? r.newestAttestedAt.toMSecsSinceEpoch() : qint64(-1));
    case PhasesColumn:
        return text(r.phaseCoverage);
    case StaleColumn: {
        const bool bundleKnown = !r.phaseCoverage.isEmpty() || !r.aicrVersion.isEmpty();
        return number(r.stale ? 2 : (r.pointers > 0 && !bundleKnown ? 1 : 0));
    }
    default:
        return number(0); // an invalid QVariant compares as 0
    }
}

int HealthModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int HealthModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HealthModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HealthRow& r = m_rows[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool criteriaColumn = col >= ServiceColumn && col <= PlatformColumn;
    const QString& criterion = criterionOf(r, col);
    // Staleness needs the recipe digest a bundle records; until bundles are read it is unknown.
    const bool bundleKnown = !r.phaseCoverage.isEmpty() || !r.aicrVersion.isEmpty();

    switch (role) {
    case Qt::DisplayRole:
        if (criteriaColumn)
            return !r.inCatalog()        ? QStringLiteral("—")
                   : criterion.isEmpty() ? QStringLiteral("any")
                                         : criterion;
        switch (col) {
        case RecipeColumn:
            return m_names[static_cast<size_t>(index.row())];
        case StatusColumn:
            return healthStatusName(r.status);
        case SignersColumn:
            return signersText(r);
        case PointersColumn: {
            if (r.pointers == 0)
                return QString();
            QStringList extra;
            if (r.pending > 0)
                extra << QStringLiteral("%1 pending").arg(r.pending);
            if (r.invalid > 0)
                extra << QStringLiteral("%1 invalid").arg(r.invalid);
            return extra.isEmpty()
                       ? QString::number(r.pointers)
                       : QStringLiteral("%1 (%2)").arg(r.pointers).arg(extra.join(QStringLiteral(", ")));
        }
        case AttestedColumn:
            return utcText(r.newestAttestedAt);
        case PhasesColumn:
            return r.phaseCoverage;
        case StaleColumn:
            if (r.stale)
                return QStringLiteral("stale");
            if (r.pointers == 0)
                return QString();
            return bundleKnown ? QStringLiteral("current") : QStringLiteral("not checked");
        default:
            return {};
        }
    case SortRole:
        if (criteriaColumn)
            return r.inCatalog() ? criterion : QStringLiteral("\U0010FFFF"); // outside the catalog: last
        switch (col) {
        case RecipeColumn:
            return m_names[static_cast<size_t>(index.row())];
        case StatusColumn:
            return HealthStyle::rank(r.status);
        case SignersColumn:
            return r.firstParty + r.community + r.partner + r.reported;
        case PointersColumn:
            return r.pointers;
        case AttestedColumn:
            return r.newestAttestedAt.isValid() ? r.newestAttestedAt.toMSecsSinceEpoch() : qint64(-1);
        case PhasesColumn:
            return r.phaseCoverage;
        case StaleColumn:
            return r.stale ? 2 : (r.pointers > 0 && !bundleKnown ? 1 : 0);
        default:
            return {};
        }
    case StatusRole:
        return static_cast<int>(r.status);
    case InCatalogRole:
        return r.inCatalog();
    case RecipeRole:
        return r.recipe;
    case SearchTextRole:
        return m_search[static_cast<size_t>(index.row())];
    case Qt::DecorationRole:
        if (col == StatusColumn)
            return HealthStyle::icon(r.status);
        return {};
    case Qt::BackgroundRole:
        if (col == StatusColumn && HealthStyle::background(r.status).isValid())
            return HealthStyle::background(r.status);
        return {};
    case Qt::ForegroundRole:
        if (col == StatusColumn)
            return r.status == HealthStatus::NoEvidence ? greyed()
                                                        : QVariant(HealthStyle::color(r.status).darker(125));
        if (!r.inCatalog() || (criteriaColumn && criterion.isEmpty()))
            return greyed();
        if (col == StaleColumn)
            return r.stale ? QVariant(HealthStyle::color(HealthStatus::Stale)) : greyed();
        if (col == PointersColumn && r.invalid > 0)
            return HealthStyle::color(HealthStatus::Invalid);
        return {};
    case Qt::FontRole:
        if (!r.inCatalog()) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        switch (col) {
        case RecipeColumn:
            return recipeToolTip(r);
        case StatusColumn:
            return r.inCatalog()
                       ? QStringLiteral("%1: %2").arg(healthStatusName(r.status), r.reason)
                       : QStringLiteral("Evidence for a recipe that is not in this catalog version.\n%1: %2")
                             .arg(healthStatusName(r.status), r.reason);
        case SignersColumn:
            return QStringLiteral(
                       "Valid signed pointers by signer class:\nfirst-party %1\ncommunity %2\npartner "
                       "%3\nreported-only %4")
                .arg(r.firstParty)
                .arg(r.community)
                .arg(r.partner)
                .arg(r.reported);
        case PointersColumn:
            return r.pointers == 0
                       ? QString()
                       : QStringLiteral("%1, of which %2 pending (unsigned) and %3 invalid")
                             .arg(counted(r.pointers, QStringLiteral("pointer"), QStringLiteral("pointers")))
                             .arg(r.pending)
                             .arg(r.invalid);
        case AttestedColumn:
            return r.newestPredicateType.isEmpty()
                       ? QString()
                       : QStringLiteral("predicate: %1").arg(r.newestPredicateType);
        case PhasesColumn:
            return r.phaseCoverage.isEmpty() && r.pointers > 0
                       ? QStringLiteral(
                             "Phase results come from the evidence bundles, which are not read yet")
                       : QString();
        case StaleColumn:
            return r.pointers > 0 && !bundleKnown
                       ? QStringLiteral(
                             "Staleness compares the recipe digest recorded in the evidence bundle with "
                             "this catalog's; bundles are not read yet")
                       : QString();
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant HealthModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[] = {"Recipe",   "Service",         "Accelerator", "OS",
                                            "Intent",   "Platform",        "Status",      "Signers",
                                            "Pointers", "Newest attested", "Phases",      "Stale"};
        return QString::fromLatin1(names[section]);
    }
    if (role == Qt::InitialSortOrderRole) // most, newest first
        return section == SignersColumn || section == PointersColumn || section == AttestedColumn
                   ? QVariant(int(Qt::DescendingOrder))
                   : QVariant(int(Qt::AscendingOrder));
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StatusColumn:
            return QStringLiteral(
                "Derived from the evidence pointers and bundles. \"verified\" means the newest bundle's "
                "attestation verified offline against a trusted root; a signed pointer whose bundle was "
                "not verified shows as \"signed (not verified)\".");
        case SignersColumn:
            return QStringLiteral("Valid signed pointers by signer class (from the allowlist)");
        case PointersColumn:
            return QStringLiteral(
                "Every evidence pointer naming the recipe, pending and invalid ones included");
        case StaleColumn:
            return QStringLiteral("Whether the evidence was recorded for a different recipe digest than this "
                                  "catalog's");
        default:
            return {};
        }
    }
    return {};
}

// --- HealthFilterProxyModel ---------------------------------------------------------------------

HealthFilterProxyModel::HealthFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(HealthModel::SortRole);
    setDynamicSortFilter(true);
}

void HealthFilterProxyModel::setSourceModel(QAbstractItemModel* model) {
    m_health = qobject_cast<const HealthModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void HealthFilterProxyModel::setFilterText(const QString& text) {
    const QStringList words =
        text.toLower().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateRowsFilter();
}

void HealthFilterProxyModel::setStatusFilter(std::optional<HealthStatus> status) {
    if (status == m_status)
        return;
    m_status = status;
    invalidateRowsFilter();
}

void HealthFilterProxyModel::setServiceFilter(const QString& service) {
    if (service == m_service)
        return;
    m_service = service;
    invalidateRowsFilter();
}

void HealthFilterProxyModel::setAcceleratorFilter(const QString& accelerator) {
    if (accelerator == m_accelerator)
        return;
    m_accelerator = accelerator;
    invalidateRowsFilter();
}

void HealthFilterProxyModel::setSignerFilter(SignerFilter filter) {
    if (filter == m_signer)
        return;
    m_signer = filter;
    invalidateRowsFilter();
}

bool HealthFilterProxyModel::isFiltering() const {
    return !m_words.isEmpty() || m_status || !m_service.isEmpty() || !m_accelerator.isEmpty() ||
           m_signer != SignerFilter::Any;
}

std::vector<HealthRow> HealthFilterProxyModel::visibleRows() const {
    std::vector<HealthRow> out;
    const auto* model = qobject_cast<const HealthModel*>(sourceModel());
    if (!model)
        return out;
    out.reserve(static_cast<size_t>(rowCount()));
    for (int i = 0; i < rowCount(); ++i)
        out.push_back(model->rowAt(mapToSource(index(i, 0)).row()));
    return out;
}

bool HealthFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const auto* model = qobject_cast<const HealthModel*>(sourceModel());
    if (!model || sourceParent.isValid())
        return true;
    const HealthRow& r = model->rowAt(sourceRow);
    if (m_status && r.status != *m_status)
        return false;
    if (!m_service.isEmpty() && r.criteria.service != m_service)
        return false;
    if (!m_accelerator.isEmpty() && r.criteria.accelerator != m_accelerator)
        return false;
    switch (m_signer) {
    case SignerFilter::Any:
        break;
    case SignerFilter::FirstParty:
        if (r.firstParty == 0)
            return false;
        break;
    case SignerFilter::Community:
        if (r.community == 0)
            return false;
        break;
    case SignerFilter::Partner:
        if (r.partner == 0)
            return false;
        break;
    case SignerFilter::Reported:
        if (r.reported == 0)
            return false;
        break;
    case SignerFilter::Unsigned:
        if (r.firstParty + r.community + r.partner + r.reported > 0)
            return false;
        break;
    }
    if (m_words.isEmpty())
        return true;
    const QString haystack = model->index(sourceRow, 0).data(HealthModel::SearchTextRole).toString();
    return std::all_of(m_words.cbegin(), m_words.cend(),
                       [&](const QString& w) { return haystack.contains(w); });
}

bool HealthFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (m_health && sortRole() == HealthModel::SortRole && left.model() == m_health &&
        right.model() == m_health) {
        // What the QVariant path below does, straight from the rows: a sort of 10,000 rows makes
        // some 130,000 of these comparisons.
        const HealthModel::SortKey a = m_health->sortKey(left.row(), left.column());
        const HealthModel::SortKey b = m_health->sortKey(right.row(), right.column());
        if (a.isText && b.isText) {
            if (const int c = compareCaseInsensitive(a.text, b.text); c != 0)
                return c < 0;
        } else if (!a.isText && !b.isText) {
            if (a.number != b.number)
                return a.number < b.number;
        }
        return m_health->rowAt(left.row()).recipe < m_health->rowAt(right.row()).recipe;
    }
    const QVariant a = left.data(HealthModel::SortRole), b = right.data(HealthModel::SortRole);
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString) {
        if (const int c = a.toString().compare(b.toString(), Qt::CaseInsensitive); c != 0)
            return c < 0;
    } else if (a.typeId() != QMetaType::QString && b.typeId() != QMetaType::QString) {
        const qint64 x = a.toLongLong(), y = b.toLongLong();
        if (x != y)
            return x < y;
    }
    // Ties: by recipe name, so equal keys keep a stable, readable order.
    return left.siblingAtColumn(HealthModel::RecipeColumn).data(HealthModel::RecipeRole).toString() <
           right.siblingAtColumn(HealthModel::RecipeColumn).data(HealthModel::RecipeRole).toString();
}

// --- PointerModel -------------------------------------------------------------------------------

PointerModel::PointerModel(QObject* parent) : QAbstractItemModel(parent) {}

void PointerModel::setPointers(std::vector<Pointer> pointers) {
    beginResetModel();
    m_pointers = std::move(pointers);
    m_entries.clear();
    for (const Pointer& p : m_pointers) {
        Entry e;
        const evidence::Attestation* a = p.attestation();
        const std::optional<evidence::Signer> signer = a ? a->signer : std::nullopt;
        auto field = [&e](const QString& key, const QString& label, const QString& value,
                          const QString& tip = {}) {
            e.items.push_back(Item{ItemKind::Field, key, label, value, tip});
        };
        field(QStringLiteral("file"), QStringLiteral("file"), p.file);
        field(QStringLiteral("layout"), QStringLiteral("layout"), evidence::layoutName(p.layout));
        field(QStringLiteral("recipe"), QStringLiteral("recipe"),
              p.recipe.isEmpty() ? QStringLiteral("—") : p.recipe);
        if (!p.profile.isEmpty())
            field(QStringLiteral("profile"), QStringLiteral("profile"), p.profile);
        if (signer) {
            field(QStringLiteral("identity"), QStringLiteral("signer identity"), signer->identity);
            field(QStringLiteral("issuer"), QStringLiteral("signer issuer"), signer->issuer);
            field(QStringLiteral("class"), QStringLiteral("signer class"),
                  p.signerClass ? evidence::signerClassName(*p.signerClass)
                                : QStringLiteral("— (no allowlist)"),
                  QStringLiteral("From the allowlist; a signer it does not list counts as reported-only"));
            if (p.layout == PointerLayout::PerSource)
                field(QStringLiteral("source"), QStringLiteral("source directory"), p.dirSource,
                      QStringLiteral("Expected: %1 (first 32 hex of sha256(issuer + \"\\n\" + identity))")
                          .arg(p.claimedSlug()));
            field(QStringLiteral("rekorLogIndex"), QStringLiteral("Rekor log index"),
                  signer->rekorLogIndex ? QString::number(*signer->rekorLogIndex) : QStringLiteral("—"));
            field(QStringLiteral("signature"), QStringLiteral("signature"),
                  QStringLiteral("not checked (signature verification is not implemented yet)"));
        } else {
            field(QStringLiteral("identity"), QStringLiteral("signer"),
                  QStringLiteral("none (unsigned, pending)"));
        }
        if (a) {
            field(QStringLiteral("attestedAt"), QStringLiteral("attested at"),
                  a->attestedAt.isValid() && a->attestedAtText != a->attestedAt.toString(Qt::ISODate)
                      ? QStringLiteral("%1 (%2)").arg(a->attestedAtText, utcText(a->attestedAt))
                      : a->attestedAtText);
            field(QStringLiteral("predicateType"), QStringLiteral("predicate type"), a->predicateType);
            field(QStringLiteral("oci"), QStringLiteral("OCI reference"), a->bundleOci);
            field(QStringLiteral("digest"), QStringLiteral("bundle digest"), a->bundleDigest);
        }
        field(QStringLiteral("schemaVersion"), QStringLiteral("schema version"), p.schemaVersion);
        for (const QString& problem : p.problems)
            e.items.push_back(
                Item{ItemKind::Problem, QStringLiteral("problem"), QStringLiteral("problem"), problem, {}});

        if (!p.isValid())
            e.summary = QStringLiteral("invalid — %1")
                            .arg(counted(static_cast<int>(p.problems.size()), QStringLiteral("problem"),
                                         QStringLiteral("problems")));
        else if (!p.isSigned())
            e.summary = QStringLiteral("pending (unsigned)");
        else {
            QStringList parts{QStringLiteral("signed (not verified)")};
            if (p.signerClass)
                parts << evidence::signerClassName(*p.signerClass);
            if (signer && !signer->identity.isEmpty())
                parts << signer->identity;
            if (a && a->attestedAt.isValid())
                parts << utcText(a->attestedAt);
            e.summary = parts.join(QStringLiteral(" · "));
        }
        m_entries.push_back(std::move(e));
    }
    endResetModel();
}

QString PointerModel::fieldValue(int pointerRow, const QString& key) const {
    if (pointerRow < 0 || pointerRow >= static_cast<int>(m_entries.size()))
        return {};
    for (const Item& it : m_entries[static_cast<size_t>(pointerRow)].items)
        if (it.kind == ItemKind::Field && it.key == key)
            return it.value;
    return {};
}

QModelIndex PointerModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex PointerModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int PointerModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(m_entries.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return static_cast<int>(m_entries[static_cast<size_t>(parent.row())].items.size());
}

int PointerModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PointerModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool top = index.internalId() == 0;
    const int pointerRow = top ? index.row() : static_cast<int>(index.internalId() - 1);
    const Pointer& p = m_pointers[static_cast<size_t>(pointerRow)];
    const Entry& e = m_entries[static_cast<size_t>(pointerRow)];
    if (role == PointerIndexRole)
        return pointerRow;
    if (top) {
        switch (role) {
        case Qt::DisplayRole:
            return index.column() == NameColumn ? p.file : e.summary;
        case Qt::DecorationRole:
            return index.column() == NameColumn ? QVariant(HealthStyle::pointerIcon(p)) : QVariant();
        case Qt::ToolTipRole:
            return p.isValid() ? p.file : p.file + QLatin1Char('\n') + p.problems.join(QLatin1Char('\n'));
        case Qt::ForegroundRole:
            return index.column() == ValueColumn && !p.isValid()
                       ? QVariant(HealthStyle::color(HealthStatus::Invalid))
                       : QVariant();
        case ItemKindRole:
            return QVariant::fromValue(ItemKind::Pointer);
        case ValidRole:
            return p.isValid();
        case FieldRole:
            return QStringLiteral("pointer");
        default:
            return {};
        }
    }
    const Item& it = e.items[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? it.label : it.value;
    case Qt::ToolTipRole:
        return it.tooltip.isEmpty() ? it.value : it.tooltip;
    case Qt::ForegroundRole:
        if (it.kind == ItemKind::Problem)
            return HealthStyle::color(HealthStatus::Invalid);
        if (index.column() == NameColumn)
            return greyed();
        return {};
    case Qt::DecorationRole:
        return it.kind == ItemKind::Problem && index.column() == NameColumn
                   ? QVariant(HealthStyle::icon(HealthStatus::Invalid))
                   : QVariant();
    case ItemKindRole:
        return QVariant::fromValue(it.kind);
    case FieldRole:
        return it.key;
    default:
        return {};
    }
}

QVariant PointerModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Pointer");
    case ValueColumn:
        return QStringLiteral("Value");
    default:
        return {};
    }
}

namespace healthdata {

Result<std::vector<store::CatalogVersionInfo>> catalogVersions(db::Database& db) {
    return store::CatalogStore(db).versions();
}

Result<std::vector<evidence::Pointer>> pointersFor(db::Database& db, const QString& recipe) {
    return store::EvidenceStore(db).pointersFor(recipe);
}

Result<std::vector<evidence::HealthRow>> rowsAt(db::Database& db, qint64 catalogVersionId) {
    return report::healthRows(db, catalogVersionId);
}

Result<std::vector<evidence::Pointer>> rowPointers(db::Database& db, const evidence::HealthRow& row) {
    return report::rowPointers(db, row);
}

Result<std::vector<store::BundleRecord>> rowBundlesAt(db::Database& db, const evidence::HealthRow& row) {
    return report::rowBundles(db, row);
}

Result<std::vector<store::BundleRecord>> bundlesAt(db::Database& db, const QString& recipe) {
    return store::EvidenceStore(db).bundlesFor(recipe);
}

} // namespace healthdata

} // namespace pb::models
