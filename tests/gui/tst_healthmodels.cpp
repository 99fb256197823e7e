// The health models under QAbstractItemModelTester: HealthModel and HealthFilterProxyModel over a
// temp database (embedded catalog + an evidence tree written here), PointerModel over the pointers
// of one coordinate, and the filter and sort of 10,000 synthetic rows checked against an
// independent computation.
#include "EvidenceFixture.h"
#include "GuiTestUtil.h"
#include "HealthModels.h"
#include "store/EvidenceStore.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QIcon>
#include <QLocale>
#include <QRandomGenerator>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

#include <algorithm>
#include <map>

using namespace pb;
using evidence::HealthRow;
using evidence::HealthStatus;
using models::HealthFilterProxyModel;
using models::HealthModel;
using models::PointerModel;
using pbgui::EvidenceFixture;
using SF = HealthFilterProxyModel::SignerFilter;

using pbgui::column;

namespace {

// The proxy row of `recipe`, or -1.
int proxyRow(const QAbstractItemModel& m, const QString& recipe) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, HealthModel::RecipeColumn).data(HealthModel::RecipeRole).toString() == recipe)
            return r;
    return -1;
}

// Children of a PointerModel pointer row whose FieldRole is `key`, as values.
QStringList childValues(const PointerModel& m, int pointerRow, const QString& key) {
    QStringList out;
    const QModelIndex parent = m.index(pointerRow, 0);
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data(PointerModel::FieldRole).toString() == key)
            out << m.index(r, PointerModel::ValueColumn, parent).data().toString();
    return out;
}

} // namespace

class TestHealthModels : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void healthRowsFromDatabase();
    void filtersOnDatabase();
    void pointerModel();
    void tenThousandRows();

  private:
    std::unique_ptr<pbgui::SeededDb> m_db;
    QTemporaryDir m_tmp;
    std::vector<HealthRow> m_rows;
};

void TestHealthModels::initTestCase() {
    QLocale::setDefault(QLocale::c());
    m_db = pbgui::seededDatabase();
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    const QString root = m_tmp.filePath(QStringLiteral("recipes/evidence"));
    QVERIFY(EvidenceFixture::writeTree(root));
    Result<evidence::EvidenceTree> tree = evidence::scanEvidence(m_tmp.path());
    QVERIFY2(tree.ok(), qPrintable(tree.ok() ? QString() : tree.error().toString()));
    QCOMPARE(static_cast<int>(tree->pointers.size()), EvidenceFixture::kPointers);
    store::EvidenceStore evidence(*m_db->db);
    Result<store::EvidenceImportReport> report = evidence.importTree(*tree);
    QVERIFY2(report.ok(), qPrintable(report.ok() ? QString() : report.error().toString()));
    QCOMPARE(report->added, EvidenceFixture::kPointers);
    QCOMPARE(report->invalid, 1);
    Result<store::CatalogVersionInfo> v1 = store::CatalogStore(*m_db->db).version(QStringLiteral("sample-2"));
    QVERIFY(v1.ok());
    Result<std::vector<HealthRow>> rows = evidence.health(v1->id);
    QVERIFY(rows.ok());
    m_rows = *rows;
}

