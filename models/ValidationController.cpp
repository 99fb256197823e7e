#include "ValidationController.h"

#include "catalog/Loader.h"
#include "evidence/Sign.h"
#include "kube/Client.h"
#include "kube/Kubeconfig.h"
#include "store/CatalogStore.h"
#include "db/Database.h"
#include "validation/Emit.h"

#include <QFile>
#include <QMetaObject>
#include <QPointer>

#include <atomic>
#include <thread>

namespace pb::models {

using namespace pb::validation;

struct ValidationController::Job {
    ValidationStart start;
    QString dbPath;
    std::unique_ptr<kube::Client> client;
    std::unique_ptr<Runner> runner;
    RunRequest request;
    kube::ResolvedContext context;
    QString catalogLabel;
    QString error;
    std::atomic_bool cancel{false};
    std::thread thread;
    RunResult result;
    QString evidenceDir, evidenceError;
};

namespace {

QJsonObject criteriaJson(const catalog::Criteria& c) {
    QJsonObject o;
    for (const QString& d : catalog::Criteria::dimensions())
        o.insert(d, c.get(d));
    return o;
}

} // namespace

ValidationController::ValidationController(db::Database& db, QObject* parent) : QObject(parent), m_db(db) {}

ValidationController::~ValidationController() {
    cancel();
    waitForWorker();
}

void ValidationController::waitForWorker() {
    if (m_job && m_job->thread.joinable())
        m_job->thread.join();
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
    auto job = std::make_shared<Job>();
    job->start = start;
    job->dbPath = m_db.path();
    m_job = job;
    m_rowId = 0;
    m_result = {};
    m_evidenceDir.clear();
    setStage(Stage::Preparing);
    emit message(tr("Connecting to %1…").arg(start.context.isEmpty() ? start.kubeconfig : start.context));

    QPointer<ValidationController> self(this);
    job->thread = std::thread([job, self] {
        auto fail = [&](const QString& e) { job->error = e; };
        [&] {
            Result<kube::Kubeconfig> config = kube::Kubeconfig::load({job->start.kubeconfig});
            if (!config)
                return fail(config.error().toString());
            Result<kube::ResolvedContext> ctx = kube::resolveContext(*config, job->start.context);
            if (!ctx)
                return fail(ctx.error().toString());
            job->context = *ctx;
            Result<std::unique_ptr<kube::Client>> client = kube::Client::create(*ctx);
            if (!client)
                return fail(client.error().toString());
            job->client = std::move(*client);

            // The worker reads the catalog through its own connection.
            Result<std::unique_ptr<db::Database>> db = db::Database::open(job->dbPath);
            if (!db)
                return fail(db.error().toString());
            store::CatalogStore catalogs(**db);
            QString label = job->start.catalogLabel;
            if (label.isEmpty()) {
                Result<std::vector<store::CatalogVersionInfo>> versions = catalogs.versions();
                if (!versions)
                    return fail(versions.error().toString());
                if (versions->empty())
                    return fail(QStringLiteral("no catalog in the database to take the validator catalog from; import one first"));
                label = versions->back().label;
            }
            Result<catalog::Catalog> cat = catalogs.loadCatalog(label);
            if (!cat)
                return fail(cat.error().toString());
            job->catalogLabel = label;
            RunRequest& req = job->request;
            if (!job->start.recipeFile.isEmpty()) {
                QFile f(job->start.recipeFile);
                if (!f.open(QIODevice::ReadOnly))
                    return fail(QStringLiteral("%1: cannot read the recipe: %2").arg(job->start.recipeFile, f.errorString()));
                Result<catalog::RecipeResult> r = catalog::parseRecipeResult(f.readAll(), job->start.recipeFile);
                if (!r)
                    return fail(r.error().toString());
                req.recipe = *r;
            } else {
                Result<catalog::RecipeResult> r = store::resolveStoredRecipe(*cat, job->start.leafOverlay);
                if (!r)
                    return fail(r.error().toString());
                req.recipe = *r;
            }
            req.validators = cat->validators;
            req.phases = job->start.phases;
            req.namespace_ = job->start.namespace_;
            req.toolVersion = job->start.toolVersion;
            job->runner = std::make_unique<Runner>(*job->client, req,
                                                   RunObserver{
                                                       [self](const QString& m) {
                                                           QMetaObject::invokeMethod(
                                                               self.data(), [self, m] { if (self) emit self->message(m); }, Qt::QueuedConnection);
                                                       },
                                                       [self](const CheckRun& c) {
                                                           QMetaObject::invokeMethod(
                                                               self.data(), [self, c] { if (self) self->saveChange(c); }, Qt::QueuedConnection);
                                                       },
                                                       [self](const QString& check, const QByteArray& chunk) {
                                                           QMetaObject::invokeMethod(
                                                               self.data(), [self, check, chunk] { if (self) emit self->logChunk(check, chunk); },
                                                               Qt::QueuedConnection);
                                                       }});
            if (Status s = job->runner->prepare(); !s)
                return fail(s.error().toString());
        }();
        QMetaObject::invokeMethod(self.data(), [self] { if (self) self->onPrepared(); }, Qt::QueuedConnection);
    });
    return true;
}

void ValidationController::cancel() {
    if (!m_job || m_stage == Stage::Idle)
        return;
    m_job->cancel = true;
    // While preparing, the worker still builds the runner: onPrepared() sees the flag instead.
    if (m_stage == Stage::Running && m_job->runner)
        m_job->runner->cancel();
    setStage(Stage::Cancelling);
    emit message(tr("Cancelling: deleting the run's Jobs and RBAC…"));
}

void ValidationController::onPrepared() {
    std::shared_ptr<Job> job = m_job;
    if (job->thread.joinable())
        job->thread.join();
    QString error = job->error;
    if (error.isEmpty() && job->cancel)
        error = tr("cancelled before the run started");
    if (!error.isEmpty()) {
        m_result = {};
        m_result.state = job->cancel ? RunState::Cancelled : RunState::Error;
        m_result.reason = error;
        setStage(Stage::Idle);
        emit finished(0, m_result, error);
        return;
    }
    store::RunHeader header;
    header.recipeName = job->request.recipe.recipeName();
    header.coordinate = header.recipeName;
    header.catalogVersion = job->catalogLabel;
    header.criteria = criteriaJson(job->request.recipe.criteria);
    header.context = job->context.context.name;
    header.server = job->context.cluster.server;
    header.namespace_ = job->request.namespace_;
    header.toolVersion = job->request.toolVersion;
    store::RunStore runs(m_db);
    Result<qint64> row = runs.begin(header, job->runner->runId(), job->runner->plan());
    if (!row) {
        m_result = {};
        m_result.state = RunState::Error;
        m_result.reason = row.error().toString();
        setStage(Stage::Idle);
        emit finished(0, m_result, m_result.reason);
        return;
    }
    m_rowId = *row;
    emit planned(m_rowId, job->runner->runId(), job->runner->plan(), job->request.recipe);
    if (m_stage != Stage::Cancelling)
        setStage(Stage::Running);

    QPointer<ValidationController> self(this);
    job->thread = std::thread([job, self] {
        job->result = job->runner->run();
        const RunResult& r = job->result;
        if ((r.state == RunState::Passed || r.state == RunState::Failed) && !job->start.outDir.isEmpty()) {
            Result<EmittedBundle> bundle =
                emitEvidence(r, job->request.recipe, job->start.outDir, job->request.toolVersion, job->request.validators.version);
            if (!bundle) {
                job->evidenceError = bundle.error().toString();
            } else {
                job->evidenceDir = bundle->dir;
                if (job->start.key && *job->start.key) {
                    Result<evidence::EvidenceSignature> sig = evidence::signEvidence(bundle->dir, job->start.key->get(), job->start.outDir);
                    if (!sig)
                        job->evidenceError = sig.error().toString();
                }
            }
        }
        QMetaObject::invokeMethod(self.data(), [self] { if (self) self->onRunEnded(); }, Qt::QueuedConnection);
    });
    // A cancel that came while the row was being written reaches the runner now.
    if (job->cancel)
        job->runner->cancel();
}

void ValidationController::saveChange(const CheckRun& check) {
    if (m_rowId && m_job && m_job->runner) {
        int seq = 0;
        const std::vector<CheckRun>& plan = m_job->runner->plan();
        for (size_t i = 0; i < plan.size(); ++i)
            if (plan[i].name == check.name)
                seq = int(i);
        if (Status s = store::RunStore(m_db).saveCheck(m_rowId, seq, check); !s)
            emit message(s.error().toString());
    }
    emit checkChanged(check);
}

void ValidationController::onRunEnded() {
    std::shared_ptr<Job> job = m_job;
    if (job->thread.joinable())
        job->thread.join();
    m_result = job->result;
    m_evidenceDir = job->evidenceDir;
    if (Status s = store::RunStore(m_db).finish(m_rowId, m_result, m_evidenceDir); !s)
        emit message(s.error().toString());
    if (!job->evidenceError.isEmpty())
        emit message(tr("Evidence: %1").arg(job->evidenceError));
    // The runner and client go with the job once nothing runs on them.
    job->runner.reset();
    job->client.reset();
    setStage(Stage::Idle);
    emit finished(m_rowId, m_result, job->evidenceError);
}

} // namespace pb::models
