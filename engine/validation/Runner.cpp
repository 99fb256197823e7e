#include "validation/Runner.h"

#include "kube/Client.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QThread>
#include <QUrlQuery>

#include <mutex>
#include <thread>

namespace pb::validation {

namespace {

const QString kContainer = QStringLiteral("validator");
const QString kRunLabel = QStringLiteral("aicr.nvidia.com/run-id");
const QString kCheckLabel = QStringLiteral("proofbench.dev/check");

QString randomRunId() {
    return QString::number(QRandomGenerator::global()->generate() | 0x10000000u, 16).right(8);
}

// AICR's timeouts: "30m", "65m", "90s", "2h", "1h30m".
int timeoutSeconds(const QString& text) {
    int total = 0, num = 0;
    bool any = false;
    for (QChar ch : text.trimmed()) {
        if (ch.isDigit()) {
            num = num * 10 + ch.digitValue();
            any = true;
        } else {
            const int unit = ch == QLatin1Char('h') ? 3600 : ch == QLatin1Char('m') ? 60 : ch == QLatin1Char('s') ? 1 : 0;
            total += num * unit;
            num = 0;
        }
    }
    total += num; // a bare number is seconds
    return any && total > 0 ? total : 1800;
}

QString rewriteRegistry(const QString& image, const QString& registry) {
    if (registry.isEmpty())
        return image;
    // The first path element is a registry when it has a dot, a colon or is localhost.
    const int slash = image.indexOf(QLatin1Char('/'));
    const QString first = slash > 0 ? image.left(slash) : QString();
    const bool hasRegistry = first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) || first == QLatin1String("localhost");
    QString reg = registry;
    while (reg.endsWith(QLatin1Char('/')))
        reg.chop(1);
    return reg + QLatin1Char('/') + (hasRegistry ? image.mid(slash + 1) : image);
}

QString jobName(const QString& check, const QString& runId) {
    QString base = QStringLiteral("aicr-%1").arg(check).toLower();
    const int room = 63 - 1 - runId.size();
    if (base.size() > room)
        base.truncate(room);
    while (base.endsWith(QLatin1Char('-')))
        base.chop(1);
    return base + QLatin1Char('-') + runId;
}

QJsonObject labels(const QString& runId, const QString& check = {}) {
    QJsonObject l{{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("aicr")},
                  {QStringLiteral("app.kubernetes.io/managed-by"), QStringLiteral("proofbench")},
                  {kRunLabel, runId}};
    if (!check.isEmpty())
        l.insert(kCheckLabel, check);
    return l;
}

QJsonObject metadata(const QString& name, const QString& ns, const QJsonObject& lab) {
    QJsonObject m{{QStringLiteral("name"), name}, {QStringLiteral("labels"), lab}};
    if (!ns.isEmpty())
        m.insert(QStringLiteral("namespace"), ns);
    return m;
}

struct PodView {
    QString name, phase;
    bool terminated = false, running = false;
    int exitCode = -1;
    QString reason, message, waitingReason;
};

PodView podView(const QJsonObject& pod) {
    PodView v;
    v.name = pod.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("name")).toString();
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    v.phase = status.value(QStringLiteral("phase")).toString();
    for (const QJsonValue& cs : status.value(QStringLiteral("containerStatuses")).toArray()) {
        const QJsonObject c = cs.toObject();
        const QJsonObject state = c.value(QStringLiteral("state")).toObject();
        if (state.contains(QStringLiteral("terminated"))) {
            const QJsonObject t = state.value(QStringLiteral("terminated")).toObject();
            v.terminated = true;
            v.exitCode = t.value(QStringLiteral("exitCode")).toInt(-1);
            v.reason = t.value(QStringLiteral("reason")).toString();
            v.message = t.value(QStringLiteral("message")).toString();
        } else if (state.contains(QStringLiteral("running"))) {
            v.running = true;
        } else if (state.contains(QStringLiteral("waiting"))) {
            v.waitingReason = state.value(QStringLiteral("waiting")).toObject().value(QStringLiteral("reason")).toString();
        }
        if (c.value(QStringLiteral("name")).toString() == kContainer)
            break;
    }
    if (v.phase == QLatin1String("Succeeded") || v.phase == QLatin1String("Failed"))
        v.terminated = true;
    if (v.phase == QLatin1String("Running"))
        v.running = true;
    if (v.message.isEmpty())
        v.message = status.value(QStringLiteral("message")).toString();
    return v;
}

