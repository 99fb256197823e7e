// The comparison models over the embedded catalog (sample-1 → sample-2), each under
// QAbstractItemModelTester. What a row says is checked against the two resolved recipes directly,
// not only against the engine's diff: a component is added, removed, changed or unchanged by
// comparing its fields on both sides here.
#include "DiffModels.h"
#include "GuiTestUtil.h"
#include "catalog/Diff.h"
#include "catalog/Resolver.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QLocale>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <map>

using namespace pb;
using catalog::Change;
using catalog::ComponentRef;
using catalog::RecipeResult;
using models::ChangeColors;
using models::ComponentDiffModel;
using models::ConstraintDiffModel;
using models::ValidationDiffModel;

namespace {

const QString kRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

QString versionOf(const ComponentRef& c) {
    return c.version.isEmpty() ? c.tag : c.version;
}

QStringList sorted(QStringList l) {
    l.sort();
    return l;
}

// Every field the diff is meant to compare, compared here independently.
bool sameComponent(const ComponentRef& a, const ComponentRef& b) {
    return a.chart == b.chart && a.version == b.version && a.tag == b.tag && a.source == b.source &&
           a.namespace_ == b.namespace_ && a.type == b.type && a.path == b.path &&
           a.valuesFile == b.valuesFile && a.isEnabled() == b.isEnabled() &&
           sorted(a.dependencyRefs) == sorted(b.dependencyRefs) &&
           sorted(a.manifestFiles) == sorted(b.manifestFiles) &&
           sorted(a.preManifestFiles) == sorted(b.preManifestFiles) && a.overrides == b.overrides &&
           a.expectedResources == b.expectedResources && a.healthCheckAsserts == b.healthCheckAsserts;
}

Change expectedChange(const RecipeResult& from, const RecipeResult& to, const QString& name) {
    const ComponentRef* a = from.component(name);
    const ComponentRef* b = to.component(name);
    if (!a)
        return Change::Added;
    if (!b)
        return Change::Removed;
    return sameComponent(*a, *b) ? Change::Unchanged : Change::Changed;
}

QSet<QString> componentNames(const RecipeResult& r) {
    QSet<QString> out;
    for (const ComponentRef& c : r.componentRefs)
        out.insert(c.name);
    return out;
}

// name -> value of the recipe's own constraints ("") or a phase's.
std::map<QString, QString> constraintsOf(const RecipeResult& r, const QString& phase) {
    std::map<QString, QString> out;
    if (phase.isEmpty()) {
        for (const catalog::Constraint& c : r.constraints)
            out[c.name] = c.value;
    } else if (r.validation) {
        const auto& p = r.validation->phase(phase);
        if (p && p->constraints)
            for (const catalog::Constraint& c : *p->constraints)
                out[c.name] = c.value;
    }
    return out;
}

QStringList checksOf(const RecipeResult& r, const QString& phase) {
    if (!r.validation)
        return {};
    const auto& p = r.validation->phase(phase);
    return p && p->checks ? *p->checks : QStringList();
}

QColor background(const QModelIndex& index) {
    const QVariant v = index.data(Qt::BackgroundRole);
    return v.isValid() ? v.value<QBrush>().color() : QColor();
}

} // namespace

class TestDiffModels : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();

    void componentDiff_data();
    void componentDiff();
    void releaseTable();
    void changesOnly();
    void constraintDiff_data();
    void constraintDiff();
    void validationDiff_data();
    void validationDiff();
    void identicalAndClear();

  private:
    RecipeResult resolveLeaf(const QString& label, const QString& leaf);
    catalog::RecipeDiff diffOf(const QString& from, const QString& to);

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::map<QString, catalog::Catalog> m_catalogs;
};

void TestDiffModels::initTestCase() {
    QLocale::setDefault(QLocale::c());
    m_db = pbgui::seededDatabase();
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    store::CatalogStore store(*m_db->db);
    for (const QString& label : {QStringLiteral("sample-2"), QStringLiteral("sample-1")}) {
        Result<catalog::Catalog> c = store.loadCatalog(label);
        QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().toString()));
        m_catalogs.emplace(label, std::move(*c));
    }
}

RecipeResult TestDiffModels::resolveLeaf(const QString& label, const QString& leaf) {
    Result<RecipeResult> r = store::resolveStoredRecipe(m_catalogs.at(label), leaf);
    if (!r)
        qFatal("%s does not resolve: %s", qPrintable(leaf), qPrintable(r.error().toString()));
    return *r;
}

catalog::RecipeDiff TestDiffModels::diffOf(const QString& from, const QString& to) {
    return catalog::diffRecipes(resolveLeaf(from, kRecipe), resolveLeaf(to, kRecipe), from, to);
}

