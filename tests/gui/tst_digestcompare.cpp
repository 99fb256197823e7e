// Issue 18 in the window: the Recipe view and Compare show the same labelled digests as the CLI
// (text and JSON) for the same recipe, of the sample and of a real catalog; Compare's baseline
// follows version order (not import order), marks sample data, shows each version's origin, lets
// the user choose another baseline, and hides version-only changes on request.
#include "CatalogTreeModel.h"
#include "ComparePane.h"
#include "DiffModels.h"
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "RecipeModels.h"
#include "RecipeView.h"
#include "TestUtil.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "ops/ImportCatalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace pb;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 30000;
const QString kRecipe = QStringLiteral("h100-eks-ubuntu-training-kubeflow");

QByteArray cli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        qWarning("proofbench %s: %s", qPrintable(args.join(QLatin1Char(' '))),
                 p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

QStringList criteriaFlags() {
    return {QStringLiteral("--service"), QStringLiteral("eks"),      QStringLiteral("--accelerator"),
            QStringLiteral("h100"),      QStringLiteral("--os"),     QStringLiteral("ubuntu"),
            QStringLiteral("--intent"),  QStringLiteral("training"), QStringLiteral("--platform"),
            QStringLiteral("kubeflow")};
}

} // namespace

class TestDigestCompare : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void cleanup() {
        m_window.reset();
        m_db.reset();
    }

    void baselineFollowsVersionOrder();
    void guiCliAndJsonAgree_data();
    void guiCliAndJsonAgree();
    void hideVersionOnly();

  private:
    // The sample, then (when `real`) 2026-08-19 imported BEFORE 2026-07-09: import order and
    // version order disagree.
    bool open(bool real);
    bool openRecipe(const QString& label, const QString& recipe);
    bool showCompare();
    QString storedDigest(const QString& label, const QString& recipe) const;
    template <typename T> T* find(const char* name) { return pbgui::findNamed<T>(m_window.get(), name); }

    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<MainWindow> m_window;
};

bool TestDigestCompare::open(bool real) {
    m_db = pbgui::seededDatabase();
    if (!m_db->error.isEmpty())
        return false;
    if (real)
        for (const QString& label : {QStringLiteral("2026-08-19"), QStringLiteral("2026-07-09")}) {
            ops::ImportCatalogRequest req;
            req.label = label;
            req.dir = pbtest::realCatalog(label);
            if (!ops::importCatalog(ops::Context(*m_db->db), req))
                return false;
        }
    m_window = std::make_unique<MainWindow>(m_db->workspace());
    (void)QTest::qWaitFor([&] { return !m_window->isReloadingCatalogs(); },
                          30000); // the tree is read on a worker
    m_window->show();
    return QTest::qWaitForWindowExposed(m_window.get());
}

bool TestDigestCompare::openRecipe(const QString& label, const QString& recipe) {
    if (!m_window->selectRecipe(label, recipe))
        return false;
    widgets::RecipeView* view = m_window->recipeView();
    return QTest::qWaitFor(
        [&] {
            return view->hasResult() && view->recipe().catalogLabel == label && view->recipe().name == recipe;
        },
        kTimeout);
}

bool TestDigestCompare::showCompare() {
    m_window->recipeTabs()->setCurrentWidget(m_window->comparePane());
    return QTest::qWaitFor(
        [&] { return m_window->comparePane()->isUpToDate() && m_window->comparePane()->recipeDiff(); },
        kTimeout);
}

QString TestDigestCompare::storedDigest(const QString& label, const QString& recipe) const {
    for (const store::RecipeInfo& r : *m_window->catalogModel()->recipesOf(label))
        if (r.name == recipe)
            return r.digest;
    return {};
}

