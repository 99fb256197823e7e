#include "ValidationController.h"

#include "db/Database.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QPointer>

namespace pb::models {

using namespace pb::validation;

ValidationController::ValidationController(Workspace& workspace, QObject* parent)
    : QObject(parent), m_async(std::make_unique<ops::Async>(workspace.path(), 1)) {}

ValidationController::~ValidationController() {
    cancel();
    waitForWorker();
}

void ValidationController::waitForWorker() {
    m_async->waitForDone();
}

void ValidationController::setStage(Stage s) {
    if (m_stage == s)
        return;
    m_stage = s;
    emit stageChanged(s);
}

bool ValidationController::start(const ValidationStart& start, QString* error) {
    if (busy()) {
        if (error)
            *error = tr("a validation run is already going");
        return false;
    }
    waitForWorker();
    m_rowId = 0;
    m_result = {};
    m_evidenceDir.clear();

    ops::ValidateRequest req;
    if (!start.kubeconfig.isEmpty())
        req.kubeconfigs = {start.kubeconfig};
    req.context = start.context;
    req.recipe.catalogLabel = start.catalogLabel;
    req.recipe.leafOverlay = start.leafOverlay;
    req.recipe.file = start.recipeFile;
    req.phases = start.phases;
    req.namespace_ = start.namespace_;
    req.outDir = start.outDir;
    req.key = start.key;
    req.signIncomplete = start.signIncomplete;
    req.toolVersion = start.toolVersion;
    req.pendingLimitSec = start.pendingLimitSec;
    req.retryLimitSec = start.retryLimitSec;
    req.pollMs = start.pollMs;
    // Events arrive on the worker (and its log follower): each is handed to the GUI thread in order.
    QPointer<ValidationController> self(this);
    auto post = [self](auto fn) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, fn = std::move(fn)] {
                if (self)
                    fn(self.data());
            },
            Qt::QueuedConnection);
    };
    req.events.message = [post](const QString& m) {
        post([m](ValidationController* c) { emit c->message(m); });
    };
    req.events.planned = [post](qint64 row, const QString& runId, const std::vector<CheckRun>& plan,
                                const catalog::RecipeResult& recipe) {
        post([row, runId, plan, recipe](ValidationController* c) { c->onPlanned(row, runId, plan, recipe); });
    };
    req.events.checkChanged = [post](const CheckRun& check) {
        post([check](ValidationController* c) { emit c->checkChanged(check); });
    };
    req.events.log = [post](const QString& check, const QByteArray& chunk) {
        post([check, chunk](ValidationController* c) { emit c->logChunk(check, chunk); });
    };

    setStage(Stage::Preparing);
    emit message(tr("Connecting to %1…").arg(start.context.isEmpty() ? start.kubeconfig : start.context));
    m_job = m_async->run<ops::ValidateOutcome>([req](ops::Context& ctx) { return ops::validate(ctx, req); });
    auto* watcher = new QFutureWatcher<Result<ops::ValidateOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        onRunEnded();
    });
    watcher->setFuture(m_job->future);
    return true;
}

bool ValidationController::cleanupLeftovers(qint64 rowId, const QString& kubeconfig, const QString& context,
                                            QString* error, int retryLimitSec) {
    if (busy() || m_cleaning) {
        if (error)
            *error = tr("a validation run or cleanup is already going");
        return false;
    }
    waitForWorker();
    ops::CleanupRunRequest req;
    req.runRow = rowId;
    if (!kubeconfig.isEmpty())
        req.kubeconfigs = {kubeconfig};
    req.context = context;
    req.retryLimitSec = retryLimitSec;
    m_cleaning = true;
    emit message(tr("Deleting what run %1 left on the cluster…").arg(rowId));
    auto job =
        m_async->run<ops::CleanupRunOutcome>([req](ops::Context& ctx) { return ops::cleanupRun(ctx, req); });
    auto* watcher = new QFutureWatcher<Result<ops::CleanupRunOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, rowId] {
        watcher->deleteLater();
        m_cleaning = false;
        const Result<ops::CleanupRunOutcome> done = watcher->future().result();
        if (!done)
            emit cleanupFinished(rowId, {}, -1, done.error().toString());
        else
            emit cleanupFinished(rowId, done->removed, int(done->still.size()),
                                 done->still.empty() ? QString() : done->still.front().error);
    });
    watcher->setFuture(job.future);
    return true;
}

void ValidationController::cancel() {
    if (!m_job || m_stage == Stage::Idle)
        return;
    // The operation sees the flag: before the run it stops there, during it the runner stops and
    // deletes the run's Jobs and RBAC.
    m_job->cancel();
    setStage(Stage::Cancelling);
    emit message(tr("Cancelling: deleting the run's Jobs and RBAC…"));
}

void ValidationController::onPlanned(qint64 rowId, const QString& runId, const std::vector<CheckRun>& plan,
                                     const catalog::RecipeResult& recipe) {
    m_rowId = rowId;
    emit planned(rowId, runId, plan, recipe);
    if (m_stage != Stage::Cancelling)
        setStage(Stage::Running);
}

void ValidationController::onRunEnded() {
    const Result<ops::ValidateOutcome> done = m_job->future.result();
    const bool cancelled = m_job->cancelFlag->load();
    if (!done) {
        m_result = {};
        m_result.state = cancelled && !m_rowId ? RunState::Cancelled : RunState::Error;
        m_result.reason = done.error().toString();
        setStage(Stage::Idle);
        emit finished(m_rowId, m_result, m_result.reason);
        return;
    }
    m_rowId = done->runRow;
    m_result = done->result;
    m_evidenceDir = done->evidenceDir;
    const QString evidenceError = !done->evidenceError.isEmpty() ? done->evidenceError : done->signingError;
    if (!evidenceError.isEmpty())
        emit message(tr("Evidence: %1").arg(evidenceError));
    setStage(Stage::Idle);
    emit finished(m_rowId, m_result, evidenceError);
}

} // namespace pb::models