void TestDiffModels::componentDiff_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addRow("sample-1 → sample-2") << QStringLiteral("sample-1") << QStringLiteral("sample-2");
    QTest::addRow("sample-2 → sample-1") << QStringLiteral("sample-2") << QStringLiteral("sample-1");
    QTest::addRow("sample-2 → sample-2") << QStringLiteral("sample-2") << QStringLiteral("sample-2");
}

void TestDiffModels::componentDiff() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    const RecipeResult a = resolveLeaf(from, kRecipe);
    const RecipeResult b = resolveLeaf(to, kRecipe);

    ComponentDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setDiff(catalog::diffRecipes(a, b, from, to));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.columnCount(), int(ComponentDiffModel::ColumnCount));
    QCOMPARE(model.headerData(ComponentDiffModel::FromVersionColumn, Qt::Horizontal).toString(), from);
    QCOMPARE(model.headerData(ComponentDiffModel::ToVersionColumn, Qt::Horizontal).toString(), to);

    // One row per component on either side, each with the change this test derives itself.
    const QSet<QString> names = componentNames(a) | componentNames(b);
    QCOMPARE(model.rowCount(), int(names.size()));
    QSet<QString> seen;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString name = model.index(r, ComponentDiffModel::NameColumn).data().toString();
        QVERIFY2(names.contains(name), qPrintable(name));
        seen.insert(name);
        QCOMPARE(model.rowOf(name), r);
        const Change expected = expectedChange(a, b, name);
        QCOMPARE(model.index(r, 0).data(models::ChangeRole).toInt(), int(expected));
        QCOMPARE(model.index(r, ComponentDiffModel::ChangeColumn).data().toString(),
                 catalog::changeName(expected));

        const ComponentRef* ca = a.component(name);
        const ComponentRef* cb = b.component(name);
        const QString fromVersion = model.index(r, ComponentDiffModel::FromVersionColumn).data().toString();
        const QString toVersion = model.index(r, ComponentDiffModel::ToVersionColumn).data().toString();
        if (ca && !versionOf(*ca).isEmpty())
            QCOMPARE(fromVersion, versionOf(*ca));
        if (cb && !versionOf(*cb).isEmpty())
            QCOMPARE(toVersion, versionOf(*cb));

        // Deployment positions, 1-based, as the two recipes order them.
        const int fromOrder = int(a.deploymentOrder.indexOf(name));
        const int toOrder = int(b.deploymentOrder.indexOf(name));
        const QString order = model.index(r, ComponentDiffModel::OrderColumn).data().toString();
        if (fromOrder == toOrder)
            QCOMPARE(order, fromOrder < 0 ? QStringLiteral("—") : QString::number(fromOrder + 1));
        else
            QCOMPARE(order, QStringLiteral("%1 → %2").arg(
                                fromOrder < 0 ? QStringLiteral("—") : QString::number(fromOrder + 1),
                                toOrder < 0 ? QStringLiteral("—") : QString::number(toOrder + 1)));

        // Colours: added rows green, removed red, changed cells amber, nothing on unchanged rows.
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex cell = model.index(r, c);
            switch (expected) {
            case Change::Added:
                QCOMPARE(background(cell), ChangeColors::addedBackground());
                break;
            case Change::Removed:
                QCOMPARE(background(cell), ChangeColors::removedBackground());
                break;
            case Change::Unchanged:
                QVERIFY(!cell.data(Qt::BackgroundRole).isValid());
                break;
            case Change::Changed:
                QCOMPARE(background(cell).isValid(), cell.data(models::CellChangedRole).toBool());
                if (cell.data(models::CellChangedRole).toBool())
                    QCOMPARE(background(cell), ChangeColors::changedBackground());
                break;
            }
        }
        if (expected == Change::Changed && versionOf(*ca) != versionOf(*cb)) {
            QVERIFY(
                model.index(r, ComponentDiffModel::FromVersionColumn).data(models::CellChangedRole).toBool());
            QVERIFY(
                model.index(r, ComponentDiffModel::ToVersionColumn).data(models::CellChangedRole).toBool());
        }
        QVERIFY(!model.index(r, 0).data(Qt::ToolTipRole).toString().isEmpty());
    }
    QCOMPARE(seen, names);
}