// Image pull failures and the like never leave Pending on their own.
bool hopelessWait(const QString& reason) {
    return reason == QLatin1String("ErrImagePull") || reason == QLatin1String("ImagePullBackOff") ||
           reason == QLatin1String("InvalidImageName") || reason == QLatin1String("CreateContainerConfigError");
}

} // namespace

void appendBounded(QByteArray& log, QByteArrayView chunk, qsizetype limit) {
    log.append(chunk.data(), chunk.size());
    // Trim in steps of an eighth of the limit so a long stream costs amortised O(1) per byte.
    if (log.size() <= limit + limit / 8)
        return;
    static const QByteArray marker = "\n[proofbench: log too long; the middle was omitted]\n";
    const qsizetype head = limit / 16;
    const bool marked = log.size() >= head + marker.size() && QByteArrayView(log).sliced(head, marker.size()) == marker;
    const qsizetype start = head + (marked ? marker.size() : 0);
    qsizetype cut = log.size() - limit;
    // Cut at a line boundary, so the kept tail starts with a whole line.
    const qsizetype nl = log.indexOf('\n', start + cut);
    if (nl > 0)
        cut = nl + 1 - start;
    log.remove(start, cut);
    if (!marked)
        log.insert(head, marker);
}

QString checkStateName(CheckState s) {
    switch (s) {
    case CheckState::Pending: return QStringLiteral("pending");
    case CheckState::Running: return QStringLiteral("running");
    case CheckState::Passed: return QStringLiteral("passed");
    case CheckState::Failed: return QStringLiteral("failed");
    case CheckState::Skipped: return QStringLiteral("skipped");
    case CheckState::Other: return QStringLiteral("other");
    }
    return {};
}

QString runStateName(RunState s) {
    switch (s) {
    case RunState::Running: return QStringLiteral("running");
    case RunState::Passed: return QStringLiteral("passed");
    case RunState::Failed: return QStringLiteral("failed");
    case RunState::Cancelled: return QStringLiteral("cancelled");
    case RunState::Error: return QStringLiteral("error");
    case RunState::ReadinessFailed: return QStringLiteral("readiness-failed");
    }
    return {};
}

int RunResult::exitCode() const {
    switch (state) {
    case RunState::Passed: return 0;
    case RunState::ReadinessFailed: return 2;
    case RunState::Error: return 2;
    case RunState::Failed: return 8;
    case RunState::Cancelled: return 130;
    case RunState::Running: return 1;
    }
    return 1;
}

const CheckRun* RunResult::check(const QString& name) const {
    for (const CheckRun& c : checks)
        if (c.name == name)
            return &c;
    return nullptr;
}

void readContainerLog(CheckRun& check, const QByteArray& raw) {
    QByteArray kept;
    kept.reserve(raw.size());
    check.resultLines.clear();
    qsizetype pos = 0;
    while (pos < raw.size()) {
        qsizetype nl = raw.indexOf('\n', pos);
        const qsizetype end = nl < 0 ? raw.size() : nl + 1;
        QByteArrayView line(raw.constData() + pos, end - pos);
        QByteArrayView body = line;
        while (!body.isEmpty() && (body.back() == '\n' || body.back() == '\r'))
            body.chop(1);
        // Kubernetes `timestamps=true` and Slurm-style prefixes may precede the markers.
        const qsizetype extra = body.indexOf(QByteArrayView("##AICR-EXTRA##"));
        if (extra >= 0) {
            const QJsonDocument doc = QJsonDocument::fromJson(body.sliced(extra + 14).trimmed().toByteArray());
            if (doc.isObject())
                check.extra = doc.object();
        } else {
            kept.append(line);
            const qsizetype res = body.indexOf(QByteArrayView("RESULT: "));
            if (res >= 0)
                check.resultLines << QString::fromUtf8(body.sliced(res));
        }
        pos = end;
    }
    check.log = kept;
}

