#include "validation/Runner.h"
#include "core/Plural.h"

#include "kube/Client.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QThread>
#include <QUrlQuery>

#include <algorithm>
#include <mutex>
#include <thread>

namespace pb::validation {

namespace {

const QString kContainer = QStringLiteral("validator");
const QString kRunLabel = QStringLiteral("aicr.nvidia.com/run-id");
const QString kCheckLabel = QStringLiteral("proofbench.dev/check");

} // namespace

QString newRunId() {
    return QString::number(QRandomGenerator::global()->generate() | 0x10000000u, 16).right(8);
}

namespace {

// AICR's timeouts: "30m", "65m", "90s", "2h", "1h30m".
int timeoutSeconds(const QString& text) {
    int total = 0, num = 0;
    bool any = false;
    for (QChar ch : text.trimmed()) {
        if (ch.isDigit()) {
            num = num * 10 + ch.digitValue();
            any = true;
        } else {
            const int unit = ch == QLatin1Char('h')   ? 3600
                             : ch == QLatin1Char('m') ? 60
                             : ch == QLatin1Char('s') ? 1
                                                      : 0;
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
    const bool hasRegistry = first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) ||
                             first == QLatin1String("localhost");
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
    bool deleting = false;      // metadata.deletionTimestamp: being deleted (graceful termination)
    bool unschedulable = false; // PodScheduled=False, reason Unschedulable
    int exitCode = -1;
    QString reason, message, waitingReason, waitingMessage;
    QString statusReason, statusMessage;   // status.reason/message (Evicted, NodeLost, ...)
    QString scheduleMessage;               // the PodScheduled condition's message
    QString disruption, disruptionMessage; // DisruptionTarget=True: its reason and message
};

PodView podView(const QJsonObject& pod) {
    PodView v;
    const QJsonObject meta = pod.value(QStringLiteral("metadata")).toObject();
    v.name = meta.value(QStringLiteral("name")).toString();
    v.deleting = !meta.value(QStringLiteral("deletionTimestamp")).toString().isEmpty();
    const QJsonObject status = pod.value(QStringLiteral("status")).toObject();
    v.phase = status.value(QStringLiteral("phase")).toString();
    v.statusReason = status.value(QStringLiteral("reason")).toString();
    v.statusMessage = status.value(QStringLiteral("message")).toString();
    for (const QJsonValue& cond : status.value(QStringLiteral("conditions")).toArray()) {
        const QJsonObject o = cond.toObject();
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("DisruptionTarget") &&
            o.value(QStringLiteral("status")).toString() == QLatin1String("True")) {
            // Evicted (EvictionByEvictionAPI), preempted, a node going away: the pod was stopped from
            // outside.
            v.disruption = o.value(QStringLiteral("reason")).toString();
            v.disruptionMessage = o.value(QStringLiteral("message")).toString();
        }
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("PodScheduled") &&
            o.value(QStringLiteral("status")).toString() == QLatin1String("False")) {
            v.unschedulable = o.value(QStringLiteral("reason")).toString() == QLatin1String("Unschedulable");
            v.scheduleMessage = o.value(QStringLiteral("message")).toString();
        }
    }
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
            const QJsonObject w = state.value(QStringLiteral("waiting")).toObject();
            v.waitingReason = w.value(QStringLiteral("reason")).toString();
            v.waitingMessage = w.value(QStringLiteral("message")).toString();
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

// Waiting reasons that never clear on their own (the pod spec itself is unusable on this cluster).
bool hopelessWait(const QString& reason) {
    return reason == QLatin1String("InvalidImageName") ||
           reason == QLatin1String("CreateContainerConfigError") ||
           reason == QLatin1String("ErrImageNeverPull");
}
// The kubelet retries these with backoff; a registry hiccup clears, a missing image does not.
bool pullWait(const QString& reason) {
    return reason == QLatin1String("ErrImagePull") || reason == QLatin1String("ImagePullBackOff");
}

qint64 nowMs() {
    return QDateTime::currentMSecsSinceEpoch();
}

// A cause that stops the whole run: the checks after it would meet the same wall.
bool stopsRun(const QString& cause) {
    return cause == QLatin1String("api-unreachable") || cause == QLatin1String("unauthorized") ||
           cause == QLatin1String("forbidden") || cause == QLatin1String("api-error");
}

} // namespace

void appendBounded(QByteArray& log, QByteArrayView chunk, qsizetype limit) {
    log.append(chunk.data(), chunk.size());
    // Trim in steps of an eighth of the limit so a long stream costs amortised O(1) per byte.
    if (log.size() <= limit + limit / 8)
        return;
    static const QByteArray marker = "\n[proofbench: log too long; the middle was omitted]\n";
    const qsizetype head = limit / 16;
    const bool marked =
        log.size() >= head + marker.size() && QByteArrayView(log).sliced(head, marker.size()) == marker;
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

QString apiFaultClass(int http, const QString& reason, const QString& message) {
    if (http == 0)
        return reason == QLatin1String("Cancelled") ? QStringLiteral("cancelled")
                                                    : QStringLiteral("api-unreachable");
    if (http >= 200 && http < 300)
        return {};
    // Webhooks deny with "admission webhook \"x\" denied the request", ValidatingAdmissionPolicy with
    // "... denied request"; the code is the webhook's choice (403 by default, 400, 422).
    if (message.contains(QLatin1String("admission webhook"), Qt::CaseInsensitive) ||
        message.contains(QLatin1String("denied the request"), Qt::CaseInsensitive) ||
        message.contains(QLatin1String("denied request"), Qt::CaseInsensitive) ||
        message.contains(QLatin1String("admission"), Qt::CaseInsensitive))
        return QStringLiteral("admission-rejected");
    if (http == 401)
        return QStringLiteral("unauthorized");
    if (http == 403)
        return QStringLiteral("forbidden");
    if (http == 429 || http >= 500)
        return QStringLiteral("api-error");
    Q_UNUSED(reason)
    return {};
}

bool transientFault(int http) {
    return http == 0 || http == 429 || http >= 500;
}

QString checkStateName(CheckState s) {
    switch (s) {
    case CheckState::Pending:
        return QStringLiteral("pending");
    case CheckState::Running:
        return QStringLiteral("running");
    case CheckState::Passed:
        return QStringLiteral("passed");
    case CheckState::Failed:
        return QStringLiteral("failed");
    case CheckState::Skipped:
        return QStringLiteral("skipped");
    case CheckState::Other:
        return QStringLiteral("other");
    }
    return {};
}

QString runStateName(RunState s) {
    switch (s) {
    case RunState::Running:
        return QStringLiteral("running");
    case RunState::Passed:
        return QStringLiteral("passed");
    case RunState::Failed:
        return QStringLiteral("failed");
    case RunState::Cancelled:
        return QStringLiteral("cancelled");
    case RunState::Error:
        return QStringLiteral("error");
    case RunState::ReadinessFailed:
        return QStringLiteral("readiness-failed");
    case RunState::Incomplete:
        return QStringLiteral("incomplete");
    case RunState::Skipped:
        return QStringLiteral("skipped");
    }
    return {};
}

RunState passedOrSkipped(const std::vector<CheckRun>& checks) {
    for (const CheckRun& c : checks)
        if (c.state != CheckState::Skipped)
            return RunState::Passed;
    return checks.empty() ? RunState::Passed : RunState::Skipped;
}

bool RunResult::incomplete() const {
    for (const CheckRun& c : checks)
        if (c.state == CheckState::Other)
            return true;
    return false;
}

int RunResult::exitCode() const {
    switch (state) {
    case RunState::Passed:
    case RunState::Skipped:
        return 0;
    case RunState::ReadinessFailed:
        return 2;
    case RunState::Error:
        return 2;
    case RunState::Failed:
        return 8;
    case RunState::Cancelled:
        return 130;
    case RunState::Incomplete:
        return kExitIncomplete;
    case RunState::Running:
        return 1;
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
            const QJsonDocument doc =
                QJsonDocument::fromJson(body.sliced(extra + 14).trimmed().toByteArray());
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
        if (r.badLine > 0) {
            // inf / nan / a negative figure in the validator's own table: not a measurement.
            CheckScore s;
            s.check = check.name;
            s.verdict = Verdict::Failed;
            s.message = QStringLiteral("log line %1: %2").arg(r.badLine).arg(r.badValue);
            check.score = s;
            return;
        }
        if (!r.rows.empty())
            check.nccl = r;
        check.score = scoreNccl(check.name, r, constraints);
    } else if (check.name == QLatin1String("inference-perf")) {
        if (std::optional<QByteArray> block = extractAiperfBlock(check.log)) {
            Result<InferenceResult> r =
                parseInference(*block, PerfKind::AIPerf, check.name + QStringLiteral(" log"));
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
        m_req.runId = newRunId();
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
    static const QStringList order = {QStringLiteral("deployment"), QStringLiteral("conformance"),
                                      QStringLiteral("performance")};
    for (const QString& p : m_req.phases)
        if (!order.contains(p))
            return makeError(
                QStringLiteral("unknown phase '%1' (expected deployment, conformance, performance or all)")
                    .arg(p),
                {}, 0, QStringLiteral("phase"));
    if (!m_req.recipe.validation)
        return makeError(QStringLiteral("the recipe declares no validation"), {}, 0,
                         QStringLiteral("validation"));
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
                return makeError(QStringLiteral("check '%1' belongs to the %2 phase in the validator catalog")
                                     .arg(name, v->phase),
                                 {}, 0, field);
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
                                                : QStringLiteral("the recipe declares no checks in %1")
                                                      .arg(m_req.phases.join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("validation"));
    return {};
}

bool Runner::sleepUnlessCancelled(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (m_cancel)
            return false;
        QThread::msleep(std::min<qint64>(50, std::max<qint64>(1, ms - t.elapsed())));
    }
    return !m_cancel;
}

kube::ApiResponse Runner::retrying(const std::function<kube::ApiResponse()>& call, const QString& what) {
    QElapsedTimer clock;
    clock.start();
    int delay = 100;
    for (int attempt = 1;; ++attempt) {
        kube::ApiResponse r = call();
        if (!transientFault(r.http) || m_cancel || r.reason == QLatin1String("Cancelled"))
            return r;
        const qint64 left = qint64(m_req.transientSec) * 1000 - clock.elapsed();
        if (left <= 0) {
            r.message +=
                QStringLiteral(" (gave up after %1 over %2 s)")
                    .arg(counted(qint64(attempt), QStringLiteral("attempt"), QStringLiteral("attempts")))
                    .arg(clock.elapsed() / 1000.0, 0, 'f', 1);
            return r;
        }
        if (attempt == 1 || attempt % 5 == 0)
            say(QStringLiteral("%1: %2; retrying (attempt %3)").arg(what, r.message).arg(attempt + 1));
        if (!sleepUnlessCancelled(int(std::min<qint64>(delay, left))))
            return r;
        delay = std::min(delay * 2, 5000);
    }
}

namespace {

// The ValidationInput the checks read from their ConfigMap: the recipe's criteria, components,
// constraints and validation section, and the phases this run runs.
QByteArray validationInputYaml(const RunRequest& req, const QStringList& phases) {
    QJsonObject criteria;
    for (const QString& d : catalog::Criteria::dimensions())
        criteria.insert(d, req.recipe.criteria.get(d));
    QJsonArray comps, cons;
    for (const catalog::ComponentRef& c : req.recipe.componentRefs)
        comps.append(QJsonObject{{QStringLiteral("name"), c.name},
                                 {QStringLiteral("namespace"), c.namespace_},
                                 {QStringLiteral("version"), c.version},
                                 {QStringLiteral("type"), c.type}});
    for (const catalog::Constraint& c : req.recipe.constraints)
        cons.append(QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("value"), c.value}});
    const QJsonObject recipeJson = catalog::toJson(req.recipe).toObject();
    const QJsonObject input{
        {QStringLiteral("apiVersion"), QStringLiteral("aicr.run/v1alpha1")},
        {QStringLiteral("kind"), QStringLiteral("ValidationInput")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), req.recipe.recipeName()},
                                                 {QStringLiteral("runID"), req.runId}}},
        {QStringLiteral("config"),
         QJsonObject{{QStringLiteral("phases"), QJsonArray::fromStringList(phases)},
                     {QStringLiteral("validation"), recipeJson.value(QStringLiteral("validation"))}}},
        {QStringLiteral("componentRefs"), comps},
        {QStringLiteral("criteria"), criteria},
        {QStringLiteral("constraints"), cons}};
    return yaml::serialize(yaml::fromJson(input));
}