// The embedded catalog's release story for EKS H100 training on Kubeflow: what changed from sample-1.
void TestDiffModels::releaseTable() {
    const RecipeResult a = resolveLeaf(QStringLiteral("sample-1"), kRecipe);
    const RecipeResult b = resolveLeaf(QStringLiteral("sample-2"), kRecipe);
    ComponentDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiff(catalog::diffRecipes(a, b, QStringLiteral("sample-1"), QStringLiteral("sample-2")));

    struct Expect {
        QString name, from, to;
    };
    for (const Expect& e :
         {Expect{QStringLiteral("gpu-operator"), QStringLiteral("v26.3.3"), QStringLiteral("v26.7.1")},
          Expect{QStringLiteral("kai-scheduler"), QStringLiteral("v0.14.1"), QStringLiteral("v0.16.9")}}) {
        const int row = model.rowOf(e.name);
        QVERIFY2(row >= 0, qPrintable(e.name));
        QCOMPARE(model.index(row, ComponentDiffModel::ChangeColumn).data().toString(),
                 QStringLiteral("changed"));
        QCOMPARE(model.index(row, ComponentDiffModel::FromVersionColumn).data().toString(), e.from);
        QCOMPARE(model.index(row, ComponentDiffModel::ToVersionColumn).data().toString(), e.to);
        QCOMPARE(background(model.index(row, ComponentDiffModel::ToVersionColumn)),
                 ChangeColors::changedBackground());
        // The resolved recipes agree.
        QCOMPARE(versionOf(*a.component(e.name)), e.from);
        QCOMPARE(versionOf(*b.component(e.name)), e.to);
    }

    // Counts, as a release page gives them, derived from the two recipes.
    std::map<Change, int> counts;
    for (const QString& n : componentNames(a) | componentNames(b))
        ++counts[expectedChange(a, b, n)];
    std::map<Change, int> rows;
    for (int r = 0; r < model.rowCount(); ++r)
        ++rows[Change(model.index(r, 0).data(models::ChangeRole).toInt())];
    QCOMPARE(rows, counts);
    QVERIFY(counts[Change::Changed] >= 2);
    QVERIFY(counts[Change::Added] + counts[Change::Removed] > 0);

    // Order moves: the Order column shows "from → to" exactly where the deployment order moved.
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString name = model.index(r, 0).data().toString();
        const qsizetype fa = a.deploymentOrder.indexOf(name), tb = b.deploymentOrder.indexOf(name);
        const bool moved = fa >= 0 && tb >= 0 && fa != tb;
        QCOMPARE(model.index(r, ComponentDiffModel::OrderColumn).data(models::CellChangedRole).toBool(),
                 moved);
    }
}

void TestDiffModels::changesOnly() {
    const catalog::RecipeDiff d = diffOf(QStringLiteral("sample-1"), QStringLiteral("sample-2"));
    ComponentDiffModel components;
    ConstraintDiffModel constraints;
    ValidationDiffModel checks;
    QAbstractItemModelTester t1(&components, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&constraints, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(&checks, QAbstractItemModelTester::FailureReportingMode::QtTest);
    components.setDiff(d);
    constraints.setDiff(d);
    checks.setDiff(d);
    const int all = components.rowCount();
    QCOMPARE(all, int(d.components.size()));

    components.setChangesOnly(true);
    constraints.setChangesOnly(true);
    checks.setChangesOnly(true);
    QVERIFY(components.changesOnly());
    int expected = 0;
    for (const catalog::ComponentDiff& c : d.components)
        expected += c.change != Change::Unchanged || c.orderMoved() ? 1 : 0;
    QCOMPARE(components.rowCount(), expected);
    QVERIFY(components.rowCount() < all);
    QCOMPARE(components.rowOf(QStringLiteral("gpu-operator")) >= 0, true);
    for (QAbstractItemModel* m :
         {static_cast<QAbstractItemModel*>(&constraints), static_cast<QAbstractItemModel*>(&checks)})
        for (int r = 0; r < m->rowCount(); ++r)
            QVERIFY(m->index(r, 0).data(models::ChangeRole).toInt() != int(Change::Unchanged));

    components.setChangesOnly(false);
    QCOMPARE(components.rowCount(), all);
    // A new diff keeps the filter setting.
    components.setChangesOnly(true);
    components.setDiff(d);
    QCOMPARE(components.rowCount(), expected);
}

void TestDiffModels::constraintDiff_data() {
    componentDiff_data();
}

void TestDiffModels::constraintDiff() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    const RecipeResult a = resolveLeaf(from, kRecipe);
    const RecipeResult b = resolveLeaf(to, kRecipe);
    ConstraintDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiff(catalog::diffRecipes(a, b, from, to));

    // Expected rows: every constraint of the recipe and of each phase, on either side.
    std::map<std::pair<QString, QString>, Change> expected; // (where, name) -> change
    QStringList places{QString()};
    places << catalog::Validation::phaseNames();
    for (const QString& phase : std::as_const(places)) {
        const auto ca = constraintsOf(a, phase), cb = constraintsOf(b, phase);
        for (const auto& [name, value] : ca)
            expected[{phase, name}] = !cb.count(name)        ? Change::Removed
                                      : cb.at(name) == value ? Change::Unchanged
                                                             : Change::Changed;
        for (const auto& [name, value] : cb)
            if (!ca.count(name))
                expected[{phase, name}] = Change::Added;
    }
    QCOMPARE(model.rowCount(), int(expected.size()));
    bool unchangedSeen = false;
    for (int r = 0; r < model.rowCount(); ++r) {
        QString where = model.index(r, ConstraintDiffModel::PhaseColumn).data().toString();
        if (where == QLatin1String("recipe"))
            where.clear();
        const QString name = model.index(r, ConstraintDiffModel::NameColumn).data().toString();
        const auto it = expected.find({where, name});
        QVERIFY2(it != expected.end(), qPrintable(where + QLatin1Char('/') + name));
        const Change change = Change(model.index(r, 0).data(models::ChangeRole).toInt());
        QCOMPARE(change, it->second);
        // Changes come first.
        if (change == Change::Unchanged)
            unchangedSeen = true;
        else
            QVERIFY(!unchangedSeen);
        if (change == Change::Changed) {
            QCOMPARE(model.index(r, ConstraintDiffModel::FromColumn).data().toString(),
                     constraintsOf(a, where).at(name));
            QCOMPARE(model.index(r, ConstraintDiffModel::ToColumn).data().toString(),
                     constraintsOf(b, where).at(name));
            QCOMPARE(background(model.index(r, ConstraintDiffModel::ToColumn)),
                     ChangeColors::changedBackground());
        }
    }
}