void scoreCheck(CheckRun& check, const catalog::RecipeResult& recipe, double gpuScale) {
    std::vector<catalog::Constraint> constraints;
    if (recipe.validation && recipe.validation->performance && recipe.validation->performance->constraints)
        constraints = *recipe.validation->performance->constraints;
    if (check.name.startsWith(QLatin1String("nccl-all-reduce-bw"))) {
        NcclParser parser;
        parser.feed(check.log);
        NcclResult r = parser.finish();
        if (!r.rows.empty())
            check.nccl = r;
        check.score = scoreNccl(check.name, r, constraints);
    } else if (check.name == QLatin1String("inference-perf")) {
        if (std::optional<QByteArray> block = extractAiperfBlock(check.log)) {
            Result<InferenceResult> r = parseInference(*block, PerfKind::AIPerf, check.name + QStringLiteral(" log"));
            if (r) {
                check.inference = *r;
                check.score = scoreInference(check.name, *r, constraints, gpuScale);
            } else {
                CheckScore s;
                s.check = check.name;
                s.verdict = Verdict::Failed;
                s.message = r.error().toString();
                check.score = s;
            }
        }
    }
}

Runner::Runner(kube::Client& client, RunRequest request, RunObserver observer)
    : m_client(client), m_req(std::move(request)), m_obs(std::move(observer)) {
    if (m_req.runId.isEmpty())
        m_req.runId = randomRunId();
}

void Runner::say(const QString& message) {
    if (m_obs.message)
        m_obs.message(message);
}

void Runner::notify(const CheckRun& c) {
    if (m_obs.checkChanged)
        m_obs.checkChanged(c);
}

void Runner::cancel() {
    m_cancel = true;
    if (!m_cleaning) // the cleanup itself must still reach the server
        m_client.cancel();
}