struct SetupItem {
    QString path;
    QJsonObject object;
};

QJsonObject rule(const QString& group, const QStringList& resources, const QStringList& verbs) {
    return QJsonObject{{QStringLiteral("apiGroups"), QJsonArray{group}},
                       {QStringLiteral("resources"), QJsonArray::fromStringList(resources)},
                       {QStringLiteral("verbs"), QJsonArray::fromStringList(verbs)}};
}

} // namespace

QJsonArray validatorRules(const QStringList& phases) {
    if (phases.isEmpty() || phases.contains(QLatin1String("performance")))
        return {};
    const QStringList write{QStringLiteral("create"), QStringLiteral("update"), QStringLiteral("patch"),
                            QStringLiteral("delete")};
    QJsonArray rules{
        rule(QStringLiteral("*"), {QStringLiteral("*")},
             {QStringLiteral("get"), QStringLiteral("list"), QStringLiteral("watch")}),
        rule(QString(), {QStringLiteral("pods")}, write),                     // nvidia-smi, DRA, gang pods
        rule(QString(), {QStringLiteral("namespaces")}, write),               // the conformance checks' own
        rule(QStringLiteral("apps"), {QStringLiteral("deployments")}, write), // autoscaling checks
        rule(QStringLiteral("autoscaling"), {QStringLiteral("horizontalpodautoscalers")}, write),
        rule(QStringLiteral("resource.k8s.io"), {QStringLiteral("resourceclaims")}, write),
        rule(QStringLiteral("scheduling.run.ai"), {QStringLiteral("podgroups")}, write),
        rule(QStringLiteral("trainer.kubeflow.org"), {QStringLiteral("trainjobs")}, write),
        rule(QStringLiteral("nvidia.com"), {QStringLiteral("dynamographdeployments")}, write),
    };
    return rules;
}