void TestDigestCompare::baselineFollowsVersionOrder() {
    PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
    QVERIFY(open(true));
    QVERIFY(openRecipe(QStringLiteral("2026-08-19"), kRecipe));
    QVERIFY(showCompare());
    widgets::ComparePane* pane = m_window->comparePane();
    auto* from = find<QComboBox>("compareFrom");
    auto* to = find<QComboBox>("compareTo");
    QVERIFY(from && to);
    // Previous → newest in version order, though 2026-07-09 was imported last.
    QCOMPARE(from->currentData().toString(), QStringLiteral("2026-07-09"));
    QCOMPARE(to->currentData().toString(), QStringLiteral("2026-08-19"));
    QCOMPARE(pane->recipeDiff()->fromLabel, QStringLiteral("2026-07-09"));
    // Newest first, in version order, samples last; each with its origin; samples marked.
    QStringList order;
    for (int i = 0; i < from->count(); ++i)
        order << from->itemData(i).toString();
    QCOMPARE(order, (QStringList{QStringLiteral("2026-08-19"), QStringLiteral("2026-07-09"),
                                 QStringLiteral("sample-2"), QStringLiteral("sample-1")}));
    for (int i = 0; i < from->count(); ++i) {
        const QString label = from->itemData(i).toString();
        const bool sample = label.startsWith(QLatin1String("sample-"));
        QCOMPARE(from->itemText(i).contains(QStringLiteral("sample data")), sample);
        const QString tip = from->itemData(i, Qt::ToolTipRole).toString();
        const store::CatalogVersionInfo* info =
            m_window->catalogModel()->versionAt(m_window->catalogModel()->versionIndex(label));
        QVERIFY(info);
        QVERIFY2(tip.contains(info->originText()), qPrintable(tip));
    }
    const QString before = pane->recipeDiff()->fromEvidenceDigest;
    QCOMPARE(before, storedDigest(QStringLiteral("2026-07-09"), kRecipe));
    const int rowsBefore = pane->componentsModel()->rowCount();
    QStringList versionsBefore;
    for (int r = 0; r < rowsBefore; ++r)
        versionsBefore << pane->componentsModel()
                              ->index(r, models::ComponentDiffModel::FromVersionColumn)
                              .data()
                              .toString();

    // Another baseline: the sample's second version. The comparison follows.
    QSignalSpy updated(pane, &widgets::ComparePane::compareUpdated);
    from->setCurrentIndex(from->findData(QStringLiteral("sample-2")));
    QTRY_VERIFY_WITH_TIMEOUT(pane->isUpToDate() && updated.count() > 0, kTimeout);
    QCOMPARE(pane->recipeDiff()->fromLabel, QStringLiteral("sample-2"));
    QVERIFY(pane->recipeDiff()->fromSample);
    QCOMPARE(pane->recipeDiff()->fromEvidenceDigest, storedDigest(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(pane->recipeDiff()->fromEvidenceDigest != before);
    QStringList versionsAfter;
    for (int r = 0; r < pane->componentsModel()->rowCount(); ++r)
        versionsAfter << pane->componentsModel()
                             ->index(r, models::ComponentDiffModel::FromVersionColumn)
                             .data()
                             .toString();
    QVERIFY(versionsAfter != versionsBefore);
    QVERIFY(find<QLabel>("compareRecipeSummary")->text().contains(QStringLiteral("sample data")));
    QTRY_VERIFY_WITH_TIMEOUT(pane->catalogDiff() != nullptr, kTimeout);
    QTRY_VERIFY(find<QLabel>("compareSummary")
                    ->text()
                    .contains(QStringLiteral("sample-2 (sample data) → 2026-08-19")));
}

void TestDigestCompare::guiCliAndJsonAgree_data() {
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("previous");
    QTest::addColumn<bool>("sample");
    QTest::newRow("sample-2") << QStringLiteral("sample-2") << QStringLiteral("sample-1") << true;
    QTest::newRow("2026-08-19") << QStringLiteral("2026-08-19") << QStringLiteral("2026-07-09") << false;
}

void TestDigestCompare::guiCliAndJsonAgree() {
    QFETCH(QString, label);
    QFETCH(QString, previous);
    QFETCH(bool, sample);
    if (!sample)
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs"));
    QVERIFY(open(!sample));
    QVERIFY(openRecipe(label, kRecipe));
    widgets::RecipeView* view = m_window->recipeView();
    const QString E = view->evidenceDigest(), P = view->parityDigest();
    QCOMPARE(E.size(), 64);
    QCOMPARE(P.size(), 64);
    QCOMPARE(E, storedDigest(label, kRecipe)); // the catalog view's digest is the evidence digest
    auto* digest = find<QLabel>("recipeDigest");
    QVERIFY(digest->text().contains(QStringLiteral("evidence digest")));
    QVERIFY(digest->text().contains(models::shortDigestText(E).toHtmlEscaped()));
    QVERIFY(digest->text().contains(QStringLiteral("parity digest")));
    QVERIFY(digest->toolTip().contains(QStringLiteral("evidence digest sha256:") + E));
    QVERIFY(digest->toolTip().contains(QStringLiteral("parity digest sha256:") + P));
    QCOMPARE(view->isSample(), sample);
    QCOMPARE(find<QLabel>("recipeSubtitle")->text().contains(QStringLiteral("sample data")), sample);

    // The CLI on the same database: text and JSON.
    const QStringList base = QStringList{QStringLiteral("--db"), m_db->path()} + criteriaFlags();
    const QByteArray text = cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                                            QStringLiteral("--digest")} +
                                base);
    QCOMPARE(QString::fromUtf8(text),
             QStringLiteral("%1\n%2\n").arg(models::evidenceDigestText(E), models::parityDigestText(P)));
    const QJsonObject json =
        QJsonDocument::fromJson(
            cli(QStringList{QStringLiteral("recipe"), QStringLiteral("--version"), label,
                            QStringLiteral("--digest"), QStringLiteral("--format"), QStringLiteral("json")} +
                base))
            .object();
    QCOMPARE(json.value("evidenceDigest").toString(), QStringLiteral("sha256:") + E);
    QCOMPARE(json.value("parityDigest").toString(), QStringLiteral("sha256:") + P);
    QCOMPARE(json.value("sample").toBool(), sample);

    // Compare (previous → this) against `diff` by criteria.
    QVERIFY(showCompare());
    widgets::ComparePane* pane = m_window->comparePane();
    QCOMPARE(pane->fromVersion(), previous);
    QCOMPARE(pane->recipeDiff()->toEvidenceDigest, E);
    QCOMPARE(pane->recipeDiff()->toParityDigest, P);
    const QString summary = find<QLabel>("compareRecipeSummary")->text();
    QVERIFY2(summary.contains(QStringLiteral("evidence digest")) &&
                 summary.contains(QStringLiteral("sha256:") + E),
             qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("parity digest")) &&
            summary.contains(QStringLiteral("sha256:") + P));
    const QJsonObject diff =
        QJsonDocument::fromJson(cli(QStringList{QStringLiteral("diff"), QStringLiteral("--from"), previous,
                                                QStringLiteral("--to"), label, QStringLiteral("--format"),
                                                QStringLiteral("json")} +
                                    base))
            .object();
    QCOMPARE(diff.value("fromEvidenceDigest").toString(),
             catalog::prefixedDigest(pane->recipeDiff()->fromEvidenceDigest));
    QCOMPARE(diff.value("toEvidenceDigest").toString(), QStringLiteral("sha256:") + E);
    QCOMPARE(diff.value("fromParityDigest").toString(),
             catalog::prefixedDigest(pane->recipeDiff()->fromParityDigest));
    QCOMPARE(diff.value("toSample").toBool(), sample);
    QVERIFY(summary.contains(catalog::prefixedDigest(pane->recipeDiff()->fromEvidenceDigest)));
}