Status Runner::prepare() {
    m_plan.clear();
    static const QStringList order = {QStringLiteral("deployment"), QStringLiteral("conformance"), QStringLiteral("performance")};
    for (const QString& p : m_req.phases)
        if (!order.contains(p))
            return makeError(QStringLiteral("unknown phase '%1' (expected deployment, conformance, performance or all)").arg(p),
                             {}, 0, QStringLiteral("phase"));
    if (!m_req.recipe.validation)
        return makeError(QStringLiteral("the recipe declares no validation"), {}, 0, QStringLiteral("validation"));
    QSet<QString> seen;
    for (const QString& phase : order) {
        if (!m_req.phases.isEmpty() && !m_req.phases.contains(phase))
            continue;
        const auto& p = m_req.recipe.validation->phase(phase);
        if (!p || !p->checks)
            continue;
        for (const QString& name : *p->checks) {
            const QString field = QStringLiteral("validation.%1.checks").arg(phase);
            const catalog::ValidatorCheck* v = m_req.validators.find(name);
            if (!v)
                return makeError(QStringLiteral("check '%1' is not in the validator catalog %2 %3")
                                     .arg(name, m_req.validators.name, m_req.validators.version),
                                 {}, 0, field);
            if (v->phase != phase)
                return makeError(QStringLiteral("check '%1' belongs to the %2 phase in the validator catalog").arg(name, v->phase), {}, 0, field);
            if (seen.contains(name))
                return makeError(QStringLiteral("check '%1' is declared twice").arg(name), {}, 0, field);
            seen.insert(name);
            CheckRun c;
            c.phase = phase;
            c.name = name;
            c.image = rewriteRegistry(v->image, m_req.imageRegistry);
            c.job = jobName(name, m_req.runId);
            m_plan.push_back(c);
        }
    }
    if (m_plan.empty())
        return makeError(m_req.phases.isEmpty() ? QStringLiteral("the recipe declares no checks")
                                                : QStringLiteral("the recipe declares no checks in %1").arg(m_req.phases.join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("validation"));
    return {};
}

RunResult Runner::run() {
    RunResult result;
    result.runId = m_req.runId;
    result.started = QDateTime::currentDateTimeUtc();
    result.checks = m_plan;
    for (const CheckRun& c : m_plan)
        if (!result.phasesRun.contains(c.phase))
            result.phasesRun << c.phase;
    QString cleanupNote;
    auto finish = [&](RunState state, const QString& reason) {
        result.state = state;
        result.reason = reason;
        if (!cleanupNote.isEmpty())
            result.reason += (result.reason.isEmpty() ? QString() : QStringLiteral("; ")) + cleanupNote;
        result.finished = QDateTime::currentDateTimeUtc();
        return result;
    };
    auto stopped = [&]() { return m_cancel.load(); };
    const QString ns = m_req.namespace_;
    const QString rid = m_req.runId;

    say(QStringLiteral("Reading the cluster (%1)").arg(m_client.server()));
    Result<ClusterSnapshot> snap = takeSnapshot(m_client, m_req.toolVersion);
    if (!snap)
        return finish(stopped() ? RunState::Cancelled : RunState::Error, snap.error().toString());
    result.snapshot = *snap;
    result.readiness = evaluateReadiness(m_req.recipe, *snap);
    QStringList failedReadiness;
    for (const ConstraintCheck& c : result.readiness)
        if (c.outcome == ConstraintOutcome::Failed)
            failedReadiness << c.detail;
    if (!failedReadiness.isEmpty())
        return finish(RunState::ReadinessFailed, QStringLiteral("readiness: ") + failedReadiness.join(QStringLiteral("; ")));

    // Namespace (kept afterwards, as aicr does), per-run RBAC and the two ConfigMaps.
    say(QStringLiteral("Preparing namespace %1 (run %2)").arg(ns, rid));
    {
        kube::ApiResponse r = m_client.create(QStringLiteral("/api/v1/namespaces"),
                                              QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                                          {QStringLiteral("kind"), QStringLiteral("Namespace")},
                                                          {QStringLiteral("metadata"), metadata(ns, {}, labels(rid))}});
        if (!r.ok() && r.http != 409)
            return finish(stopped() ? RunState::Cancelled : RunState::Error, r.message);
    }
    const QString sa = QStringLiteral("aicr-validator-") + rid;
    const QByteArray validationInput = [&] {
        QJsonObject criteria;
        for (const QString& d : catalog::Criteria::dimensions())
            criteria.insert(d, m_req.recipe.criteria.get(d));
        QJsonArray comps, cons;
        for (const catalog::ComponentRef& c : m_req.recipe.componentRefs)
            comps.append(QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("namespace"), c.namespace_},
                                     {QStringLiteral("version"), c.version}, {QStringLiteral("type"), c.type}});
        for (const catalog::Constraint& c : m_req.recipe.constraints)
            cons.append(QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("value"), c.value}});
        const QJsonObject recipeJson = catalog::toJson(m_req.recipe).toObject();
        const QJsonObject input{{QStringLiteral("apiVersion"), QStringLiteral("aicr.run/v1alpha1")},
                                {QStringLiteral("kind"), QStringLiteral("ValidationInput")},
                                {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), m_req.recipe.recipeName()},
                                                                         {QStringLiteral("runID"), rid}}},
                                {QStringLiteral("config"), QJsonObject{{QStringLiteral("phases"), QJsonArray::fromStringList(result.phasesRun)},
                                                                       {QStringLiteral("validation"), recipeJson.value(QStringLiteral("validation"))}}},
                                {QStringLiteral("componentRefs"), comps},
                                {QStringLiteral("criteria"), criteria},
                                {QStringLiteral("constraints"), cons}};
        return yaml::serialize(yaml::fromJson(input));
    }();
    struct Item {
        QString path;
        QJsonObject object;
    };
    const std::vector<Item> setup = {
        {QStringLiteral("/api/v1/namespaces/%1/serviceaccounts").arg(ns),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                     {QStringLiteral("metadata"), metadata(sa, ns, labels(rid))}}},
        {QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
                     {QStringLiteral("kind"), QStringLiteral("ClusterRoleBinding")},
                     {QStringLiteral("metadata"), metadata(sa, {}, labels(rid))},
                     {QStringLiteral("roleRef"), QJsonObject{{QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                                                             {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                                                             {QStringLiteral("name"), QStringLiteral("cluster-admin")}}},
                     {QStringLiteral("subjects"), QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                                                                         {QStringLiteral("name"), sa},
                                                                         {QStringLiteral("namespace"), ns}}}}}},
        {QStringLiteral("/api/v1/namespaces/%1/configmaps").arg(ns),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
                     {QStringLiteral("metadata"), metadata(QStringLiteral("aicr-snapshot-") + rid, ns, labels(rid))},
                     {QStringLiteral("data"), QJsonObject{{QStringLiteral("snapshot.yaml"), QString::fromUtf8(snap->toYaml())}}}}},
        {QStringLiteral("/api/v1/namespaces/%1/configmaps").arg(ns),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
                     {QStringLiteral("metadata"), metadata(QStringLiteral("aicr-validation-") + rid, ns, labels(rid))},
                     {QStringLiteral("data"), QJsonObject{{QStringLiteral("validation.yaml"), QString::fromUtf8(validationInput)}}}}},
    };
    for (const Item& item : setup) {
        kube::ApiResponse r = m_client.create(item.path, item.object);
        if (!r.ok() && r.http != 409) {
            const bool cancelled = stopped();
            cleanupNote = cleanup();
            return finish(cancelled ? RunState::Cancelled : RunState::Error, cancelled ? QStringLiteral("cancelled") : r.message);
        }
    }

    for (CheckRun& c : result.checks) {
        if (stopped())
            break;
        runCheck(c);
    }
    const bool cancelled = stopped();
    cleanupNote = cleanup();
    if (cancelled) {
        for (CheckRun& c : result.checks)
            if (c.state == CheckState::Pending && c.message.isEmpty())
                c.message = QStringLiteral("not run: the run was cancelled");
        int done = 0;
        for (const CheckRun& c : result.checks)
            done += c.state != CheckState::Pending && c.state != CheckState::Running ? 1 : 0;
        return finish(RunState::Cancelled, QStringLiteral("cancelled after %1 of %2 checks").arg(done).arg(result.checks.size()));
    }
    QStringList failed;
    for (const CheckRun& c : result.checks)
        if (c.state == CheckState::Failed || c.state == CheckState::Other || c.state == CheckState::Pending)
            failed << c.name;
    if (!failed.isEmpty())
        return finish(RunState::Failed, QStringLiteral("failed: ") + failed.join(QStringLiteral(", ")));
    return finish(RunState::Passed, {});
}