namespace {

// What a run creates in its namespace before the first check: the service account, its cluster
// role binding, and the snapshot and validation-input ConfigMaps.
std::vector<SetupItem> runSetup(const RunRequest& req, const QStringList& phases,
                                const QByteArray& snapshotYaml) {
    const QString ns = req.namespace_;
    const QString rid = req.runId;
    const QString sa = QStringLiteral("aicr-validator-") + rid;
    const QByteArray validationInput = validationInputYaml(req, phases);
    const QJsonArray rules = validatorRules(phases);
    std::vector<SetupItem> items;
    if (!rules.isEmpty())
        items.push_back(
            {QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterroles"),
             QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
                         {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                         {QStringLiteral("metadata"), metadata(sa, {}, labels(rid))},
                         {QStringLiteral("rules"), rules}}});
    const QString role = rules.isEmpty() ? QStringLiteral("cluster-admin") : sa;
    std::vector<SetupItem> rest{
        {QStringLiteral("/api/v1/namespaces/%1/serviceaccounts").arg(ns),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                     {QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                     {QStringLiteral("metadata"), metadata(sa, ns, labels(rid))}}},
        {QStringLiteral("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings"),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("rbac.authorization.k8s.io/v1")},
                     {QStringLiteral("kind"), QStringLiteral("ClusterRoleBinding")},
                     {QStringLiteral("metadata"), metadata(sa, {}, labels(rid))},
                     {QStringLiteral("roleRef"),
                      QJsonObject{{QStringLiteral("apiGroup"), QStringLiteral("rbac.authorization.k8s.io")},
                                  {QStringLiteral("kind"), QStringLiteral("ClusterRole")},
                                  {QStringLiteral("name"), role}}},
                     {QStringLiteral("subjects"),
                      QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("ServiceAccount")},
                                             {QStringLiteral("name"), sa},
                                             {QStringLiteral("namespace"), ns}}}}}},
        {QStringLiteral("/api/v1/namespaces/%1/configmaps").arg(ns),
         QJsonObject{
             {QStringLiteral("apiVersion"), QStringLiteral("v1")},
             {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
             {QStringLiteral("metadata"), metadata(QStringLiteral("aicr-snapshot-") + rid, ns, labels(rid))},
             {QStringLiteral("data"),
              QJsonObject{{QStringLiteral("snapshot.yaml"), QString::fromUtf8(snapshotYaml)}}}}},
        {QStringLiteral("/api/v1/namespaces/%1/configmaps").arg(ns),
         QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                     {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
                     {QStringLiteral("metadata"),
                      metadata(QStringLiteral("aicr-validation-") + rid, ns, labels(rid))},
                     {QStringLiteral("data"),
                      QJsonObject{{QStringLiteral("validation.yaml"), QString::fromUtf8(validationInput)}}}}},
    };
    items.insert(items.end(), rest.begin(), rest.end());
    return items;
}

} // namespace

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
        result.created = m_created;
        return result;
    };
    auto stopped = [&]() { return m_cancel.load(); };
    // Checks that never got to run because of a cluster fault: `other`, with the fault.
    auto notRun = [&](const QString& cause, const QString& k8sReason, const QString& message) {
        for (CheckRun& c : result.checks) {
            if (c.state != CheckState::Pending)
                continue;
            c.state = CheckState::Other;
            c.cause = cause;
            c.k8sReason = k8sReason;
            c.message = QStringLiteral("not run: ") + message;
            notify(c);
        }
    };
    auto incompleteReason = [&]() {
        QStringList other, failed;
        for (const CheckRun& c : result.checks) {
            if (c.state == CheckState::Other)
                other << QStringLiteral("%1 (%2)").arg(c.name,
                                                       c.cause.isEmpty() ? QStringLiteral("other") : c.cause);
            else if (c.state == CheckState::Failed)
                failed << c.name;
        }
        QString text = QStringLiteral("incomplete (cluster fault): ") + other.join(QStringLiteral(", "));
        if (!failed.isEmpty())
            text += QStringLiteral("; failed: ") + failed.join(QStringLiteral(", "));
        return text;
    };
    // A fault before any check ran: every check is `other`, the run is incomplete.
    auto faulted = [&](const kube::ApiResponse& r, const QString& what) {
        const QString cause = apiFaultClass(r.http, r.reason, r.message);
        if (stopped() || cause == QLatin1String("cancelled") || cause.isEmpty())
            return false;
        notRun(cause, r.reason, what + QStringLiteral(": ") + r.message);
        cleanupNote = cleanup(result.leftovers);
        return true;
    };
    const QString ns = m_req.namespace_;
    const QString rid = m_req.runId;

    say(QStringLiteral("Reading the cluster (%1)").arg(m_client.server()));
    {
        // Reachable and allowed at all? A fault here is the cluster's, not the recipe's.
        const kube::ApiResponse probe = retrying([&] { return m_client.get(QStringLiteral("/version")); },
                                                 QStringLiteral("GET /version"));
        if (!probe.ok()) {
            const QString cause = apiFaultClass(probe.http, probe.reason, probe.message);
            if (!stopped() && !cause.isEmpty() && cause != QLatin1String("cancelled")) {
                notRun(cause, probe.reason, probe.message);
                return finish(RunState::Incomplete, incompleteReason());
            }
            if (stopped())
                return finish(RunState::Cancelled, QStringLiteral("cancelled"));
        }
    }
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
        return finish(RunState::ReadinessFailed,
                      QStringLiteral("readiness: ") + failedReadiness.join(QStringLiteral("; ")));

    // Namespace (kept afterwards, as aicr does), per-run RBAC and the two ConfigMaps.
    say(QStringLiteral("Preparing namespace %1 (run %2)").arg(ns, rid));
    {
        const QJsonObject nsObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                   {QStringLiteral("kind"), QStringLiteral("Namespace")},
                                   {QStringLiteral("metadata"), metadata(ns, {}, labels(rid))}};
        QElapsedTimer waited;
        waited.start();
        for (;;) {
            kube::ApiResponse r =
                retrying([&] { return m_client.create(QStringLiteral("/api/v1/namespaces"), nsObject); },
                         QStringLiteral("creating namespace ") + ns);
            if (r.ok())
                break;
            if (r.http != 409) {
                if (faulted(r, QStringLiteral("creating namespace ") + ns))
                    return finish(RunState::Incomplete, incompleteReason());
                return finish(stopped() ? RunState::Cancelled : RunState::Error, r.message);
            }
            // It exists: usable, unless it is Terminating (then nothing can be created in it
            // until it is gone; wait, then create it again).
            const kube::ApiResponse existing =
                retrying([&] { return m_client.get(QStringLiteral("/api/v1/namespaces/") + ns); },
                         QStringLiteral("reading namespace ") + ns);
            if (existing.http == 404)
                continue; // went between the two calls
            if (!existing.ok()) {
                if (faulted(existing, QStringLiteral("reading namespace ") + ns))
                    return finish(RunState::Incomplete, incompleteReason());
                return finish(stopped() ? RunState::Cancelled : RunState::Error, existing.message);
            }
            const bool terminating = !existing.object.value(QStringLiteral("metadata"))
                                          .toObject()
                                          .value(QStringLiteral("deletionTimestamp"))
                                          .toString()
                                          .isEmpty() ||
                                     existing.object.value(QStringLiteral("status"))
                                             .toObject()
                                             .value(QStringLiteral("phase"))
                                             .toString() == QLatin1String("Terminating");
            if (!terminating)
                break;
            if (waited.elapsed() > qint64(m_req.namespaceWaitSec) * 1000) {
                const QString msg = QStringLiteral("namespace %1 is still Terminating after %2 s")
                                        .arg(ns)
                                        .arg(m_req.namespaceWaitSec);
                notRun(QStringLiteral("namespace-terminating"), QStringLiteral("Terminating"), msg);
                return finish(RunState::Incomplete, incompleteReason());
            }
            if (waited.elapsed() < 100)
                say(QStringLiteral("Namespace %1 is Terminating; waiting for it to go").arg(ns));
            if (!sleepUnlessCancelled(m_req.pollMs))
                return finish(RunState::Cancelled, QStringLiteral("cancelled"));
        }
    }
    const std::vector<SetupItem> setup = runSetup(m_req, result.phasesRun, snap->toYaml());
    m_clusterAdmin = validatorRules(result.phasesRun).isEmpty();
    if (m_clusterAdmin)
        say(QStringLiteral("The performance phase may install the Kubeflow Trainer: the validators' "
                           "ServiceAccount is bound to cluster-admin for this run"));
    for (const SetupItem& item : setup) {
        kube::ApiResponse r = retrying([&] { return m_client.create(item.path, item.object); },
                                       QStringLiteral("POST ") + item.path);
        if (r.ok())
            recordCreated(item.path + QLatin1Char('/') +
                          item.object.value(QStringLiteral("metadata"))
                              .toObject()
                              .value(QStringLiteral("name"))
                              .toString());
        if (!r.ok() && r.http != 409) {
            const bool cancelled = stopped();
            if (!cancelled && faulted(r, QStringLiteral("preparing the run")))
                return finish(RunState::Incomplete, incompleteReason());
            cleanupNote = cleanup(result.leftovers);
            return finish(cancelled ? RunState::Cancelled : RunState::Error,
                          cancelled ? QStringLiteral("cancelled") : r.message);
        }
    }

    for (CheckRun& c : result.checks) {
        if (stopped())
            break;
        if (c.state != CheckState::Pending)
            continue; // marked not run after an earlier fault
        runCheck(c);
        if (c.state == CheckState::Other && stopsRun(c.cause) && !stopped())
            notRun(c.cause, c.k8sReason,
                   QStringLiteral("%1 stopped the run at %2 (%3)").arg(c.cause, c.name, c.message));
    }
    const bool cancelled = stopped();
    cleanupNote = cleanup(result.leftovers);
    if (cancelled) {
        for (CheckRun& c : result.checks)
            if (c.state == CheckState::Pending && c.message.isEmpty())
                c.message = QStringLiteral("not run: the run was cancelled");
        int done = 0;
        for (const CheckRun& c : result.checks)
            done += c.state != CheckState::Pending && c.state != CheckState::Running ? 1 : 0;
        return finish(RunState::Cancelled,
                      QStringLiteral("cancelled after %1 of %2 checks").arg(done).arg(result.checks.size()));
    }
    if (result.incomplete())
        return finish(RunState::Incomplete, incompleteReason());
    QStringList failed;
    for (const CheckRun& c : result.checks)
        if (c.state == CheckState::Failed || c.state == CheckState::Pending)
            failed << c.name;
    if (!failed.isEmpty())
        return finish(RunState::Failed, QStringLiteral("failed: ") + failed.join(QStringLiteral(", ")));
    const RunState verdict = passedOrSkipped(result.checks);
    return finish(verdict, verdict == RunState::Skipped
                               ? QStringLiteral("every check was skipped: nothing was judged")
                               : QString());
}

