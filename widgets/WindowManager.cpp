#include "WindowManager.h"

#include "MainWindow.h"
#include "OpenTeamDatabaseDialog.h"
#include "TeamConnection.h"
#include "Workspace.h"

#include <QMessageBox>
#include <QProgressDialog>

namespace pb::widgets {

WindowManager::WindowManager(QObject* parent) : QObject(parent) {}

WindowManager::~WindowManager() {
    for (const QPointer<MainWindow>& w : m_windows)
        delete w.data(); // its workspace goes with it
}

QList<MainWindow*> WindowManager::windows() const {
    QList<MainWindow*> out;
    for (const QPointer<MainWindow>& w : m_windows)
        if (w)
            out << w.data();
    return out;
}

MainWindow* WindowManager::openPrepared(const QString& dbSpec) {
    // The workspace outlives its window: deleted after the window (and its panes' jobs) went.
    auto* workspace = new models::Workspace(dbSpec);
    auto* window = new MainWindow(*workspace);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &QObject::destroyed, workspace, [workspace] { workspace->deleteLater(); });
    connect(window, &MainWindow::openDatabaseRequested, this,
            [this, w = QPointer<MainWindow>(window)](const QString& spec) { open(spec, w); });
    m_windows << window;
    models::addRecentDatabase(dbSpec);
    window->show();
    emit windowOpened(window);
    return window;
}

bool WindowManager::open(const QString& spec, QWidget* from) {
    if (m_opening)
        return false;
    m_opening = true;
    m_lastError.clear();
    QPointer<QWidget> parent(from);
    auto* busy =
        new QProgressDialog(tr("Opening %1…").arg(models::describeDatabase(spec)), QString(), 0, 0, from);
    busy->setObjectName(QStringLiteral("openingDatabase"));
    busy->setWindowTitle(tr("Open Database"));
    busy->setMinimumDuration(400);
    busy->setWindowModality(Qt::WindowModal);
    models::PasswordPrompt ask = m_ask ? m_ask : passwordPrompt(from);
    models::runWithPassword<QString>(
        this, spec, [spec] { return models::prepareForWindow(spec); }, ask,
        [this, parent, busy, spec](Result<QString> opened) {
            busy->deleteLater();
            m_opening = false;
            if (!opened) {
                m_lastError = opened.error().toString();
                if (!m_quiet)
                    QMessageBox::warning(
                        parent, tr("Open Database"),
                        tr("Cannot open %1.\n\n%2").arg(models::describeDatabase(spec), m_lastError));
                emit openFailed(m_lastError);
                return;
            }
            openPrepared(*opened);
        });
    return true;
}

} // namespace pb::widgets