void Runner::runCheck(CheckRun& c) {
    const QString ns = m_req.namespace_;
    const QString rid = m_req.runId;
    const catalog::ValidatorCheck* v = m_req.validators.find(c.name);
    const int timeout = timeoutSeconds(v ? v->timeout : QString());

    QJsonArray env{QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_RUN_ID")}, {QStringLiteral("value"), rid}},
                   QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_PHASE")}, {QStringLiteral("value"), c.phase}},
                   QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_NAMESPACE")}, {QStringLiteral("value"), ns}}};
    if (v)
        if (const yaml::Node* e = v->node.get("env"); e && e->isSeq())
            for (const yaml::Node& item : e->items)
                if (item.isMap() && item.get("name"))
                    env.append(QJsonObject{{QStringLiteral("name"), item.get("name")->text()},
                                           {QStringLiteral("value"), item.get("value") ? item.get("value")->text() : QString()}});
    const QJsonObject container{
        {QStringLiteral("name"), kContainer},
        {QStringLiteral("image"), c.image},
        {QStringLiteral("args"), QJsonArray::fromStringList(v && !v->args.isEmpty() ? v->args : QStringList{c.name})},
        {QStringLiteral("env"), env},
        {QStringLiteral("terminationMessagePolicy"), QStringLiteral("FallbackToLogsOnError")},
        {QStringLiteral("volumeMounts"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("snapshot")}, {QStringLiteral("mountPath"), QStringLiteral("/data/snapshot")},
                                {QStringLiteral("readOnly"), true}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("validation")}, {QStringLiteral("mountPath"), QStringLiteral("/data/validation")},
                                {QStringLiteral("readOnly"), true}}}}};
    auto volume = [&](const char* name, const QString& configMap) {
        return QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                           {QStringLiteral("configMap"), QJsonObject{{QStringLiteral("name"), configMap}}}};
    };
    const QJsonObject podSpec{{QStringLiteral("serviceAccountName"), QStringLiteral("aicr-validator-") + rid},
                              {QStringLiteral("restartPolicy"), QStringLiteral("Never")},
                              {QStringLiteral("containers"), QJsonArray{container}},
                              {QStringLiteral("volumes"), QJsonArray{volume("snapshot", QStringLiteral("aicr-snapshot-") + rid),
                                                                     volume("validation", QStringLiteral("aicr-validation-") + rid)}}};
    const QJsonObject podTemplate{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels(rid, c.name)}}},
                                  {QStringLiteral("spec"), podSpec}};
    const QJsonObject job{{QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
                          {QStringLiteral("kind"), QStringLiteral("Job")},
                          {QStringLiteral("metadata"), metadata(c.job, ns, labels(rid, c.name))},
                          {QStringLiteral("spec"), QJsonObject{{QStringLiteral("backoffLimit"), 0},
                                                               {QStringLiteral("activeDeadlineSeconds"), timeout},
                                                               {QStringLiteral("template"), podTemplate}}}};

    auto fail = [&](CheckState state, const QString& message) {
        c.state = state;
        c.message = message;
        c.finished = QDateTime::currentDateTimeUtc();
        if (c.started.isValid())
            c.durationMs = c.started.msecsTo(c.finished);
        notify(c);
    };

    c.started = QDateTime::currentDateTimeUtc();
    c.state = CheckState::Running;
    notify(c);
    say(QStringLiteral("%1: creating Job %2").arg(c.name, c.job));
    const QString jobsPath = QStringLiteral("/apis/batch/v1/namespaces/%1/jobs").arg(ns);
    kube::ApiResponse created = m_client.create(jobsPath, job);
    if (created.http == 409) {
        // Ours from an earlier attempt (same run id) is adopted; a conflict with nothing behind it
        // (a create that raced a delete) is retried once.
        const kube::ApiResponse existing = m_client.get(jobsPath + QLatin1Char('/') + c.job);
        if (existing.ok() && existing.object.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("labels")).toObject().value(kRunLabel).toString() == rid)
            created = existing;
        else if (existing.http == 404)
            created = m_client.create(jobsPath, job);
    }
    if (!created.ok()) {
        fail(m_cancel ? CheckState::Pending : CheckState::Failed, created.message);
        return;
    }
    m_createdJobs << c.job;

    const QString selector = QStringLiteral("job-name=%1").arg(c.job);
    const QString podsPath = QStringLiteral("/api/v1/namespaces/%1/pods").arg(ns);
    const qint64 deadlineMs = QDateTime::currentMSecsSinceEpoch() + qint64(timeout + m_req.graceSec + m_req.pendingTimeoutSec) * 1000;

    PodView pod;
    std::mutex logMutex;
    QByteArray log;
    std::thread follower;
    std::atomic_bool followerDone{false};
    auto startFollower = [&](const QString& podName) {
        if (follower.joinable())
            return;
        follower = std::thread([&, podName] {
            for (int attempt = 0; attempt < 600 && !m_cancel; ++attempt) {
                kube::ApiResponse r = m_client.logs(ns, podName, kContainer, true, [&](QByteArrayView chunk) {
                    {
                        std::lock_guard lock(logMutex);
                        appendBounded(log, chunk);
                    }
                    if (m_obs.log)
                        m_obs.log(c.name, chunk.toByteArray());
                    return !m_cancel.load();
                });
                if (r.ok() || r.http == 0 || r.http == 404)
                    break;
                // 400 "waiting to start": the container has not started yet.
                QThread::msleep(200);
            }
            followerDone = true;
        });
    };

    bool done = false;
    QString lastError;
    for (int relist = 0; relist < 20 && !done && !m_cancel; ++relist) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("labelSelector"), selector);
        const kube::ApiResponse list = m_client.get(podsPath, q);
        if (!list.ok()) {
            lastError = list.message;
            if (list.http == 0)
                break;
            QThread::msleep(500);
            continue;
        }
        auto consider = [&](const QJsonObject& obj) {
            pod = podView(obj);
            c.pod = pod.name;
            if (pod.running || pod.terminated)
                startFollower(pod.name);
            if (pod.terminated)
                done = true;
            else if (hopelessWait(pod.waitingReason)) {
                done = true;
                lastError = QStringLiteral("pod %1 cannot start: %2").arg(pod.name, pod.waitingReason);
            }
        };
        for (const QJsonValue& item : list.object.value(QStringLiteral("items")).toArray())
            consider(item.toObject());
        if (done)
            break;
        kube::WatchOptions w;
        w.labelSelector = selector;
        w.resourceVersion = list.object.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("resourceVersion")).toString();
        w.timeoutSeconds = 60;
        const kube::ApiResponse end = m_client.watch(podsPath, w, [&](const kube::WatchEvent& e) {
            if (e.type == QLatin1String("ADDED") || e.type == QLatin1String("MODIFIED"))
                consider(e.object);
            if (QDateTime::currentMSecsSinceEpoch() > deadlineMs) {
                lastError = QStringLiteral("no result within the check's timeout (%1 s) plus grace").arg(timeout);
                done = true;
            }
            return !done && !m_cancel;
        });
        if (done || m_cancel)
            break;
        if (end.reason == QLatin1String("Gone"))
            continue; // list again, watch from the new version
        if (!end.ok()) {
            lastError = end.message;
            if (end.http == 0)
                break;
        }
    }

    if (m_cancel) {
        m_client.cancel();
        if (follower.joinable())
            follower.join();
        std::lock_guard lock(logMutex);
        readContainerLog(c, log);
        fail(CheckState::Other, QStringLiteral("cancelled"));
        return;
    }
    if (follower.joinable())
        follower.join();
    QByteArray raw;
    {
        std::lock_guard lock(logMutex);
        raw = log;
    }
    if (raw.isEmpty() && !pod.name.isEmpty()) {
        // The stream may have missed a container that finished at once: read it whole.
        m_client.logs(ns, pod.name, kContainer, false, [&](QByteArrayView chunk) {
            appendBounded(raw, chunk);
            return true;
        });
    }
    readContainerLog(c, raw);
    c.exitCode = pod.exitCode;
    c.finished = QDateTime::currentDateTimeUtc();
    c.durationMs = c.started.msecsTo(c.finished);
    if (!pod.terminated) {
        c.state = CheckState::Failed;
        c.message = lastError.isEmpty() ? QStringLiteral("the check's pod never finished") : lastError;
        scoreCheck(c, m_req.recipe);
        notify(c);
        return;
    }
    QString why = pod.message.trimmed();
    if (pod.exitCode != 0 && why.isEmpty()) {
        // The Job's own condition says why (DeadlineExceeded, BackoffLimitExceeded).
        const kube::ApiResponse j = m_client.get(jobsPath + QLatin1Char('/') + c.job);
        for (const QJsonValue& cond : j.object.value(QStringLiteral("status")).toObject().value(QStringLiteral("conditions")).toArray()) {
            const QJsonObject o = cond.toObject();
            if (o.value(QStringLiteral("type")).toString() == QLatin1String("Failed"))
                why = QStringLiteral("%1: %2").arg(o.value(QStringLiteral("reason")).toString(), o.value(QStringLiteral("message")).toString());
        }
        if (why.isEmpty())
            why = pod.reason;
    }
    switch (pod.exitCode) {
    case 0: c.state = CheckState::Passed; break;
    case 1: c.state = CheckState::Failed; break;
    case 2: c.state = CheckState::Skipped; break;
    default: c.state = pod.phase == QLatin1String("Succeeded") ? CheckState::Passed : CheckState::Failed; break;
    }
    c.message = why;
    scoreCheck(c, m_req.recipe);
    if (c.score) {
        // The validator's exit code is its verdict; our own reading of its numbers can only add a
        // failure it missed (e.g. an older image with a looser rule), never excuse one.
        if (c.state == CheckState::Passed && c.score->verdict == Verdict::Failed) {
            c.state = CheckState::Failed;
            c.message = QStringLiteral("exit 0, but by the recipe's threshold: ") + c.score->message;
        } else if (c.message.isEmpty()) {
            c.message = c.score->message;
        }
    }
    if (c.message.isEmpty() && c.state == CheckState::Failed)
        c.message = QStringLiteral("exit code %1").arg(pod.exitCode);
    notify(c);
}