namespace {

// The check's environment: the run's own variables, then the validator's `env` entries.
QJsonArray checkEnv(const CheckRun& c, const catalog::ValidatorCheck* v, const QString& rid,
                    const QString& ns) {
    QJsonArray env{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_RUN_ID")}, {QStringLiteral("value"), rid}},
        QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_PHASE")},
                    {QStringLiteral("value"), c.phase}},
        QJsonObject{{QStringLiteral("name"), QStringLiteral("AICR_NAMESPACE")},
                    {QStringLiteral("value"), ns}}};
    if (v)
        if (const yaml::Node* e = v->node.get("env"); e && e->isSeq())
            for (const yaml::Node& item : e->items)
                if (item.isMap() && item.get("name"))
                    env.append(QJsonObject{{QStringLiteral("name"), item.get("name")->text()},
                                           {QStringLiteral("value"),
                                            item.get("value") ? item.get("value")->text() : QString()}});
    return env;
}

// The check's container: its image, its arguments, and the snapshot and validation input mounted.
QJsonObject checkContainer(const CheckRun& c, const catalog::ValidatorCheck* v, const QString& rid,
                           const QString& ns) {
    return QJsonObject{
        {QStringLiteral("name"), kContainer},
        {QStringLiteral("image"), c.image},
        {QStringLiteral("args"),
         QJsonArray::fromStringList(v && !v->args.isEmpty() ? v->args : QStringList{c.name})},
        {QStringLiteral("env"), checkEnv(c, v, rid, ns)},
        {QStringLiteral("terminationMessagePolicy"), QStringLiteral("FallbackToLogsOnError")},
        {QStringLiteral("volumeMounts"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("snapshot")},
                                {QStringLiteral("mountPath"), QStringLiteral("/data/snapshot")},
                                {QStringLiteral("readOnly"), true}},
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("validation")},
                                {QStringLiteral("mountPath"), QStringLiteral("/data/validation")},
                                {QStringLiteral("readOnly"), true}}}}};
}

// The check's Job: one pod, never restarted, ended by activeDeadlineSeconds at the check's timeout.
QJsonObject checkJob(const CheckRun& c, const catalog::ValidatorCheck* v, const QString& rid,
                     const QString& ns, int timeout) {
    auto volume = [&](const char* name, const QString& configMap) {
        return QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                           {QStringLiteral("configMap"), QJsonObject{{QStringLiteral("name"), configMap}}}};
    };
    const QJsonObject podSpec{{QStringLiteral("serviceAccountName"), QStringLiteral("aicr-validator-") + rid},
                              {QStringLiteral("restartPolicy"), QStringLiteral("Never")},
                              {QStringLiteral("containers"), QJsonArray{checkContainer(c, v, rid, ns)}},
                              {QStringLiteral("volumes"),
                               QJsonArray{volume("snapshot", QStringLiteral("aicr-snapshot-") + rid),
                                          volume("validation", QStringLiteral("aicr-validation-") + rid)}}};
    const QJsonObject podTemplate{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels(rid, c.name)}}},
        {QStringLiteral("spec"), podSpec}};
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
        {QStringLiteral("kind"), QStringLiteral("Job")},
        {QStringLiteral("metadata"), metadata(c.job, ns, labels(rid, c.name))},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("backoffLimit"), 0},
                                             {QStringLiteral("activeDeadlineSeconds"), timeout},
                                             {QStringLiteral("template"), podTemplate}}}};
}

