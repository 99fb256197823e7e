// The application's windows, one per open database (issue 32): File > Open Team Database…, Open
// Database File… and Open Recent open a new window on the chosen database, leaving the current one
// as it is. Opening (connecting, migrating, the first start's sample) runs on a worker with a busy
// dialog; a password libpq cannot find is asked for; a failure is said in a message box, and the
// window that asked stays. Each window owns its Workspace; both go when the window closes.
#pragma once

#include "OpenDatabase.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <memory>

namespace pb::models {
class Workspace;
}

namespace pb::widgets {

class MainWindow;

class WindowManager : public QObject {
    Q_OBJECT
  public:
    explicit WindowManager(QObject* parent = nullptr);
    ~WindowManager() override;

    // A window on `dbSpec`, which is open and prepared already (main.cpp's first window); shown.
    MainWindow* openPrepared(const QString& dbSpec);
    // Opens `spec` on a worker and then a window on it; `from` parents the dialogs. False while
    // another open runs.
    bool open(const QString& spec, QWidget* from = nullptr);
    bool isOpening() const { return m_opening; }
    QList<MainWindow*> windows() const;
    // Replaces the password prompt (tests; the window's QInputDialog by default).
    void setPasswordPrompt(models::PasswordPrompt ask) { m_ask = std::move(ask); }
    // Message boxes on failure (off in tests, which read lastError()).
    void setQuiet(bool quiet) { m_quiet = quiet; }
    QString lastError() const { return m_lastError; }

  signals:
    void windowOpened(pb::widgets::MainWindow* window);
    void openFailed(const QString& error);

  private:
    QList<QPointer<MainWindow>> m_windows;
    models::PasswordPrompt m_ask;
    bool m_opening = false;
    bool m_quiet = false;
    QString m_lastError;
};

} // namespace pb::widgets