void TestHealthModels::healthRowsFromDatabase() {
    HealthModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setRows(m_rows);
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 17); // 16 recipes of sample-2 + the coordinate outside it
    QCOMPARE(model.columnCount(), int(HealthModel::ColumnCount));
    QCOMPARE(model.countOf(HealthStatus::Signed), 2);
    QCOMPARE(model.countOf(HealthStatus::Pending), 1);
    QCOMPARE(model.countOf(HealthStatus::Invalid), 1);
    QCOMPARE(model.countOf(HealthStatus::NoEvidence), 13);
    QCOMPARE(model.countOf(HealthStatus::Verified), 0); // nothing is verified: signatures are not checked yet

    // The signed coordinate: both signers, the newest attestation, honest status.
    const int s = model.rowOf(EvidenceFixture::signedRecipe());
    QVERIFY(s >= 0);
    auto cell = [&](int row, int col, int role = Qt::DisplayRole) {
        return model.index(row, col).data(role);
    };
    QCOMPARE(cell(s, HealthModel::StatusColumn).toString(), QStringLiteral("signed (not verified)"));
    QCOMPARE(cell(s, HealthModel::ServiceColumn).toString(), QStringLiteral("eks"));
    QCOMPARE(cell(s, HealthModel::AcceleratorColumn).toString(), QStringLiteral("h100"));
    QCOMPARE(cell(s, HealthModel::SignersColumn).toString(), QStringLiteral("1 community · 1 partner"));
    QCOMPARE(cell(s, HealthModel::PointersColumn).toString(), QStringLiteral("2"));
    QCOMPARE(cell(s, HealthModel::AttestedColumn).toString(), QStringLiteral("2026-10-05 08:30 UTC"));
    QCOMPARE(cell(s, HealthModel::AttestedColumn, HealthModel::SortRole).toLongLong(),
             QDateTime(QDate(2026, 10, 5), QTime(8, 30), QTimeZone::utc()).toMSecsSinceEpoch());
    QCOMPARE(cell(s, HealthModel::StaleColumn).toString(), QStringLiteral("not checked"));
    QCOMPARE(cell(s, HealthModel::StatusColumn, HealthModel::StatusRole).toInt(), int(HealthStatus::Signed));
    QVERIFY(!cell(s, HealthModel::StatusColumn, Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(cell(s, HealthModel::StatusColumn, Qt::BackgroundRole).value<QColor>(),
             models::HealthStyle::background(HealthStatus::Signed));
    QVERIFY(cell(s, HealthModel::StatusColumn, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("not checked")));

    // Pending and invalid rows.
    const int p = model.rowOf(EvidenceFixture::pendingRecipe());
    QCOMPARE(cell(p, HealthModel::StatusColumn).toString(), QStringLiteral("pending"));
    QCOMPARE(cell(p, HealthModel::PointersColumn).toString(), QStringLiteral("1 (1 pending)"));
    QCOMPARE(cell(p, HealthModel::SignersColumn).toString(), QString());
    const int i = model.rowOf(EvidenceFixture::invalidRecipe());
    QCOMPARE(cell(i, HealthModel::StatusColumn).toString(), QStringLiteral("invalid"));
    QCOMPARE(cell(i, HealthModel::PointersColumn).toString(), QStringLiteral("1 (1 invalid)"));
    QCOMPARE(cell(i, HealthModel::PointersColumn, Qt::ForegroundRole).value<QColor>(),
             models::HealthStyle::color(HealthStatus::Invalid));

    // Evidence for a recipe sample-2 does not have: greyed, italic, no criteria.
    const int o = model.rowOf(EvidenceFixture::outsideRecipe());
    QVERIFY(o >= 0);
    QVERIFY(!cell(o, 0, HealthModel::InCatalogRole).toBool());
    for (int c = HealthModel::ServiceColumn; c <= HealthModel::PlatformColumn; ++c)
        QCOMPARE(cell(o, c).toString(), QStringLiteral("—"));
    QVERIFY(cell(o, HealthModel::RecipeColumn, Qt::FontRole).value<QFont>().italic());
    QVERIFY(cell(o, HealthModel::RecipeColumn, Qt::ForegroundRole).isValid());
    QVERIFY(!cell(s, HealthModel::RecipeColumn, Qt::FontRole).isValid());

    // A coordinate with no evidence, and a criterion that is "any".
    const int n = model.rowOf(QStringLiteral("h100-gke-cos-inference-dynamo"));
    QCOMPARE(cell(n, HealthModel::StatusColumn).toString(), QStringLiteral("no evidence"));
    QCOMPARE(cell(n, HealthModel::PointersColumn).toString(), QString());
    QCOMPARE(cell(n, HealthModel::StaleColumn).toString(), QString());

    QStringList services;
    for (const HealthRow& r : m_rows)
        if (!r.criteria.service.isEmpty() && !services.contains(r.criteria.service))
            services << r.criteria.service;
    services.sort();
    QCOMPARE(model.distinctValues(HealthModel::ServiceColumn), services);
    QVERIFY(services.contains(QStringLiteral("eks")) && services.contains(QStringLiteral("gke")));
    QVERIFY(model.distinctValues(HealthModel::AcceleratorColumn).contains(QStringLiteral("gb300")));
    QCOMPARE(model.headerData(HealthModel::StatusColumn, Qt::Horizontal).toString(),
             QStringLiteral("Status"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestHealthModels::filtersOnDatabase() {
    HealthModel model;
    HealthFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(m_rows);
    QCOMPARE(proxy.rowCount(), 17);
    QVERIFY(!proxy.isFiltering());

    proxy.setFilterText(QStringLiteral("  H100   training "));
    QVERIFY(proxy.isFiltering());
    const QStringList h100Training = column(proxy, HealthModel::RecipeColumn);
    QVERIFY(h100Training.contains(EvidenceFixture::signedRecipe()));
    QVERIFY(h100Training.contains(EvidenceFixture::invalidRecipe()));
    for (const QString& r : h100Training)
        QVERIFY2(r.contains(QStringLiteral("h100")), qPrintable(r));
    proxy.setFilterText(QStringLiteral("pending"));
    QCOMPARE(column(proxy, HealthModel::RecipeColumn), QStringList{EvidenceFixture::pendingRecipe()});
    proxy.setFilterText({});

    proxy.setStatusFilter(HealthStatus::Invalid);
    QCOMPARE(column(proxy, HealthModel::RecipeColumn), QStringList{EvidenceFixture::invalidRecipe()});
    proxy.setStatusFilter(HealthStatus::Signed);
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setServiceFilter(QStringLiteral("eks"));
    QCOMPARE(column(proxy, HealthModel::RecipeColumn), QStringList{EvidenceFixture::signedRecipe()});
    proxy.setStatusFilter(std::nullopt);
    proxy.setAcceleratorFilter(QStringLiteral("gb200"));
    for (int r = 0; r < proxy.rowCount(); ++r) {
        QCOMPARE(proxy.index(r, HealthModel::ServiceColumn).data().toString(), QStringLiteral("eks"));
        QCOMPARE(proxy.index(r, HealthModel::AcceleratorColumn).data().toString(), QStringLiteral("gb200"));
    }
    QVERIFY(proxyRow(proxy, EvidenceFixture::pendingRecipe()) >= 0);
    proxy.setServiceFilter({});
    proxy.setAcceleratorFilter({});

    proxy.setSignerFilter(SF::Partner);
    QCOMPARE(column(proxy, HealthModel::RecipeColumn), QStringList{EvidenceFixture::signedRecipe()});
    proxy.setSignerFilter(SF::Community);
    QCOMPARE(proxy.rowCount(), 2); // the signed coordinate and the one outside the catalog
    proxy.setSignerFilter(SF::Unsigned);
    QCOMPARE(proxy.rowCount(), 15);
    proxy.setSignerFilter(SF::Any);
    QCOMPARE(proxy.rowCount(), 17);

    // Status sorts "needs attention" first; ties by recipe name.
    proxy.sort(HealthModel::StatusColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, HealthModel::RecipeColumn).data().toString(), EvidenceFixture::invalidRecipe());
    const QStringList statuses = column(proxy, HealthModel::StatusColumn);
    QCOMPARE(statuses.last(), QStringLiteral("signed (not verified)"));
    // Only valid signed pointers carry an attestation time into the row.
    proxy.sort(HealthModel::AttestedColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, HealthModel::RecipeColumn).data().toString(), EvidenceFixture::signedRecipe());
    QCOMPARE(proxy.index(1, HealthModel::RecipeColumn).data().toString(), EvidenceFixture::outsideRecipe());
    QCOMPARE(proxy.index(2, HealthModel::AttestedColumn).data().toString(), QString());

    // visibleRows follows the view's filter and order.
    proxy.setStatusFilter(HealthStatus::NoEvidence);
    proxy.sort(HealthModel::RecipeColumn, Qt::DescendingOrder);
    const std::vector<HealthRow> visible = proxy.visibleRows();
    QCOMPARE(static_cast<int>(visible.size()), 13);
    for (size_t k = 0; k < visible.size(); ++k)
        QCOMPARE(visible[k].displayName(),
                 proxy.index(static_cast<int>(k), 0).data().toString()); // monitoring-hpa, not "recipe"
    QVERIFY(std::is_sorted(visible.begin(), visible.end(), [](const HealthRow& a, const HealthRow& b) {
        return a.recipe.compare(b.recipe, Qt::CaseInsensitive) > 0;
    }));
    // CSV of the visible rows: header + 13 lines.
    QCOMPARE(evidence::healthCsv(visible).count(QLatin1Char('\n')), 14);
}

void TestHealthModels::pointerModel() {
    store::EvidenceStore evidence(*m_db->db);
    PointerModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

    Result<std::vector<evidence::Pointer>> signedPointers =
        evidence.pointersFor(EvidenceFixture::signedRecipe());
    QVERIFY(signedPointers.ok());
    model.setPointers(*signedPointers);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 2);
    std::map<QString, int> byClass;
    for (int r = 0; r < model.rowCount(); ++r)
        byClass[model.fieldValue(r, QStringLiteral("class"))] = r;
    QVERIFY(byClass.count(QStringLiteral("community")) && byClass.count(QStringLiteral("partner")));
    const int c = byClass[QStringLiteral("community")], p = byClass[QStringLiteral("partner")];
    QCOMPARE(model.index(c, 0).data().toString(),
             QStringLiteral("%1/%2/sha256-%3.yaml")
                 .arg(EvidenceFixture::signedRecipe(), EvidenceFixture::communitySlug(),
                      EvidenceFixture::hex('a')));
    QVERIFY(model.index(c, 0).data(PointerModel::ValidRole).toBool());
    QCOMPARE(model.index(c, PointerModel::ValueColumn).data().toString(),
             QStringLiteral("signed (not verified) · community · alice@example.com · 2026-10-01 10:00 UTC"));
    QVERIFY(!model.index(c, 0).data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(model.fieldValue(c, QStringLiteral("layout")), QStringLiteral("per-source"));
    QCOMPARE(model.fieldValue(c, QStringLiteral("identity")), EvidenceFixture::communityIdentity());
    QCOMPARE(model.fieldValue(c, QStringLiteral("issuer")), EvidenceFixture::communityIssuer());
    QCOMPARE(model.fieldValue(c, QStringLiteral("source")), EvidenceFixture::communitySlug());
    QCOMPARE(model.fieldValue(c, QStringLiteral("rekorLogIndex")),
             QString::number(EvidenceFixture::rekorIndex()));
    QCOMPARE(model.fieldValue(c, QStringLiteral("oci")),
             QStringLiteral("ghcr.io/example/aicr-evidence:") + EvidenceFixture::signedRecipe());
    QCOMPARE(model.fieldValue(c, QStringLiteral("digest")),
             QStringLiteral("sha256:") + EvidenceFixture::hex('a'));
    QCOMPARE(model.fieldValue(c, QStringLiteral("predicateType")),
             QStringLiteral("https://aicr.run/recipe-evidence/v3"));
    QCOMPARE(model.fieldValue(c, QStringLiteral("attestedAt")), QStringLiteral("2026-10-01T10:00:00Z"));
    QVERIFY(model.fieldValue(c, QStringLiteral("signature")).startsWith(QStringLiteral("not checked")));
    QCOMPARE(model.fieldValue(p, QStringLiteral("identity")), EvidenceFixture::partnerIdentity());
    QVERIFY(childValues(model, c, QStringLiteral("problem")).isEmpty());
    // Children know their pointer and kind; a field row has no children.
    const QModelIndex field = model.index(0, 0, model.index(p, 0));
    QCOMPARE(field.data(PointerModel::PointerIndexRole).toInt(), p);
    QCOMPARE(field.data(PointerModel::ItemKindRole).value<PointerModel::ItemKind>(),
             PointerModel::ItemKind::Field);
    QCOMPARE(model.rowCount(field), 0);
    QCOMPARE(model.parent(field), model.index(p, 0));

    // An invalid pointer: each broken rule is a row of its own.
    Result<std::vector<evidence::Pointer>> invalid = evidence.pointersFor(EvidenceFixture::invalidRecipe());
    QVERIFY(invalid.ok());
    model.setPointers(*invalid);
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(!model.index(0, 0).data(PointerModel::ValidRole).toBool());
    const QStringList problems = childValues(model, 0, QStringLiteral("problem"));
    QCOMPARE(problems, model.pointerAt(0).problems);
    QVERIFY(!problems.isEmpty());
    QVERIFY(problems.join(QLatin1Char('\n')).contains(QStringLiteral("does not match the signer's slug")));
    QVERIFY(
        model.index(0, PointerModel::ValueColumn).data().toString().startsWith(QStringLiteral("invalid — ")));

    // A pending pointer: unsigned, no class, no Rekor entry.
    Result<std::vector<evidence::Pointer>> pending = evidence.pointersFor(EvidenceFixture::pendingRecipe());
    QVERIFY(pending.ok());
    model.setPointers(*pending);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.fieldValue(0, QStringLiteral("layout")), QStringLiteral("flat pending"));
    QCOMPARE(model.fieldValue(0, QStringLiteral("identity")), QStringLiteral("none (unsigned, pending)"));
    QCOMPARE(model.fieldValue(0, QStringLiteral("class")), QString());
    QCOMPARE(model.index(0, PointerModel::ValueColumn).data().toString(),
             QStringLiteral("pending (unsigned)"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestHealthModels::tenThousandRows() {
    // 10,000 synthetic coordinates: every status, service, accelerator and signer mix.
    const QStringList services = {QStringLiteral("eks"), QStringLiteral("gke"), QStringLiteral("aks"),
                                  QStringLiteral("oke"), QStringLiteral("rke2")};
    const QStringList accelerators = {QStringLiteral("h100"),  QStringLiteral("gb200"),
                                      QStringLiteral("gb300"), QStringLiteral("b200"),
                                      QStringLiteral("l40s"),  QStringLiteral("rtx-pro-6000")};
    const QStringList intents = {QStringLiteral("training"), QStringLiteral("inference")};
    QRandomGenerator rng(20261001);
    const QDateTime base(QDate(2026, 1, 1), QTime(0, 0), QTimeZone::utc());
    std::vector<HealthRow> rows;
    rows.reserve(10000);
    for (int i = 0; i < 10000; ++i) {
        HealthRow r;
        r.criteria.service = services[int(rng.bounded(services.size()))];
        r.criteria.accelerator = accelerators[int(rng.bounded(accelerators.size()))];
        r.criteria.os = QStringLiteral("ubuntu");
        r.criteria.intent = intents[int(rng.bounded(intents.size()))];
        r.recipe = QStringLiteral("%1-%2-ubuntu-%3-r%4")
                       .arg(r.criteria.accelerator, r.criteria.service, r.criteria.intent)
                       .arg(i, 5, 10, QLatin1Char('0'));
        r.catalogLabel = i % 97 == 0 ? QString() : QStringLiteral("synthetic"); // a few outside the catalog
        if (!r.inCatalog())
            r.criteria = {};
        r.status = models::kHealthStatuses[rng.bounded(int(models::kHealthStatuses.size()))];
        r.community = int(rng.bounded(3));
        r.partner = int(rng.bounded(2));
        r.firstParty = i % 11 == 0 ? 1 : 0;
        r.invalid = int(rng.bounded(2));
        r.pointers = r.community + r.partner + r.firstParty + r.invalid;
        if (r.pointers > 0)
            r.newestAttestedAt = base.addSecs(qint64(rng.bounded(365 * 24 * 3600)));
        r.reason = QStringLiteral("synthetic");
        rows.push_back(r);
    }

    HealthModel model;
    HealthFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The tester walks all 120,000 cells on every signal, and a filter over scattered rows emits one
    // removal per range: it watches the proxy through a reset, a sort and a filter of contiguous
    // rows, then the filters below are checked by their result only.
    auto t2 = std::make_unique<QAbstractItemModelTester>(
        &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows(rows);
    QCOMPARE(model.rowCount(), 10000);
    QCOMPARE(proxy.rowCount(), 10000);
    proxy.sort(HealthModel::RecipeColumn, Qt::AscendingOrder);
    proxy.setFilterText(QStringLiteral("gb300-"));
    QVERIFY(proxy.rowCount() > 1000);
    for (int r = 0; r < proxy.rowCount(); ++r)
        QVERIFY(proxy.index(r, 0).data().toString().startsWith(QStringLiteral("gb300-")));
    proxy.setFilterText({});
    QCOMPARE(proxy.rowCount(), 10000);
    t2.reset();
    int countSum = 0;
    for (HealthStatus s : models::kHealthStatuses)
        countSum += model.countOf(s);
    QCOMPARE(countSum, 10000);

    // Each filter against the same predicate computed here.
    auto expect = [&](const std::function<bool(const HealthRow&)>& keep) {
        QSet<QString> out;
        for (const HealthRow& r : rows)
            if (keep(r))
                out.insert(r.recipe);
        return out;
    };
    auto shown = [&] {
        QSet<QString> out;
        for (int r = 0; r < proxy.rowCount(); ++r)
            out.insert(proxy.index(r, 0).data().toString());
        return out;
    };
    proxy.setFilterText(QStringLiteral("gb200 training"));
    QSet<QString> want = expect([](const HealthRow& r) {
        return (r.recipe.contains(QStringLiteral("gb200")) ||
                r.criteria.accelerator == QLatin1String("gb200")) &&
               (r.recipe.contains(QStringLiteral("training")) ||
                r.criteria.intent == QLatin1String("training"));
    });
    QVERIFY(want.size() > 100);
    QCOMPARE(shown(), want);

    proxy.setStatusFilter(HealthStatus::Pending);
    want = expect([](const HealthRow& r) {
        return r.recipe.contains(QStringLiteral("gb200")) && r.recipe.contains(QStringLiteral("training")) &&
               r.status == HealthStatus::Pending;
    });
    QCOMPARE(shown(), want);

    proxy.setFilterText({});
    proxy.setStatusFilter(std::nullopt);
    proxy.setServiceFilter(QStringLiteral("gke"));
    proxy.setAcceleratorFilter(QStringLiteral("h100"));
    proxy.setSignerFilter(SF::Partner);
    want = expect([](const HealthRow& r) {
        return r.criteria.service == QLatin1String("gke") &&
               r.criteria.accelerator == QLatin1String("h100") && r.partner > 0;
    });
    QVERIFY(!want.isEmpty());
    QCOMPARE(shown(), want);
    proxy.setSignerFilter(SF::Unsigned);
    want = expect([](const HealthRow& r) {
        return r.criteria.service == QLatin1String("gke") &&
               r.criteria.accelerator == QLatin1String("h100") &&
               r.firstParty + r.community + r.partner + r.reported == 0;
    });
    QCOMPARE(shown(), want);
    proxy.setServiceFilter({});
    proxy.setAcceleratorFilter({});
    proxy.setSignerFilter(SF::Any);
    QCOMPARE(proxy.rowCount(), 10000);

    // Sorting: every column, both orders, checked on the typed sort key with recipe-name ties.
    std::map<QString, const HealthRow*> byName;
    for (const HealthRow& r : rows)
        byName[r.recipe] = &r;
    auto keyOf = [](const HealthRow& r, int col) -> QVariant {
        switch (col) {
        case HealthModel::RecipeColumn:
            return r.recipe.toLower();
        case HealthModel::ServiceColumn:
            return r.inCatalog() ? r.criteria.service : QStringLiteral("\U0010FFFF");
        case HealthModel::AcceleratorColumn:
            return r.inCatalog() ? r.criteria.accelerator : QStringLiteral("\U0010FFFF");
        case HealthModel::StatusColumn:
            return models::HealthStyle::rank(r.status);
        case HealthModel::SignersColumn:
            return r.firstParty + r.community + r.partner + r.reported;
        case HealthModel::PointersColumn:
            return r.pointers;
        case HealthModel::AttestedColumn:
            return r.newestAttestedAt.isValid() ? r.newestAttestedAt.toMSecsSinceEpoch() : qint64(-1);
        default:
            return {};
        }
    };
    for (int col : {int(HealthModel::RecipeColumn), int(HealthModel::ServiceColumn),
                    int(HealthModel::AcceleratorColumn), int(HealthModel::StatusColumn),
                    int(HealthModel::SignersColumn), int(HealthModel::PointersColumn),
                    int(HealthModel::AttestedColumn)}) {
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            proxy.sort(col, order);
            QCOMPARE(proxy.rowCount(), 10000);
            for (int r = 1; r < proxy.rowCount(); ++r) {
                const HealthRow& a = *byName.at(proxy.index(r - 1, 0).data().toString());
                const HealthRow& b = *byName.at(proxy.index(r, 0).data().toString());
                const QVariant ka = keyOf(a, col), kb = keyOf(b, col);
                int cmp = 0;
                if (ka.typeId() == QMetaType::QString)
                    cmp = ka.toString().compare(kb.toString(), Qt::CaseInsensitive);
                else
                    cmp = ka.toLongLong() < kb.toLongLong() ? -1 : ka.toLongLong() > kb.toLongLong() ? 1 : 0;
                if (cmp == 0)
                    cmp = a.recipe < b.recipe ? -1 : 1;
                if (order == Qt::DescendingOrder)
                    cmp = -cmp;
                QVERIFY2(cmp < 0, qPrintable(QStringLiteral("column %1, rows %2/%3: %4 then %5")
                                                 .arg(col)
                                                 .arg(r - 1)
                                                 .arg(r)
                                                 .arg(a.recipe, b.recipe)));
            }
        }
    }

    // Filter while sorted: the order holds and the rows are the right ones.
    proxy.sort(HealthModel::AttestedColumn, Qt::DescendingOrder);
    proxy.setStatusFilter(HealthStatus::Invalid);
    want = expect([](const HealthRow& r) { return r.status == HealthStatus::Invalid; });
    QCOMPARE(shown(), want);
    const std::vector<HealthRow> visible = proxy.visibleRows();
    QCOMPARE(static_cast<qsizetype>(visible.size()), want.size());
    QVERIFY(std::is_sorted(visible.begin(), visible.end(), [](const HealthRow& a, const HealthRow& b) {
        const qint64 x = a.newestAttestedAt.isValid() ? a.newestAttestedAt.toMSecsSinceEpoch() : -1;
        const qint64 y = b.newestAttestedAt.isValid() ? b.newestAttestedAt.toMSecsSinceEpoch() : -1;
        return x > y;
    }));
}

QTEST_MAIN(TestHealthModels)
#include "tst_healthmodels.moc"
