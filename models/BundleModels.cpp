#include "BundleModels.h"

#include "HealthModels.h"
#include "Plural.h"

#include <QDir>
#include <QFont>

namespace pb::models {

using store::HealthStatus;

QString bundleResultName(int checkExit) {
    switch (checkExit) {
    case 0:
        return QStringLiteral("valid");
    case 1:
        return QStringLiteral("valid, failed phases");
    case 2:
        return QStringLiteral("invalid");
    default:
        return QStringLiteral("incomplete");
    }
}

QColor bundleResultColor(int checkExit) {
    switch (checkExit) {
    case 0:
        return HealthStyle::color(HealthStatus::Verified);
    case 1:
        return HealthStyle::color(HealthStatus::VerifiedFailedPhases);
    case 2:
        return HealthStyle::color(HealthStatus::Invalid);
    default:
        return HealthStyle::color(HealthStatus::VerifiedIncomplete);
    }
}

bool isDevAicrVersion(const QString& version) {
    return version == QLatin1String("dev") || version.contains(QLatin1String("-dev")) ||
           version.contains(QLatin1String("-next"));
}

namespace {

QString bareDigest(const QString& d) {
    QString s = d.trimmed().toLower();
    if (s.startsWith(QLatin1String("sha256:")))
        s = s.mid(7);
    return s;
}

QColor statusColor(const QString& status) {
    if (status == QLatin1String("passed"))
        return HealthStyle::color(HealthStatus::Verified);
    if (status == QLatin1String("failed"))
        return HealthStyle::color(HealthStatus::Invalid);
    return HealthStyle::color(HealthStatus::NoEvidence);
}

QString duration(double ms) {
    if (ms <= 0)
        return {};
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', 0);
    return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
}

// The directory or layout a bundle was read from, short: its last two path components.
QString shortSource(const QString& source) {
    const QStringList parts = QDir::fromNativeSeparators(source).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return parts.size() <= 2 ? parts.join(QLatin1Char('/'))
                             : parts.mid(parts.size() - 2).join(QLatin1Char('/'));
}

} // namespace

BundleModel::Node* BundleModel::Node::add(std::unique_ptr<Node> child) {
    child->parent = this;
    child->row = static_cast<int>(children.size());
    children.push_back(std::move(child));
    return children.back().get();
}

BundleModel::BundleModel(QObject* parent) : QAbstractItemModel(parent) {}
BundleModel::~BundleModel() = default;

bool BundleModel::isStale(int bundleRow) const {
    if (bundleRow < 0 || bundleRow >= static_cast<int>(m_bundles.size()) || m_currentDigest.isEmpty())
        return false;
    const QString d = bareDigest(bundleAt(bundleRow).recipeDigest);
    return !d.isEmpty() && d != bareDigest(m_currentDigest);
}

void BundleModel::setBundles(std::vector<store::BundleRecord> bundles, const QString& currentDigest) {
    beginResetModel();
    m_bundles = std::move(bundles);
    m_currentDigest = currentDigest;
    m_root.children.clear();
    for (int i = 0; i < static_cast<int>(m_bundles.size()); ++i)
        m_root.add(buildBundle(i));
    endResetModel();
}

std::unique_ptr<BundleModel::Node> BundleModel::buildBundle(int row) const {
    const store::BundleRecord& b = bundleAt(row);
    auto node = [row](ItemKind kind, const QString& key, const QString& name, const QString& value) {
        auto n = std::make_unique<Node>();
        n->bundle = row;
        n->kind = kind;
        n->key = key;
        n->name = name;
        n->value = value;
        n->tooltip = value;
        return n;
    };
    const bool stale = isStale(row);
    const QString result = bundleResultName(b.checkExit);

    QString summary = result;
    if (!b.attestedAt.isEmpty())
        summary += QStringLiteral(" · attested %1").arg(b.attestedAt);
    if (stale)
        summary += QStringLiteral(" · stale");
    auto top = node(
        ItemKind::Bundle, QStringLiteral("bundle"),
        b.ociDigest.isEmpty() ? shortSource(b.source) : b.ociDigest.left(19) + QStringLiteral("…"), summary);
    top->status = result;
    top->color = bundleResultColor(b.checkExit);
    top->bold = true;
    top->tooltip = b.source;

    auto field = [&](const QString& key, const QString& name, const QString& value) {
        if (!value.isEmpty())
            top->add(node(ItemKind::Field, key, name, value));
    };
    Node* res =
        top->add(node(ItemKind::Field, QStringLiteral("result"), QStringLiteral("check result"), result));
    res->color = top->color;
    res->bold = true;
    res->status = result;
    field(QStringLiteral("source"), QStringLiteral("source"), b.source);
    field(QStringLiteral("ociDigest"), QStringLiteral("OCI digest"), b.ociDigest);
    field(QStringLiteral("recipe"), QStringLiteral("recipe"), b.recipe);
    field(QStringLiteral("predicateType"), QStringLiteral("predicate type"), b.predicateType);
    field(QStringLiteral("attestedAt"), QStringLiteral("attestedAt"), b.attestedAt);
    if (!b.aicrVersion.isEmpty()) {
        const bool dev = isDevAicrVersion(b.aicrVersion);
        Node* v = top->add(
            node(ItemKind::Field, QStringLiteral("aicrVersion"), QStringLiteral("AICR version"),
                 dev ? b.aicrVersion + QStringLiteral("  (dev build, not a release)") : b.aicrVersion));
        if (dev)
            v->color = HealthStyle::color(HealthStatus::Pending);
    }
    if (!b.recipeDigest.isEmpty()) {
        QString v = bareDigest(b.recipeDigest);
        if (m_currentDigest.isEmpty())
            v += QStringLiteral("  (no catalog digest to compare)");
        else if (stale)
            v += QStringLiteral("  STALE: the catalog's is now %1").arg(bareDigest(m_currentDigest));
        else
            v += QStringLiteral("  (matches the catalog)");
        Node* d = top->add(
            node(ItemKind::Field, QStringLiteral("recipeDigest"), QStringLiteral("recipe digest"), v));
        if (stale) {
            d->color = HealthStyle::color(HealthStatus::Stale);
            d->bold = true;
        }
    }
    top->add(node(ItemKind::Field, QStringLiteral("signed"), QStringLiteral("signature"),
                  !b.signedBundle        ? QStringLiteral("none (pending signature)")
                  : !b.signatureVerified ? QStringLiteral("present, not checked (no trusted root)")
                  : *b.signatureVerified ? QStringLiteral("verified offline: %1").arg(b.signatureDetail)
                                         : QStringLiteral("FAILED: %1").arg(b.signatureDetail)));

    // Integrity checks, step by step.
    int failedSteps = 0;
    for (const evidence::CheckStep& s : b.steps)
        failedSteps += s.status == evidence::StepStatus::Failed ? 1 : 0;
    Node* checks = top->add(node(
        ItemKind::Checks, QStringLiteral("checks"), QStringLiteral("integrity checks"),
        failedSteps > 0
            ? counted(failedSteps, QStringLiteral("step failed"), QStringLiteral("steps failed"))
            : counted(static_cast<int>(b.steps.size()), QStringLiteral("step"), QStringLiteral("steps"))));
    if (failedSteps > 0)
        checks->color = HealthStyle::color(HealthStatus::Invalid);
    for (const evidence::CheckStep& s : b.steps) {
        const QString st = evidence::stepStatusName(s.status);
        auto n = node(ItemKind::Step, s.name, s.name,
                      s.detail.isEmpty() ? st : st + QStringLiteral(" — ") + s.detail);
        n->status = st;
        n->color = statusColor(st);
        checks->add(std::move(n));
    }

    // Phases with their CTRF tests.
    for (auto it = b.phases.cbegin(); it != b.phases.cend(); ++it) {
        const evidence::PhaseSummary& p = it.value();
        Node* ph = top->add(node(
            ItemKind::Phase, it.key(), QStringLiteral("phase %1").arg(it.key()),
            QStringLiteral("%1 passed, %2 failed, %3 skipped").arg(p.passed).arg(p.failed).arg(p.skipped)));
        ph->status = p.failed > 0 ? QStringLiteral("failed") : QStringLiteral("passed");
        ph->color = statusColor(ph->status);
        for (const evidence::CtrfTest& t : b.tests.value(it.key())) {
            QStringList parts{t.status};
            if (const QString d = duration(t.durationMs); !d.isEmpty())
                parts << d;
            if (!t.message.isEmpty())
                parts << t.message;
            auto n = node(ItemKind::Test, t.name, t.name, parts.join(QStringLiteral(" · ")));
            n->status = t.status;
            n->color = statusColor(t.status);
            ph->add(std::move(n));
        }
    }
    return top;
}

const BundleModel::Node* BundleModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const Node*>(index.internalPointer()) : &m_root;
}

