// The one way a view runs work: through models::Workspace (a worker thread with a database
// connection of its own), with progress, Cancel, the error box and the Result back on the view's
// thread. Views never open a database, construct a store or call the engine on the GUI thread.
//
//   runInView<Outcome>(this, m_workspace, [req](const ops::Context& ctx) { return ops::foo(ctx, req); },
//                      [this](const Result<Outcome>& r) { ... },
//                      RunView().showBusy(tr("Importing…")).showErrors(tr("Import")));
#pragma once

#include "Workspace.h"

#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QWidget>

#include <algorithm>
#include <memory>
#include <utility>

namespace pb::widgets {

// How a view shows one run: RunView().showBusy(tr("Importing…")).showErrors(tr("Import")).writing().
struct RunView {
    QString busy;            // not empty: a window-modal progress dialog with this label while it runs
    bool cancellable = true; // the progress dialog's Cancel cancels the job
    QString errorTitle;      // not empty: a failure opens a warning box with this title (done still runs)
    bool writes = false;     // the workspace emits changed() after a success
    // Set: called with each ops::Progress on the view's thread (a dialog with a progress bar of
    // its own), besides the busy dialog when there is one.
    models::ProgressSink progress;

    RunView& showBusy(const QString& label, bool canCancel = true) {
        busy = label;
        cancellable = canCancel;
        return *this;
    }
    RunView& showErrors(const QString& title) {
        errorTitle = title;
        return *this;
    }
    RunView& writing() {
        writes = true;
        return *this;
    }
    RunView& onProgress(models::ProgressSink sink) {
        progress = std::move(sink);
        return *this;
    }
};

// Shows `error` in a warning box that does not block (tests and the window carry on).
void showRunError(QWidget* view, const QString& title, const QString& message);

// Starts fn(const ops::Context&) -> Result<T> on the workspace; done(Result<T>) runs on `view`'s
// thread (never after `view` is gone). Returns the task (cancel, running).
template <typename T, typename Fn, typename Done>
models::Task runInView(QWidget* view, models::Workspace& workspace, Fn fn, Done done,
                       RunView how = RunView()) {
    QPointer<QProgressDialog> dialog;
    if (!how.busy.isEmpty()) {
        dialog =
            new QProgressDialog(how.busy, how.cancellable ? QObject::tr("Cancel") : QString(), 0, 0, view);
        dialog->setObjectName(QStringLiteral("runProgress"));
        dialog->setWindowModality(Qt::WindowModal);
        dialog->setMinimumDuration(300);
        dialog->setAutoClose(false);
        dialog->setAutoReset(false);
    }
    models::ProgressSink progress;
    if (dialog || how.progress) {
        progress = [dialog, sink = how.progress](const ops::Progress& p) {
            if (sink)
                sink(p);
            if (!dialog)
                return;
            if (p.total > 0) {
                dialog->setMaximum(1000);
                dialog->setValue(int(std::clamp<qint64>(p.done * 1000 / p.total, 0, 999)));
            }
            if (!p.what.isEmpty())
                dialog->setLabelText(p.what);
        };
    }
    auto finished = [view, dialog, done, title = how.errorTitle](const Result<T>& result) {
        if (dialog)
            dialog->deleteLater();
        if (!result && !title.isEmpty())
            showRunError(view, title, result.error().toString());
        done(result);
    };
    models::Task task = how.writes
                            ? workspace.template run<T>(view, std::move(fn), std::move(finished), progress)
                            : workspace.template read<T>(view, std::move(fn), std::move(finished), progress);
    if (dialog && how.cancellable)
        QObject::connect(dialog, &QProgressDialog::canceled, view, [task] { task.cancel(); });
    return task;
}

} // namespace pb::widgets