void TestDigestCompare::hideVersionOnly() {
    QVERIFY(open(false));
    QVERIFY(openRecipe(QStringLiteral("sample-2"), kRecipe));
    QVERIFY(showCompare());
    widgets::ComparePane* pane = m_window->comparePane();
    QTRY_VERIFY_WITH_TIMEOUT(pane->catalogDiff() != nullptr, kTimeout);
    auto* summary = find<QLabel>("compareSummary");
    auto* hide = find<QCheckBox>("compareIgnoreVersionOnly");
    QVERIFY(hide && hide->isEnabled() && !hide->isChecked());
    QTRY_VERIFY(summary->text().contains(QStringLiteral("validator checks")));
    QVERIFY(!summary->text().contains(QStringLiteral("version-only hidden")));
    // The format change of the sample (target apiVersions) is reported.
    QVERIFY(summary->text().contains(QStringLiteral("aicr.run/v1beta1")));
    QVERIFY(find<QLabel>("compareRecipeSummary")
                ->text()
                .contains(QStringLiteral("format: apiVersion aicr.run/v1alpha2 → aicr.run/v1")));
    hide->setChecked(true);
    // 18 validator images :sample-1 → :sample-2 only follow the version.
    QVERIFY2(summary->text().contains(QStringLiteral("18 version-only hidden")), qPrintable(summary->text()));
    QVERIFY(pane->componentsModel()->hideVersionOnly());
    hide->setChecked(false);
    QVERIFY(!summary->text().contains(QStringLiteral("version-only hidden")));
}

QTEST_MAIN(TestDigestCompare)
#include "tst_digestcompare.moc"