QModelIndex BundleModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    const Node* p = nodeOf(parent);
    if (row >= static_cast<int>(p->children.size()))
        return {};
    return createIndex(row, column, p->children[static_cast<size_t>(row)].get());
}

QModelIndex BundleModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const Node* p = nodeOf(child)->parent;
    if (!p || p == &m_root)
        return {};
    return createIndex(p->row, 0, const_cast<Node*>(p));
}

int BundleModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(nodeOf(parent)->children.size());
}

int BundleModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant BundleModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node* n = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == NameColumn ? n->name : n->value;
    case Qt::ToolTipRole:
        return n->tooltip.isEmpty() ? QVariant() : QVariant(n->tooltip);
    case Qt::ForegroundRole:
        if (index.column() == ValueColumn && n->color.isValid())
            return n->color;
        return {};
    case Qt::FontRole:
        if (n->bold && (index.column() == ValueColumn || n->kind == ItemKind::Bundle)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case ItemKindRole:
        return QVariant::fromValue(n->kind);
    case BundleIndexRole:
        return n->bundle;
    case KeyRole:
        return n->key;
    case StatusRole:
        return n->status;
    default:
        return {};
    }
}

QVariant BundleModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn    ? QStringLiteral("Bundle")
           : section == ValueColumn ? QStringLiteral("Value")
                                    : QVariant();
}

QModelIndex BundleModel::childWith(const QModelIndex& parent, ItemKind kind, const QString& key) const {
    if (!parent.isValid())
        return {};
    for (int r = 0; r < rowCount(parent); ++r) {
        const QModelIndex i = index(r, 0, parent);
        const Node* n = nodeOf(i);
        if (n->kind == kind && n->key == key)
            return i;
    }
    return {};
}

QModelIndex BundleModel::fieldIndex(int bundleRow, const QString& key) const {
    return childWith(bundleIndex(bundleRow), ItemKind::Field, key);
}

QModelIndex BundleModel::checksIndex(int bundleRow) const {
    return childWith(bundleIndex(bundleRow), ItemKind::Checks, QStringLiteral("checks"));
}

QModelIndex BundleModel::phaseIndex(int bundleRow, const QString& phase) const {
    return childWith(bundleIndex(bundleRow), ItemKind::Phase, phase);
}

} // namespace pb::models
