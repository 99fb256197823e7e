// Issue 32, the window's side of team roles: the real MainWindow opened by team members of one
// PostgreSQL database (the owner seeds it and runs init-team; an auditor and an engineer log in). The
// status bar names the user and role; what the role may not do is disabled, the reason in the
// tooltip. On a SQLite file there are no roles: nothing is disabled and no role is shown.
#include "GuiTestUtil.h"
#include "MainWindow.h"
#include "TeamUsers.h"
#include "ops/DbAdmin.h"

#include <QAction>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace pb;
using widgets::MainWindow;

namespace {

constexpr int kTimeout = 60000;

struct Gated {
    const char* action;
    bool auditor, engineer; // enabled for them
};
// What each role may do in the window's menus.
const Gated kGated[] = {
    {"actionImportCatalog", false, true},  {"actionImportGit", false, true},
    {"actionImportEvidence", false, true}, {"actionNewKey", false, false},
    {"actionImportKey", false, false},     {"actionSignFile", false, false},
    {"actionSignEvidence", false, false},  {"actionSignDeployment", false, false},
};

} // namespace

class TestTeamWindow : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(m_settings.isValid());
        pbgui::isolateSettings(m_settings.path(), QStringLiteral("tst_teamwindow"));
    }

    void localFileHasNoRoles() {
        if (pb::test::onPostgres())
            QSKIP("a SQLite file's window (tst_teamwindow runs this)");
        std::unique_ptr<pbgui::SeededDb> db;
        std::unique_ptr<MainWindow> window;
        const QString error = pbgui::openWindow(db, window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QTest::qWait(200); // the access read comes back from a worker
        QCOMPARE(window->access().role, db::TeamRole::Local);
        QVERIFY(!pbgui::findNamed<QLabel>(window.get(), "statusRole")->isVisible());
        for (const Gated& g : kGated)
            QVERIFY2(pbgui::findNamed<QAction>(window.get(), g.action)->isEnabled(), g.action);
        pbgui::closeWindow(db, window);
    }

    void rolesShownAndEnforcedInTheWindow() {
        if (!pb::test::onPostgres())
            QSKIP("team roles are a server's (tst_teamwindow.postgresql runs this)");
        std::unique_ptr<pbgui::SeededDb> seeded = pbgui::seededDatabase();
        QVERIFY2(seeded->error.isEmpty(), qPrintable(seeded->error));
        pbtest::TeamUsers users(seeded->db->sql(), seeded->path(), seeded->tdb->pgName(),
                                {QStringLiteral("audit"), QStringLiteral("eng")}, seeded->dir.path());
        QVERIFY2(users.error().isEmpty(), qPrintable(users.error()));
        ops::InitTeamRequest team;
        team.members = {{users.user(QStringLiteral("audit")), db::TeamRole::Auditor},
                        {users.user(QStringLiteral("eng")), db::TeamRole::Engineer}};
        const auto init = ops::initTeam(ops::Context(*seeded->db), team);
        QVERIFY2(init.ok(), init.ok() ? "" : qPrintable(init.error().toString()));
        const QByteArray savedPgpass = qgetenv("PGPASSFILE");
        qputenv("PGPASSFILE", users.pgpass().toLocal8Bit());

        for (const QString& who : {QStringLiteral("audit"), QStringLiteral("eng")}) {
            const bool auditor = who == QLatin1String("audit");
            models::Workspace workspace(users.spec(who));
            auto window = std::make_unique<MainWindow>(workspace);
            window->show();
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY(QTest::qWaitFor([&] { return window->access().role != db::TeamRole::Local; }, kTimeout));
            QCOMPARE(window->access().role, auditor ? db::TeamRole::Auditor : db::TeamRole::Engineer);
            // The member reads what the owner stored: the two sample versions.
            QVERIFY(QTest::qWaitFor([&] { return !window->isReloadingCatalogs(); }, kTimeout));
            QCOMPARE(pbgui::findNamed<QTreeView>(window.get(), "catalogTree")->model()->rowCount(), 2);
            auto* role = pbgui::findNamed<QLabel>(window.get(), "statusRole");
            QVERIFY(role->isVisible());
            const QString roleName =
                auditor ? QStringLiteral("proofbench_auditor") : QStringLiteral("proofbench_engineer");
            QVERIFY2(role->text().contains(users.user(who)) && role->text().contains(roleName),
                     qPrintable(role->text()));
            for (const Gated& g : kGated) {
                QAction* action = pbgui::findNamed<QAction>(window.get(), g.action);
                const bool enabled = auditor ? g.auditor : g.engineer;
                QVERIFY2(action->isEnabled() == enabled, g.action);
                if (!enabled)
                    QVERIFY2(action->toolTip().startsWith(QStringLiteral("role %1 may not ").arg(roleName)),
                             qPrintable(action->toolTip()));
            }
            window.reset();
        }
        qputenv("PGPASSFILE", savedPgpass);
    }

  private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestTeamWindow)
#include "tst_teamwindow.moc"