QString Runner::cleanup() {
    if (!m_req.cleanup)
        return {};
    m_cleaning = true;
    m_client.resetCancel();
    const QString ns = m_req.namespace_;
    const QString rid = m_req.runId;
    say(QStringLiteral("Cleaning up run %1").arg(rid));
    QStringList problems;
    auto del = [&](const QString& path) {
        const kube::ApiResponse r = m_client.remove(path, kube::Propagation::Background);
        if (!r.ok() && r.http != 404)
            problems << r.message;
    };
    for (const QString& job : std::as_const(m_createdJobs))
        del(QStringLiteral("/apis/batch/v1/namespaces/%1/jobs/%2").arg(ns, job));
    del(QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/aicr-validator-") + rid);
    del(QStringLiteral("/api/v1/namespaces/%1/serviceaccounts/aicr-validator-%2").arg(ns, rid));
    del(QStringLiteral("/api/v1/namespaces/%1/configmaps/aicr-snapshot-%2").arg(ns, rid));
    del(QStringLiteral("/api/v1/namespaces/%1/configmaps/aicr-validation-%2").arg(ns, rid));
    m_cleaning = false;
    if (problems.isEmpty())
        return {};
    const QString text = QStringLiteral("cleanup: ") + problems.join(QStringLiteral("; "));
    say(text);
    return text;
}

} // namespace pb::validation