void TestDiffModels::validationDiff_data() {
    componentDiff_data();
}

void TestDiffModels::validationDiff() {
    QFETCH(QString, from);
    QFETCH(QString, to);
    const RecipeResult a = resolveLeaf(from, kRecipe);
    const RecipeResult b = resolveLeaf(to, kRecipe);
    const catalog::RecipeDiff d = catalog::diffRecipes(a, b, from, to);
    ValidationDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiff(d);

    std::map<std::pair<QString, QString>, Change> expected; // (phase, check) -> change
    for (const QString& phase : catalog::Validation::phaseNames()) {
        const QStringList ca = checksOf(a, phase), cb = checksOf(b, phase);
        for (const QString& c : ca)
            expected[{phase, c}] = cb.contains(c) ? Change::Unchanged : Change::Removed;
        for (const QString& c : cb)
            if (!ca.contains(c))
                expected[{phase, c}] = Change::Added;
    }
    QCOMPARE(model.rowCount(), int(expected.size() + d.phaseSettings.size()));
    int checkRows = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString phase = model.index(r, ValidationDiffModel::PhaseColumn).data().toString();
        const QString item = model.index(r, ValidationDiffModel::ItemColumn).data().toString();
        const auto it = expected.find({phase, item});
        if (it == expected.end()) // a phase setting
            continue;
        ++checkRows;
        QCOMPARE(Change(model.index(r, 0).data(models::ChangeRole).toInt()), it->second);
    }
    QCOMPARE(checkRows, int(expected.size()));
}

void TestDiffModels::identicalAndClear() {
    const catalog::RecipeDiff same = diffOf(QStringLiteral("sample-2"), QStringLiteral("sample-2"));
    QVERIFY(same.identical());
    ComponentDiffModel components;
    ConstraintDiffModel constraints;
    ValidationDiffModel checks;
    QAbstractItemModelTester t1(&components, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&constraints, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(&checks, QAbstractItemModelTester::FailureReportingMode::QtTest);
    components.setDiff(same);
    constraints.setDiff(same);
    checks.setDiff(same);
    QCOMPARE(components.rowCount(),
             int(resolveLeaf(QStringLiteral("sample-2"), kRecipe).componentRefs.size()));
    for (int r = 0; r < components.rowCount(); ++r)
        QCOMPARE(components.index(r, ComponentDiffModel::ChangeColumn).data().toString(),
                 QStringLiteral("unchanged"));
    components.setChangesOnly(true);
    constraints.setChangesOnly(true);
    checks.setChangesOnly(true);
    QCOMPARE(components.rowCount(), 0);
    QCOMPARE(constraints.rowCount(), 0);
    QCOMPARE(checks.rowCount(), 0);

    components.setChangesOnly(false);
    components.clear();
    constraints.clear();
    checks.clear();
    QCOMPARE(components.rowCount(), 0);
    QCOMPARE(constraints.rowCount(), 0);
    QCOMPARE(checks.rowCount(), 0);
    QCOMPARE(components.rowOf(QStringLiteral("gpu-operator")), -1);
}

QTEST_MAIN(TestDiffModels)
#include "tst_diffmodels.moc"