// The newest pod of a list: the Job's current one (a replacement after a deletion comes later).
QJsonObject newestPod(const QJsonArray& items) {
    QJsonObject newest;
    for (const QJsonValue& item : items) {
        const QJsonObject o = item.toObject();
        if (newest.isEmpty() || o.value(QStringLiteral("metadata"))
                                        .toObject()
                                        .value(QStringLiteral("creationTimestamp"))
                                        .toString() >= newest.value(QStringLiteral("metadata"))
                                                           .toObject()
                                                           .value(QStringLiteral("creationTimestamp"))
                                                           .toString())
            newest = o;
    }
    return newest;
}

QJsonArray jobConditions(const QJsonObject& job) {
    return job.value(QStringLiteral("status")).toObject().value(QStringLiteral("conditions")).toArray();
}

QString waitingDetail(const PodView& pod) {
    return pod.waitingMessage.isEmpty() ? pod.scheduleMessage : pod.waitingMessage;
}

} // namespace

// What one check keeps while it runs: its Job, the view of its pod, the log follower and the first
// fault seen. It lives on Runner::runCheck's stack; every way out joins the follower thread.
class Runner::CheckSession {
  public:
    CheckSession(Runner& runner, CheckRun& check)
        : m_runner(runner), c(check), m_ns(runner.m_req.namespace_), m_rid(runner.m_req.runId),
          m_validator(runner.m_req.validators.find(check.name)),
          m_timeout(timeoutSeconds(m_validator ? m_validator->timeout : QString())),
          m_jobsPath(QStringLiteral("/apis/batch/v1/namespaces/%1/jobs").arg(m_ns)),
          m_podsPath(QStringLiteral("/api/v1/namespaces/%1/pods").arg(m_ns)),
          m_selector(QStringLiteral("job-name=%1").arg(check.job)) {}

    void run();

  private:
    enum class Step { Continue, Stop };

    bool cancelled() const { return m_runner.m_cancel.load(); }
    bool pastDeadline() const { return nowMs() > m_deadlineMs; }
    QString timeoutMessage() const {
        return QStringLiteral("no result within the check's timeout (%1 s) plus grace").arg(m_timeout);
    }
    void fail(CheckState state, const QString& message);
    void fault(const QString& cause, const QString& reason, const QString& message);
    void apiFault(const kube::ApiResponse& r);
    bool createJob();
    void startFollower(const QString& podName);
    void follow(const QString& podName);
    void stopFollower();
    QByteArray logSoFar();
    void consider(const QJsonObject& obj, bool deleted);
    void considerEnded(bool evicted);
    void considerWaiting();
    void lookAtJob();
    int nextPoll();
    Step waitForPod();
    Step pollOnce();
    Step watchRunning(const QString& resourceVersion);
    void settleAfterWatch();
    void checkSignalledExit();
    void finishFaulted();
    void finishCancelled();
    void finishEnded();
    QString endedWhy();

    Runner& m_runner;
    CheckRun& c;
    const QString m_ns, m_rid;
    const catalog::ValidatorCheck* m_validator;
    const int m_timeout;
    const QString m_jobsPath, m_podsPath, m_selector;
    qint64 m_deadlineMs = 0, m_createdMs = 0;

    PodView m_pod;
    std::mutex m_logMutex;
    QByteArray m_log;
    std::thread m_follower;
    std::atomic_bool m_followerDone{false};

    bool m_done = false;
    QString m_lastError;
    QString m_faultCause, m_faultReason, m_faultMessage;
    bool m_seenPod = false, m_wasDeleting = false;
    QString m_disruption, m_disruptionMessage;
    qint64 m_unschedulableSince = 0, m_pullSince = 0;
    QString m_lastWait;
    int m_pollDelay = 0;
};

void Runner::CheckSession::fail(CheckState state, const QString& message) {
    c.state = state;
    c.message = message;
    c.finished = QDateTime::currentDateTimeUtc();
    if (c.started.isValid())
        c.durationMs = c.started.msecsTo(c.finished);
    m_runner.notify(c);
}

// The first fault wins; later news of the same pod is not recorded.
void Runner::CheckSession::fault(const QString& cause, const QString& reason, const QString& message) {
    if (m_done)
        return;
    m_faultCause = cause;
    m_faultReason = reason;
    m_faultMessage = message;
    m_done = true;
}

void Runner::CheckSession::apiFault(const kube::ApiResponse& r) {
    const QString cause = apiFaultClass(r.http, r.reason, r.message);
    fault(cause.isEmpty() ? QStringLiteral("api-error") : cause, r.reason, r.message);
}

// Creates the check's Job (or adopts ours from an earlier attempt); false when the check ended here.
bool Runner::CheckSession::createJob() {
    const QJsonObject job = checkJob(c, m_validator, m_rid, m_ns, m_timeout);
    kube::Client& client = m_runner.m_client;
    kube::ApiResponse created = m_runner.retrying([&] { return client.create(m_jobsPath, job); },
                                                  QStringLiteral("%1: creating Job").arg(c.name));
    if (created.http == 409) {
        // Ours from an earlier attempt (same run id) is adopted; a conflict with nothing behind it
        // (a create that raced a delete) is retried once.
        const kube::ApiResponse existing = client.get(m_jobsPath + QLatin1Char('/') + c.job);
        if (existing.ok() && existing.object.value(QStringLiteral("metadata"))
                                     .toObject()
                                     .value(QStringLiteral("labels"))
                                     .toObject()
                                     .value(kRunLabel)
                                     .toString() == m_rid)
            created = existing;
        else if (existing.http == 404)
            created = client.create(m_jobsPath, job);
    }
    if (created.ok())
        return true;
    if (cancelled()) {
        fail(CheckState::Pending, created.message);
        return false;
    }
    // The check never ran: whatever refused its Job (RBAC, admission, quota, an API that is
    // gone) is the cluster's answer, not the check's verdict.
    c.cause = apiFaultClass(created.http, created.reason, created.message);
    if (c.cause.isEmpty())
        c.cause = QStringLiteral("job-refused");
    c.k8sReason = created.reason;
    fail(CheckState::Other, created.message);
    return false;
}

void Runner::CheckSession::startFollower(const QString& podName) {
    if (m_follower.joinable())
        return;
    m_follower = std::thread([this, podName] { follow(podName); });
}

// The follower thread: streams the container's log into m_log until it ends.
void Runner::CheckSession::follow(const QString& podName) {
    for (int attempt = 0; attempt < 600 && !cancelled(); ++attempt) {
        kube::ApiResponse r =
            m_runner.m_client.logs(m_ns, podName, kContainer, true, [&](QByteArrayView chunk) {
                {
                    std::lock_guard lock(m_logMutex);
                    appendBounded(m_log, chunk);
                }
                if (m_runner.m_obs.log)
                    m_runner.m_obs.log(c.name, chunk.toByteArray());
                return !cancelled();
            });
        // Only 400 "waiting to start" (the container has not started yet) is worth another
        // try; anything else (done, gone, no answer, 401/403) ends the follow.
        if (r.http != 400)
            break;
        QThread::msleep(200);
    }
    m_followerDone = true;
}

