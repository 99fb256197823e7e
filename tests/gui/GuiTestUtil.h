// Helpers shared by the GUI tests and the screenshot tool: a temp database seeded with the
// embedded default catalog, a recursive directory copy, and a hook that acts on the next modal
// dialog of a given type (for QFileDialog / QInputDialog / QMessageBox in exec()).
#pragma once

#include "store/CatalogStore.h"
#include "store/Database.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QPointer>
#include <QTemporaryDir>
#include <QTimer>
#ifdef QT_WIDGETS_LIB
#include <QApplication>
#include <QWidget>
#endif

#include <functional>
#include <memory>

namespace pbgui {

struct SeededDb {
    QTemporaryDir dir;
    std::unique_ptr<pb::store::Database> db;
    QString error; // empty on success

    QString path() const { return dir.filePath(QStringLiteral("proofbench.sqlite")); }
};

// A fresh SQLite file in a temp dir holding the embedded default catalog (v0.20.0, v1.0.0).
inline std::unique_ptr<SeededDb> seededDatabase() {
    auto s = std::make_unique<SeededDb>();
    if (!s->dir.isValid()) {
        s->error = QStringLiteral("cannot create a temporary directory");
        return s;
    }
    auto db = pb::store::Database::open(s->path());
    if (!db) {
        s->error = db.error().toString();
        return s;
    }
    s->db = std::move(*db);
    if (auto seeded = pb::store::importEmbeddedDefaults(*s->db); !seeded)
        s->error = seeded.error().toString();
    return s;
}

inline bool copyDirectory(const QString& from, const QString& to) {
    QDir src(from);
    if (!QDir().mkpath(to))
        return false;
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString abs = it.next();
        const QString target = to + QLatin1Char('/') + src.relativeFilePath(abs);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(abs, target))
            return false;
    }
    return true;
}

#ifdef QT_WIDGETS_LIB
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
