// Helpers shared by the GUI tests and the screenshot tool: a temp database seeded with Proofbench's
// sample catalog, a recursive directory copy, QSettings kept in a directory of the test's own, and
// a hook that acts on the next modal dialog of a given type (for QFileDialog / QInputDialog /
// QMessageBox in exec()).
#pragma once

#include "TestDb.h"
#include "TestUtil.h"
#include "db/Database.h"
#include "ops/ImportCatalog.h"
#include "store/CatalogStore.h"
#if __has_include("Workspace.h")
#include "Workspace.h"
#define PBGUI_HAS_WORKSPACE 1
#endif

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QPointer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#ifdef QT_WIDGETS_LIB
#include <QApplication>
#include <QWidget>
#include <QtWidgets/qtestsupport_widgets.h>
#endif

#include <functional>
#include <memory>
#include <type_traits>

namespace pbgui {

struct SeededDb {
    QTemporaryDir dir;
    // The run's engine (issue 31): a SQLite file in `dir`, or a fresh database on the PostgreSQL
    // test server in a test's PostgreSQL half.
    std::unique_ptr<pb::test::TestDatabase> tdb;
    std::unique_ptr<pb::db::Database> db;
    QString error; // empty on success

    // What Database::open and --db take: a file path, or a postgresql:// URI (see onPostgres()).
    QString path() const { return tdb ? tdb->spec() : dir.filePath(QStringLiteral("proofbench.sqlite")); }
#ifdef PBGUI_HAS_WORKSPACE
    // The window's handle on this database (made on first use; destroyed before the connection).
    std::unique_ptr<pb::models::Workspace> ws;
    pb::models::Workspace& workspace() {
        if (!ws)
            ws = std::make_unique<pb::models::Workspace>(path());
        return *ws;
    }
#endif
};

// A fresh database of the run's engine holding the sample catalog (sample-1, sample-2; not AICR
// releases).
inline std::unique_ptr<SeededDb> seededDatabase() {
    auto s = std::make_unique<SeededDb>();
    if (!s->dir.isValid()) {
        s->error = QStringLiteral("cannot create a temporary directory");
        return s;
    }
    s->tdb = std::make_unique<pb::test::TestDatabase>(s->dir.path(), QStringLiteral("proofbench.sqlite"));
    if (!s->tdb->ok()) {
        s->error = s->tdb->error();
        return s;
    }
    auto db = pb::db::Database::open(s->path());
    if (!db) {
        s->error = db.error().toString();
        return s;
    }
    s->db = std::move(*db);
    if (auto seeded = pb::ops::seedEmbeddedCatalog(*s->db); !seeded)
        s->error = seeded.error().toString();
    return s;
}

// QSettings (the welcome's "don't show again", registry settings, …) read and written in `dir`, under
// an organization of the tests' own, never the user's; cleared.
inline void isolateSettings(const QString& dir, const QString& application) {
    QCoreApplication::setOrganizationName(QStringLiteral("ProofbenchTest"));
    QCoreApplication::setApplicationName(application);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
    QSettings().clear();
}

// QAbstractItemModelTester's findings as test failures.
inline constexpr auto kTesterMode = QAbstractItemModelTester::FailureReportingMode::QtTest;

// One column of a flat model, top to bottom, as text of `role`.
inline QStringList column(const QAbstractItemModel& m, int col, int role = Qt::DisplayRole) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, col).data(role).toString();
    return out;
}

#ifdef QT_WIDGETS_LIB
// The child of `root` named `name`, or nullptr with a warning that says what is missing.
template <typename T> T* findNamed(const QObject* root, const char* name) {
    T* w = root->findChild<T*>(QLatin1String(name));
    if (!w)
        qWarning("no %s named %s", T::staticMetaObject.className(), name);
    return w;
}

// A GUI test's init(): a fresh seeded database and a window of type W over it, shown and exposed
// (and active, when asked). Empty on success, else what failed.
template <typename W>
[[nodiscard]] QString openWindow(std::unique_ptr<SeededDb>& db, std::unique_ptr<W>& window,
                                 bool activate = false) {
    db = seededDatabase();
    if (!db->error.isEmpty())
        return db->error;
#ifdef PBGUI_HAS_WORKSPACE
    if constexpr (std::is_constructible_v<W, pb::models::Workspace&>)
        window = std::make_unique<W>(db->workspace());
    else
#endif
        window = std::make_unique<W>(*db->db);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return QStringLiteral("the window was not exposed");
    // The main window reads its catalog tree on a worker: wait for it.
    if constexpr (requires { window->isReloadingCatalogs(); }) {
        if (!QTest::qWaitFor([&] { return !window->isReloadingCatalogs(); }, 20000))
            return QStringLiteral("the catalog tree was not read");
    }
    if (activate) {
        window->activateWindow();
        if (!QTest::qWaitForWindowActive(window.get()))
            return QStringLiteral("the window did not become active");
    }
    return {};
}

// A GUI test's cleanup(): the window goes before the database it shows.
template <typename W> void closeWindow(std::unique_ptr<SeededDb>& db, std::unique_ptr<W>& window) {
    window.reset();
    db.reset();
}

// Calls `fn` with the next modal dialog of type W once it is on screen (polling the event loop
// the dialog's exec() runs). Stops after `timeoutMs`. Keep the returned guard for as long as
// `fn`'s captures live: destroying it stops the watch.
struct ModalWatch {
    QPointer<QTimer> timer;
    ModalWatch() = default;
    explicit ModalWatch(QTimer* t) : timer(t) {}
    ModalWatch(ModalWatch&& o) noexcept : timer(o.timer) { o.timer = nullptr; }
    ModalWatch& operator=(ModalWatch&& o) noexcept {
        std::swap(timer, o.timer);
        return *this;
    }
    ModalWatch(const ModalWatch&) = delete;
    ModalWatch& operator=(const ModalWatch&) = delete;
    ~ModalWatch() { delete timer.data(); }
};

template <typename W> [[nodiscard]] ModalWatch whenModal(std::function<void(W*)> fn, int timeoutMs = 20000) {
    auto* timer = new QTimer(qApp);
    auto elapsed = std::make_shared<int>(0);
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, fn, elapsed, timeoutMs] {
        *elapsed += timer->interval();
        if (W* w = qobject_cast<W*>(QApplication::activeModalWidget()); w && w->isVisible()) {
            timer->stop();
            timer->deleteLater();
            fn(w);
        } else if (*elapsed > timeoutMs) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start();
    return ModalWatch(timer);
}
#endif

} // namespace pbgui