// A log stream the fault (or a pod past its deadline) left open is ended: after 2 s the client's
// calls in flight (only the follower's) are cancelled.
void Runner::CheckSession::stopFollower() {
    for (int i = 0; i < 40 && m_follower.joinable() && !m_followerDone; ++i)
        QThread::msleep(50);
    if (m_follower.joinable()) {
        const bool forced = !m_followerDone;
        if (forced)
            m_runner.m_client.cancel();
        m_follower.join();
        if (forced && !cancelled())
            m_runner.m_client.resetCancel();
    }
}

QByteArray Runner::CheckSession::logSoFar() {
    std::lock_guard lock(m_logMutex);
    return m_log;
}

// One view of the pod (listed, or from the watch): records the first fault it shows, or the end.
void Runner::CheckSession::consider(const QJsonObject& obj, bool deleted) {
    if (m_done)
        return;
    m_pod = podView(obj);
    c.pod = m_pod.name;
    m_seenPod = true;
    m_wasDeleting = m_wasDeleting || m_pod.deleting;
    if (!m_pod.disruption.isEmpty())
        m_disruption = m_pod.disruption, m_disruptionMessage = m_pod.disruptionMessage;
    const bool evicted =
        m_pod.statusReason == QLatin1String("Evicted") || m_disruption.startsWith(QLatin1String("Eviction"));
    if (deleted && !m_pod.terminated) {
        const QString why = !m_disruptionMessage.isEmpty() ? m_disruptionMessage : m_pod.statusMessage;
        fault(evicted ? QStringLiteral("evicted") : QStringLiteral("pod-deleted"),
              !m_disruption.isEmpty()        ? m_disruption
              : m_pod.statusReason.isEmpty() ? QStringLiteral("Deleted")
                                             : m_pod.statusReason,
              QStringLiteral("pod %1 was %2 before the check finished%3")
                  .arg(m_pod.name, evicted ? QStringLiteral("evicted") : QStringLiteral("deleted"),
                       why.isEmpty() ? QString() : QStringLiteral(": ") + why));
        return;
    }
    if (m_pod.running || m_pod.terminated)
        startFollower(m_pod.name);
    if (m_pod.terminated)
        considerEnded(evicted);
    else
        considerWaiting();
}

// The container ended: by itself, or stopped from outside (eviction, deletion, the node).
void Runner::CheckSession::considerEnded(bool evicted) {
    const PodView& pod = m_pod;
    if (evicted)
        fault(QStringLiteral("evicted"), m_disruption.isEmpty() ? pod.statusReason : m_disruption,
              QStringLiteral("pod %1 was evicted: %2")
                  .arg(pod.name, m_disruptionMessage.isEmpty() ? pod.statusMessage : m_disruptionMessage));
    else if ((m_wasDeleting || !m_disruption.isEmpty()) && pod.exitCode != 0)
        fault(QStringLiteral("pod-deleted"),
              m_disruption.isEmpty() ? QStringLiteral("Deleted") : m_disruption,
              QStringLiteral("pod %1 was stopped by its deletion (exit %2)").arg(pod.name).arg(pod.exitCode));
    else if (pod.exitCode < 0 && !pod.statusReason.isEmpty())
        // Failed by the node before the container ran (NodeLost, Shutdown, UnexpectedAdmissionError).
        fault(QStringLiteral("pod-failed"), pod.statusReason,
              QStringLiteral("pod %1: %2").arg(pod.name, pod.statusMessage));
    else
        m_done = true;
}

// Not ended yet: a wait that never clears, an image pull or a scheduling that takes too long, or
// a pod that did not start within the pending limit.
void Runner::CheckSession::considerWaiting() {
    const PodView& pod = m_pod;
    const RunRequest& req = m_runner.m_req;
    const qint64 now = nowMs();
    const QString wait = pod.waitingReason.isEmpty()
                             ? (pod.unschedulable ? QStringLiteral("Unschedulable") : QString())
                             : pod.waitingReason;
    if (!wait.isEmpty() && wait != m_lastWait)
        m_runner.say(QStringLiteral("%1: pod %2 is waiting: %3%4")
                         .arg(c.name, pod.name, wait,
                              pod.waitingMessage.isEmpty() && pod.scheduleMessage.isEmpty()
                                  ? QString()
                                  : QStringLiteral(" (%1)").arg(waitingDetail(pod))));
    m_lastWait = wait;
    if (hopelessWait(pod.waitingReason)) {
        fault(QStringLiteral("image-pull"), pod.waitingReason,
              QStringLiteral("pod %1 cannot start: %2%3")
                  .arg(pod.name, pod.waitingReason,
                       pod.waitingMessage.isEmpty() ? QString() : QStringLiteral(": ") + pod.waitingMessage));
        return;
    }
    m_pullSince = pullWait(pod.waitingReason) ? (m_pullSince ? m_pullSince : now) : 0;
    if (m_pullSince && now - m_pullSince >= qint64(req.imagePullSec) * 1000) {
        fault(QStringLiteral("image-pull"), pod.waitingReason,
              QStringLiteral("pod %1 could not pull %2 for %3 s: %4")
                  .arg(pod.name, c.image)
                  .arg((now - m_pullSince) / 1000)
                  .arg(pod.waitingMessage));
        return;
    }
    m_unschedulableSince = pod.unschedulable ? (m_unschedulableSince ? m_unschedulableSince : now) : 0;
    if (m_unschedulableSince && now - m_unschedulableSince >= qint64(req.unschedulableSec) * 1000) {
        fault(QStringLiteral("unschedulable"), QStringLiteral("Unschedulable"),
              QStringLiteral("pod %1 could not be scheduled for %2 s: %3")
                  .arg(pod.name)
                  .arg((now - m_unschedulableSince) / 1000)
                  .arg(pod.scheduleMessage));
        return;
    }
    if (!pod.running && now - m_createdMs >= qint64(req.pendingTimeoutSec) * 1000)
        fault(QStringLiteral("pending-deadline"), wait.isEmpty() ? QStringLiteral("Pending") : wait,
              QStringLiteral("pod %1 did not start within %2 s%3")
                  .arg(pod.name)
                  .arg(req.pendingTimeoutSec)
                  .arg(pod.waitingMessage.isEmpty() && pod.scheduleMessage.isEmpty()
                           ? QString()
                           : QStringLiteral(": ") + waitingDetail(pod)));
}

// The Job's own view, while its pod has not started: gone, or failed without a pod that ran
// (activeDeadlineSeconds while Pending, a pod the admission refused).
void Runner::CheckSession::lookAtJob() {
    const kube::ApiResponse j =
        m_runner.retrying([&] { return m_runner.m_client.get(m_jobsPath + QLatin1Char('/') + c.job); },
                          c.name + QStringLiteral(": reading Job"));
    if (j.http == 404) {
        fault(QStringLiteral("job-deleted"), QStringLiteral("NotFound"),
              QStringLiteral("Job %1 was deleted before the check finished").arg(c.job));
        return;
    }
    if (!j.ok()) {
        if (!cancelled())
            apiFault(j);
        return;
    }
    for (const QJsonValue& cond : jobConditions(j.object)) {
        const QJsonObject o = cond.toObject();
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("Failed") &&
            o.value(QStringLiteral("status")).toString() != QLatin1String("False")) {
            const QString reason = o.value(QStringLiteral("reason")).toString();
            fault(reason == QLatin1String("DeadlineExceeded") ? QStringLiteral("pending-deadline")
                                                              : QStringLiteral("job-failed"),
                  reason,
                  QStringLiteral("Job %1 failed before its pod ran: %2")
                      .arg(c.job, o.value(QStringLiteral("message")).toString()));
        }
    }
}

// A pod usually starts within a moment: look soon, then less often, up to pollMs.
int Runner::CheckSession::nextPoll() {
    const int d = m_pollDelay;
    m_pollDelay = std::min(m_pollDelay * 2, std::max(1, m_runner.m_req.pollMs));
    return d;
}

// No pod yet, or one that has not started: its only news may be a limit running out, so look again soon.
Runner::CheckSession::Step Runner::CheckSession::waitForPod() {
    lookAtJob();
    if (!m_done && !m_runner.sleepUnlessCancelled(nextPoll()))
        return Step::Stop;
    return Step::Continue;
}

// One round: list the Job's pods, look at the newest, and follow it while it runs.
Runner::CheckSession::Step Runner::CheckSession::pollOnce() {
    if (pastDeadline()) {
        m_lastError = timeoutMessage();
        return Step::Stop;
    }
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("labelSelector"), m_selector);
    const kube::ApiResponse list = m_runner.retrying([&] { return m_runner.m_client.get(m_podsPath, q); },
                                                     c.name + QStringLiteral(": listing pods"));
    if (cancelled())
        return Step::Stop;
    if (!list.ok()) {
        apiFault(list);
        return Step::Stop;
    }
    const QJsonArray items = list.object.value(QStringLiteral("items")).toArray();
    if (items.isEmpty()) {
        if (m_seenPod && !m_pod.terminated) {
            fault(QStringLiteral("pod-deleted"), QStringLiteral("NotFound"),
                  QStringLiteral("pod %1 disappeared (deleted or evicted) before the check finished")
                      .arg(m_pod.name));
            return Step::Stop;
        }
        return waitForPod();
    }
    const QJsonObject newest = newestPod(items);
    if (m_seenPod && !m_pod.name.isEmpty() && m_pod.name != podView(newest).name && !m_pod.terminated) {
        fault(QStringLiteral("pod-deleted"), QStringLiteral("Replaced"),
              QStringLiteral("pod %1 went away before the check finished (replaced by %2)")
                  .arg(m_pod.name, podView(newest).name));
        return Step::Stop;
    }
    consider(newest, false);
    if (m_done)
        return Step::Stop;
    if (!m_pod.running)
        return waitForPod();
    return watchRunning(list.object.value(QStringLiteral("metadata"))
                            .toObject()
                            .value(QStringLiteral("resourceVersion"))
                            .toString());
}

// Running: follow the events until it ends, is deleted, or the watch expires.
Runner::CheckSession::Step Runner::CheckSession::watchRunning(const QString& resourceVersion) {
    kube::WatchOptions w;
    w.labelSelector = m_selector;
    w.resourceVersion = resourceVersion;
    w.timeoutSeconds = 60;
    const kube::ApiResponse end = m_runner.m_client.watch(m_podsPath, w, [&](const kube::WatchEvent& e) {
        if (e.type == QLatin1String("ADDED") || e.type == QLatin1String("MODIFIED"))
            consider(e.object, false);
        else if (e.type == QLatin1String("DELETED"))
            consider(e.object, true);
        // BOOKMARK: nothing changed, but the clock is looked at.
        if (!m_done && pastDeadline()) {
            m_lastError = timeoutMessage();
            return false;
        }
        return !m_done && !cancelled();
    });
    if (m_done || cancelled() || pastDeadline())
        return Step::Stop;
    if (end.reason == QLatin1String("Gone")) {
        m_runner.say(QStringLiteral("%1: the watch expired (410 Gone); listing again").arg(c.name));
        return Step::Continue;
    }
    if (!end.ok() && !transientFault(end.http)) {
        apiFault(end);
        return Step::Stop;
    }
    // A dropped stream: list again (retried with backoff) and go on.
    return Step::Continue;
}

// After the watching: a pod still waiting at the deadline, or one killed by a signal.
void Runner::CheckSession::settleAfterWatch() {
    if (!m_done && !cancelled() && !m_pod.terminated && !m_pod.running && m_seenPod) {
        // The deadline came while the pod was still waiting: not the check's doing.
        fault(QStringLiteral("pending-deadline"),
              m_lastWait.isEmpty() ? QStringLiteral("Pending") : m_lastWait,
              QStringLiteral("pod %1 did not start before the check's deadline").arg(m_pod.name));
    }
    if (m_pod.terminated && m_faultCause.isEmpty() && !cancelled() &&
        (m_pod.exitCode == 137 || m_pod.exitCode == 143))
        checkSignalledExit();
}

// Killed by a signal: by the check's own doing (OOM), or by a deletion or eviction whose mark may
// reach us after the exit. The pod as it is now says which.
void Runner::CheckSession::checkSignalledExit() {
    const PodView& pod = m_pod;
    const kube::ApiResponse now = m_runner.m_client.get(m_podsPath + QLatin1Char('/') + pod.name);
    m_done = false; // fault() below records only while not done
    if (now.http == 404) {
        fault(QStringLiteral("pod-deleted"), QStringLiteral("NotFound"),
              QStringLiteral("pod %1 was deleted before the check finished (exit %2)")
                  .arg(pod.name)
                  .arg(pod.exitCode));
    } else if (now.ok()) {
        const PodView current = podView(now.object);
        if (!current.disruption.isEmpty())
            m_disruption = current.disruption, m_disruptionMessage = current.disruptionMessage;
        const bool evicted = m_disruption.startsWith(QLatin1String("Eviction"));
        if (current.deleting || !current.disruption.isEmpty())
            fault(evicted ? QStringLiteral("evicted") : QStringLiteral("pod-deleted"),
                  m_disruption.isEmpty() ? QStringLiteral("Deleted") : m_disruption,
                  QStringLiteral("pod %1 was %2 before the check finished (exit %3)%4")
                      .arg(pod.name, evicted ? QStringLiteral("evicted") : QStringLiteral("deleted"))
                      .arg(pod.exitCode)
                      .arg(m_disruptionMessage.isEmpty() ? QString()
                                                         : QStringLiteral(": ") + m_disruptionMessage));
    }
    m_done = true;
}

void Runner::CheckSession::finishFaulted() {
    stopFollower();
    readContainerLog(c, logSoFar());
    c.cause = m_faultCause;
    c.k8sReason = m_faultReason;
    m_runner.say(QStringLiteral("%1: other (%2): %3").arg(c.name, m_faultCause, m_faultMessage));
    fail(CheckState::Other, m_faultMessage);
}

void Runner::CheckSession::finishCancelled() {
    m_runner.m_client.cancel();
    if (m_follower.joinable())
        m_follower.join();
    readContainerLog(c, logSoFar());
    c.cause = QStringLiteral("cancelled");
    fail(CheckState::Other, QStringLiteral("cancelled"));
}

// Why an ended container failed: its termination message, else the Job's Failed condition
// (DeadlineExceeded, BackoffLimitExceeded), else the container's reason.
QString Runner::CheckSession::endedWhy() {
    QString why = m_pod.message.trimmed();
    if (m_pod.exitCode == 0 || !why.isEmpty())
        return why;
    const kube::ApiResponse j = m_runner.m_client.get(m_jobsPath + QLatin1Char('/') + c.job);
    for (const QJsonValue& cond : jobConditions(j.object)) {
        const QJsonObject o = cond.toObject();
        if (o.value(QStringLiteral("type")).toString() == QLatin1String("Failed"))
            why = QStringLiteral("%1: %2").arg(o.value(QStringLiteral("reason")).toString(),
                                               o.value(QStringLiteral("message")).toString());
    }
    return why.isEmpty() ? m_pod.reason : why;
}

// No fault and no cancel: the container's log, its exit code as the verdict, then the score.
void Runner::CheckSession::finishEnded() {
    if (!m_pod.terminated)
        stopFollower();
    if (m_follower.joinable())
        m_follower.join();
    QByteArray raw = logSoFar();
    if (raw.isEmpty() && !m_pod.name.isEmpty()) {
        // The stream may have missed a container that finished at once: read it whole.
        m_runner.m_client.logs(m_ns, m_pod.name, kContainer, false, [&](QByteArrayView chunk) {
            appendBounded(raw, chunk);
            return true;
        });
    }
    readContainerLog(c, raw);
    c.exitCode = m_pod.exitCode;
    c.finished = QDateTime::currentDateTimeUtc();
    c.durationMs = c.started.msecsTo(c.finished);
    const RunRequest& req = m_runner.m_req;
    if (!m_pod.terminated) {
        c.state = CheckState::Failed;
        c.message = m_lastError.isEmpty() ? QStringLiteral("the check's pod never finished") : m_lastError;
        scoreCheck(c, req.recipe);
        m_runner.notify(c);
        return;
    }
    const QString why = endedWhy();
    switch (m_pod.exitCode) {
    case 0:
        c.state = CheckState::Passed;
        break;
    case 1:
        c.state = CheckState::Failed;
        break;
    case 2:
        c.state = CheckState::Skipped;
        break;
    default:
        c.state = m_pod.phase == QLatin1String("Succeeded") ? CheckState::Passed : CheckState::Failed;
        break;
    }
    c.message = why;
    scoreCheck(c, req.recipe);
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
        c.message = QStringLiteral("exit code %1").arg(m_pod.exitCode);
    m_runner.notify(c);
}

void Runner::CheckSession::run() {
    c.started = QDateTime::currentDateTimeUtc();
    c.state = CheckState::Running;
    m_runner.notify(c);
    m_runner.say(QStringLiteral("%1: creating Job %2").arg(c.name, c.job));
    if (!createJob())
        return;
    m_runner.recordCreated(m_jobsPath + QLatin1Char('/') + c.job);
    const RunRequest& req = m_runner.m_req;
    m_deadlineMs =
        QDateTime::currentMSecsSinceEpoch() + qint64(m_timeout + req.graceSec + req.pendingTimeoutSec) * 1000;
    m_createdMs = nowMs();
    m_pollDelay = std::min(50, std::max(1, req.pollMs));
    while (!m_done && !cancelled() && pollOnce() == Step::Continue) {
    }
    settleAfterWatch();
    if (!m_faultCause.isEmpty() && !cancelled())
        finishFaulted();
    else if (cancelled())
        finishCancelled();
    else
        finishEnded();
}

void Runner::runCheck(CheckRun& c) {
    CheckSession(*this, c).run();
}

std::vector<RunResult::Leftover> deleteLeftovers(kube::Client& client, const QStringList& paths, int limitSec,
                                                 const std::function<bool()>& cancelled) {
    QStringList todo = paths;
    QMap<QString, QString> errors;
    QElapsedTimer clock;
    clock.start();
    int delay = 100;
    while (!todo.isEmpty()) {
        QStringList again;
        bool retryable = false;
        for (qsizetype i = 0; i < todo.size(); ++i) {
            const QString& path = todo[i];
            const kube::ApiResponse r = client.remove(path, kube::Propagation::Background);
            if (r.ok() || r.http == 404) {
                errors.remove(path);
                continue;
            }
            errors[path] = r.message;
            again << path;
            if (r.http == 0 && clock.elapsed() >= qint64(limitSec) * 1000) {
                // A server that does not answer, past the limit: the rest are not tried one
                // connect timeout each; they are left with the same reason.
                for (qsizetype j = i + 1; j < todo.size(); ++j) {
                    errors[todo[j]] = QStringLiteral("not tried: ") + r.message;
                    again << todo[j];
                }
                break;
            }
            // 401 has had its credential refresh inside the client; 403 will not change by waiting.
            retryable = retryable || transientFault(r.http) || r.http == 409;
        }
        todo = again;
        if (todo.isEmpty() || !retryable || clock.elapsed() >= qint64(limitSec) * 1000 ||
            (cancelled && cancelled()))
            break;
        QThread::msleep(
            std::min<qint64>(delay, std::max<qint64>(1, qint64(limitSec) * 1000 - clock.elapsed())));
        delay = std::min(delay * 2, 5000);
    }
    std::vector<RunResult::Leftover> left;
    for (const QString& path : std::as_const(todo))
        left.push_back({path, errors.value(path)});
    return left;
}

void Runner::recordCreated(const QString& path) {
    m_created << path;
    if (m_obs.created)
        m_obs.created(path);
}

QString Runner::cleanup(std::vector<RunResult::Leftover>& left) {
    left.clear();
    const QString rid = m_req.runId;
    // Newest first: the Jobs (their pods go with them), then the binding before its role.
    QStringList paths;
    for (auto it = m_created.crbegin(); it != m_created.crend(); ++it)
        paths << *it;
    if (!m_req.cleanup) {
        if (paths.isEmpty())
            return {};
        for (const QString& p : std::as_const(paths))
            left.push_back({p, QStringLiteral("kept on the cluster as asked (--no-cleanup)")});
        const bool admin = m_clusterAdmin && std::any_of(paths.cbegin(), paths.cend(), [](const QString& p) {
                               return p.contains(QLatin1String("/clusterrolebindings/"));
                           });
        const QString text =
            QStringLiteral("kept %1 on the cluster as asked (--no-cleanup)%2; `proofbench runs "
                           "cleanup %3` deletes them")
                .arg(counted(paths.size(), QStringLiteral("object"), QStringLiteral("objects")))
                .arg(admin ? QStringLiteral(", among them a cluster-admin ClusterRoleBinding") : QString(),
                     rid);
        say(text);
        return text;
    }
    m_cleaning = true;
    m_client.resetCancel();
    say(QStringLiteral("Cleaning up run %1").arg(rid));
    left = deleteLeftovers(m_client, paths, m_req.cleanupSec);
    m_cleaning = false;
    if (left.empty())
        return {};
    QStringList names;
    for (const RunResult::Leftover& l : left)
        names << l.path.section(QLatin1Char('/'), -2);
    const QString text =
        QStringLiteral("cleanup: %1 left on the cluster (%2): %3; `proofbench "
                       "runs cleanup` deletes them later")
            .arg(counted(qint64(left.size()), QStringLiteral("object"), QStringLiteral("objects")))
            .arg(names.join(QStringLiteral(", ")), left.front().error);
    say(text);
    return text;
}

} // namespace pb::validation
