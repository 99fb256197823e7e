#include "Controller.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTimeZone>
#include <QUuid>

#include <functional>

namespace kts {
namespace {

using Clock = std::chrono::steady_clock;

qint64 msSince(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

QString nanoTimestamp() {
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz000000Z"));
}

bool readCheck(const QJsonObject& in, const QDir& base, const QString& where, CheckScript& out,
               QString* error) {
    out.exitCode = in.value(QLatin1String("exitCode")).toInt(out.exitCode);
    out.runMs = in.value(QLatin1String("runMs")).toInt(out.runMs);
    out.pendingMs = in.value(QLatin1String("pendingMs")).toInt(out.pendingMs);
    out.neverFinish = in.value(QLatin1String("neverFinish")).toBool(out.neverFinish);
    out.terminationMessage = in.value(QLatin1String("terminationMessage")).toString(out.terminationMessage);
    out.podFault = in.value(QLatin1String("podFault")).toString(out.podFault);
    out.faultAfterMs = in.value(QLatin1String("faultAfterMs")).toInt(out.faultAfterMs);
    out.serverFault = in.value(QLatin1String("serverFault")).toString(out.serverFault);
    static const QStringList podFaults{QString(),
                                       QStringLiteral("Pending"),
                                       QStringLiteral("Unschedulable"),
                                       QStringLiteral("ErrImagePull"),
                                       QStringLiteral("Deleted"),
                                       QStringLiteral("Evicted")};
    static const QStringList serverFaults{QString(), QStringLiteral("exit"), QStringLiteral("revokeTokens"),
                                          QStringLiteral("compact")};
    if (!podFaults.contains(out.podFault)) {
        *error = QStringLiteral("%1.podFault: unknown value \"%2\" (one of Pending, Unschedulable, "
                                "ErrImagePull, Deleted, Evicted)")
                     .arg(where, out.podFault);
        return false;
    }
    if (!serverFaults.contains(out.serverFault)) {
        *error = QStringLiteral("%1.serverFault: unknown value \"%2\" (one of exit, revokeTokens, compact)")
                     .arg(where, out.serverFault);
        return false;
    }
    if (out.faultAfterMs < 0 || out.runMs < 0 || out.pendingMs < 0) {
        *error = QStringLiteral("%1: runMs, pendingMs and faultAfterMs must not be negative").arg(where);
        return false;
    }
    if (in.contains(QLatin1String("log")))
        out.log = in.value(QLatin1String("log")).toString().toUtf8();
    const QString logFile = in.value(QLatin1String("logFile")).toString();
    if (!logFile.isEmpty()) {
        QFile f(base.absoluteFilePath(logFile));
        if (!f.open(QIODevice::ReadOnly)) {
            *error =
                QStringLiteral("%1.logFile: cannot read %2: %3").arg(where, f.fileName(), f.errorString());
            return false;
        }
        out.log = f.readAll();
    }
    return true;
}

QJsonObject nodeObject(const QString& name, QJsonObject labels, int gpus, const QString& osImage,
                       const QString& kernel, const QString& runtime, const QString& kubelet,
                       const QJsonArray& taints, int index) {
    labels.insert(QStringLiteral("kubernetes.io/hostname"), name);
    labels.insert(QStringLiteral("kubernetes.io/os"), QStringLiteral("linux"));
    labels.insert(QStringLiteral("kubernetes.io/arch"), QStringLiteral("amd64"));
    QJsonObject capacity{
        {QStringLiteral("cpu"), gpus > 0 ? QStringLiteral("192") : QStringLiteral("16")},
        {QStringLiteral("memory"), gpus > 0 ? QStringLiteral("2097152000Ki") : QStringLiteral("65023012Ki")},
        {QStringLiteral("pods"), QStringLiteral("110")},
        {QStringLiteral("ephemeral-storage"), QStringLiteral("1048576000Ki")}};
    if (gpus > 0)
        capacity.insert(QStringLiteral("nvidia.com/gpu"), QString::number(gpus));
    const QString now = nowTimestamp();
    QJsonObject spec;
    if (!taints.isEmpty())
        spec.insert(QStringLiteral("taints"), taints);
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("Node")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
        {QStringLiteral("spec"), spec},
        {QStringLiteral("status"),
         QJsonObject{
             {QStringLiteral("capacity"), capacity},
             {QStringLiteral("allocatable"), capacity},
             {QStringLiteral("conditions"),
              QJsonArray{
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("Ready")},
                              {QStringLiteral("status"), QStringLiteral("True")},
                              {QStringLiteral("reason"), QStringLiteral("KubeletReady")},
                              {QStringLiteral("message"), QStringLiteral("kubelet is posting ready status")},
                              {QStringLiteral("lastHeartbeatTime"), now},
                              {QStringLiteral("lastTransitionTime"), now}}}},
             {QStringLiteral("addresses"),
              QJsonArray{
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("InternalIP")},
                              {QStringLiteral("address"), QStringLiteral("10.0.0.%1").arg(10 + index)}},
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("Hostname")},
                              {QStringLiteral("address"), name}}}},
             {QStringLiteral("nodeInfo"),
              QJsonObject{{QStringLiteral("osImage"), osImage},
                          {QStringLiteral("kernelVersion"), kernel},
                          {QStringLiteral("containerRuntimeVersion"), runtime},
                          {QStringLiteral("kubeletVersion"), kubelet},
                          {QStringLiteral("kubeProxyVersion"), kubelet},
                          {QStringLiteral("operatingSystem"), QStringLiteral("linux")},
                          {QStringLiteral("architecture"), QStringLiteral("amd64")},
                          {QStringLiteral("machineID"), QUuid::createUuid().toString(QUuid::Id128)},
                          {QStringLiteral("systemUUID"), QUuid::createUuid().toString(QUuid::WithoutBraces)},
                          {QStringLiteral("bootID"), QUuid::createUuid().toString(QUuid::WithoutBraces)}}}}}};
}

QJsonObject condition(const QString& type, const QString& reason, const QString& message) {
    const QString now = nowTimestamp();
    QJsonObject c{{QStringLiteral("type"), type},
                  {QStringLiteral("status"), QStringLiteral("True")},
                  {QStringLiteral("lastProbeTime"), now},
                  {QStringLiteral("lastTransitionTime"), now}};
    if (!reason.isEmpty())
        c.insert(QStringLiteral("reason"), reason);
    if (!message.isEmpty())
        c.insert(QStringLiteral("message"), message);
    return c;
}

// A pod the scheduler cannot place: Pending, PodScheduled=False reason Unschedulable.
QJsonObject unschedulableStatus() {
    QJsonObject c = condition(
        QStringLiteral("PodScheduled"), QStringLiteral("Unschedulable"),
        QStringLiteral("0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are "
                       "available: 3 No preemption victims found for incoming pod."));
    c.insert(QStringLiteral("status"), QStringLiteral("False"));
    c.insert(QStringLiteral("lastProbeTime"), QJsonValue::Null);
    return QJsonObject{{QStringLiteral("phase"), QStringLiteral("Pending")},
                       {QStringLiteral("qosClass"), QStringLiteral("BestEffort")},
                       {QStringLiteral("conditions"), QJsonArray{c}}};
}

} // namespace

QJsonObject defaultServerVersion() {
    return QJsonObject{
        {QStringLiteral("major"), QStringLiteral("1")},
        {QStringLiteral("minor"), QStringLiteral("33")},
        {QStringLiteral("gitVersion"), QStringLiteral("v1.33.0")},
        {QStringLiteral("gitCommit"), QStringLiteral("60a317eadfcb839692a5551a6a8f8dfbb4a4b3e0")},
        {QStringLiteral("gitTreeState"), QStringLiteral("clean")},
        {QStringLiteral("buildDate"), QStringLiteral("2025-04-23T13:07:00Z")},
        {QStringLiteral("goVersion"), QStringLiteral("go1.24.2")},
        {QStringLiteral("compiler"), QStringLiteral("gc")},
        {QStringLiteral("platform"), QStringLiteral("linux/amd64")}};
}

namespace {

// The script's rbac section: the user, and the token, allow and deny lists ("VERB RESOURCE" rules).
bool readRbac(const QJsonObject& rbac, const QString& path, Script& script, QString* error) {
    script.rbac.enabled = true;
    script.rbac.user = rbac.value(QLatin1String("user")).toString(script.rbac.user);
    auto strings = [&](const char* key, QStringList& out) {
        if (!rbac.contains(QLatin1String(key)))
            return true;
        out.clear();
        for (const QJsonValue& v : rbac.value(QLatin1String(key)).toArray()) {
            const QString rule = v.toString().simplified();
            if (QLatin1String(key) != QLatin1String("tokens") && rule.split(QLatin1Char(' ')).size() != 2) {
                *error = QStringLiteral("%1: rbac.%2: \"%3\" is not \"VERB RESOURCE\"")
                             .arg(path, QLatin1String(key), v.toString());
                return false;
            }
            out << rule;
        }
        return true;
    };
    return strings("tokens", script.rbac.tokens) && strings("allow", script.rbac.allow) &&
           strings("deny", script.rbac.deny);
}

// The script's admission rules: resource, CREATE or DELETE, and a 4xx/5xx answer.
bool readAdmission(const QJsonArray& admission, const QString& path, Script& script, QString* error) {
    for (qsizetype i = 0; i < admission.size(); ++i) {
        const QJsonObject a = admission.at(i).toObject();
        AdmissionRule rule;
        rule.webhook = a.value(QLatin1String("webhook")).toString(rule.webhook);
        rule.operation = a.value(QLatin1String("operation")).toString(rule.operation);
        rule.resource = a.value(QLatin1String("resource")).toString();
        rule.namePrefix = a.value(QLatin1String("namePrefix")).toString();
        rule.message = a.value(QLatin1String("message")).toString(rule.message);
        rule.code = a.value(QLatin1String("code")).toInt(rule.code);
        rule.reason = a.value(QLatin1String("reason")).toString();
        if (rule.resource.isEmpty() ||
            (rule.operation != QLatin1String("CREATE") && rule.operation != QLatin1String("DELETE")) ||
            rule.code < 400 || rule.code > 599) {
            *error = QStringLiteral(
                         "%1: admission[%2]: needs resource, operation CREATE or DELETE, and a 4xx/5xx code")
                         .arg(path)
                         .arg(i);
            return false;
        }
        script.admission << rule;
    }
    return true;
}

} // namespace

std::optional<Script> loadScript(const QString& path, QString* error) {
    Script script;
    script.serverVersion = defaultServerVersion();
    script.defaultCheck.log = "RESULT: ok\n";
    script.defaultCheck.runMs = 100;
    if (path.isEmpty())
        return script;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: not a JSON object: %2 at offset %3")
                     .arg(path, parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    const QDir base = QFileInfo(path).absoluteDir();
    if (root.contains(QLatin1String("serverVersion"))) {
        const QJsonObject v = root.value(QLatin1String("serverVersion")).toObject();
        for (auto it = v.begin(); it != v.end(); ++it)
            script.serverVersion.insert(it.key(), it.value());
    }
    if (root.contains(QLatin1String("nodes"))) {
        script.nodes = root.value(QLatin1String("nodes")).toArray();
        script.nodesGiven = true;
        for (qsizetype i = 0; i < script.nodes.size(); ++i)
            if (script.nodes.at(i).toObject().value(QLatin1String("name")).toString().isEmpty()) {
                *error = QStringLiteral("%1: nodes[%2].name: required").arg(path).arg(i);
                return std::nullopt;
            }
    }
    const QJsonObject checks = root.value(QLatin1String("checks")).toObject();
    for (auto it = checks.begin(); it != checks.end(); ++it) {
        CheckScript check;
        if (!readCheck(it.value().toObject(), base, QStringLiteral("%1: checks.%2").arg(path, it.key()),
                       check, error))
            return std::nullopt;
        script.checks.insert(it.key(), check);
    }
    if (root.contains(QLatin1String("defaultCheck"))) {
        CheckScript check;
        check.runMs = 100;
        if (!readCheck(root.value(QLatin1String("defaultCheck")).toObject(), base,
                       QStringLiteral("%1: defaultCheck").arg(path), check, error))
            return std::nullopt;
        script.defaultCheck = check;
    }
    const QJsonObject faults = root.value(QLatin1String("faults")).toObject();
    script.faults.dropWatchAfterEvents = faults.value(QLatin1String("dropWatchAfterEvents")).toInt();
    script.faults.tokenMaxUses = faults.value(QLatin1String("tokenMaxUses")).toInt();
    script.faults.slowMs = faults.value(QLatin1String("slowMs")).toInt();
    for (const QJsonValue& v : faults.value(QLatin1String("conflictOnCreate")).toArray())
        script.faults.conflictOnCreate << v.toString();
    script.historyLimit = root.value(QLatin1String("historyLimit")).toInt(script.historyLimit);
    script.deletionGraceMs = root.value(QLatin1String("deletionGraceMs")).toInt(script.deletionGraceMs);
    script.bookmarkMs = faults.value(QLatin1String("bookmarkMs")).toInt(script.bookmarkMs);
    script.exitAfterMs = faults.value(QLatin1String("exitAfterMs")).toInt(script.exitAfterMs);
    if (script.deletionGraceMs < 0 || script.bookmarkMs < 10 || script.exitAfterMs < 0) {
        *error = QStringLiteral("%1: deletionGraceMs and faults.exitAfterMs must not be negative, "
                                "faults.bookmarkMs at least 10")
                     .arg(path);
        return std::nullopt;
    }
    if (root.contains(QLatin1String("rbac")) &&
        !readRbac(root.value(QLatin1String("rbac")).toObject(), path, script, error))
        return std::nullopt;
    if (!readAdmission(root.value(QLatin1String("admission")).toArray(), path, script, error))
        return std::nullopt;
    if (script.historyLimit < 1) {
        *error = QStringLiteral("%1: historyLimit: must be at least 1").arg(path);
        return std::nullopt;
    }
    return script;
}

QList<QJsonObject> nodeObjects(const Script& script) {
    QList<QJsonObject> out;
    if (!script.nodesGiven) {
        const QJsonObject gpuLabels{
            {QStringLiteral("nvidia.com/gpu.present"), QStringLiteral("true")},
            {QStringLiteral("nvidia.com/gpu.product"), QStringLiteral("NVIDIA-H100-80GB-HBM3")},
            {QStringLiteral("nvidia.com/gpu.count"), QStringLiteral("8")},
            {QStringLiteral("nvidia.com/gpu.memory"), QStringLiteral("81559")},
            {QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("p5.48xlarge")},
            {QStringLiteral("topology.kubernetes.io/zone"), QStringLiteral("us-east-1a")}};
        const QJsonObject cpuLabels{
            {QStringLiteral("node.kubernetes.io/instance-type"), QStringLiteral("m7i.4xlarge")},
            {QStringLiteral("topology.kubernetes.io/zone"), QStringLiteral("us-east-1a")}};
        const QString os = QStringLiteral("Ubuntu 24.04.1 LTS"), kernel = QStringLiteral("6.8.0-1015-aws"),
                      runtime = QStringLiteral("containerd://1.7.27"), kubelet = QStringLiteral("v1.33.0");
        out << nodeObject(QStringLiteral("gpu-node-1"), gpuLabels, 8, os, kernel, runtime, kubelet, {}, 0)
            << nodeObject(QStringLiteral("gpu-node-2"), gpuLabels, 8, os, kernel, runtime, kubelet, {}, 1)
            << nodeObject(QStringLiteral("cpu-node-1"), cpuLabels, 0, os, kernel, runtime, kubelet, {}, 2);
        return out;
    }
    int index = 0;
    for (const QJsonValue& v : script.nodes) {
        const QJsonObject n = v.toObject();
        out << nodeObject(
            n.value(QLatin1String("name")).toString(), n.value(QLatin1String("labels")).toObject(),
            n.value(QLatin1String("gpus")).toInt(),
            n.value(QLatin1String("osImage")).toString(QStringLiteral("Ubuntu 24.04.1 LTS")),
            n.value(QLatin1String("kernelVersion")).toString(QStringLiteral("6.8.0-1015-aws")),
            n.value(QLatin1String("containerRuntimeVersion")).toString(QStringLiteral("containerd://1.7.27")),
            n.value(QLatin1String("kubeletVersion")).toString(QStringLiteral("v1.33.0")),
            n.value(QLatin1String("taints")).toArray(), index++);
    }
    return out;
}

bool Rbac::allowed(const QString& verb, const QString& qualifiedResource) const {
    if (!enabled)
        return true;
    auto matches = [&](const QStringList& rules) {
        for (const QString& rule : rules) {
            const QStringList p = rule.split(QLatin1Char(' '));
            if ((p.value(0) == QLatin1String("*") || p.value(0) == verb) &&
                (p.value(1) == QLatin1String("*") || p.value(1) == qualifiedResource))
                return true;
        }
        return false;
    };
    return matches(allow) && !matches(deny);
}

Controller::Controller(Store& store, const Script& script) : store_(store), script_(script) {}

Controller::~Controller() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
}

void Controller::start() {
    thread_ = std::thread([this] { loop(); });
}

void Controller::loop() {
    while (!stop_) {
        {
            std::lock_guard lock(store_.mu);
            tick();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10)); // the simulated kubelet's clock
    }
}

const CheckScript& Controller::chooseCheck(const QJsonObject& job) const {
    const QJsonObject templ =
        job.value(QLatin1String("spec")).toObject().value(QLatin1String("template")).toObject();
    const QJsonArray containers =
        templ.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray();
    const QJsonArray args = containers.first().toObject().value(QLatin1String("args")).toArray();
    if (!args.isEmpty()) {
        const auto it = script_.checks.constFind(args.first().toString());
        if (it != script_.checks.constEnd())
            return *it;
    }
    QString label = metadataOf(job)
                        .value(QLatin1String("labels"))
                        .toObject()
                        .value(QLatin1String("proofbench.dev/check"))
                        .toString();
    if (label.isEmpty())
        label = metadataOf(templ)
                    .value(QLatin1String("labels"))
                    .toObject()
                    .value(QLatin1String("proofbench.dev/check"))
                    .toString();
    const auto it = script_.checks.constFind(label);
    return it != script_.checks.constEnd() ? *it : script_.defaultCheck;
}

namespace {

// A container's status before it starts: waiting in ContainerCreating.
QJsonObject creatingContainerStatus(const QString& name, const QString& image) {
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("image"), image},
        {QStringLiteral("imageID"), QString()},
        {QStringLiteral("ready"), false},
        {QStringLiteral("restartCount"), 0},
        {QStringLiteral("started"), false},
        {QStringLiteral("state"),
         QJsonObject{{QStringLiteral("waiting"),
                      QJsonObject{{QStringLiteral("reason"), QStringLiteral("ContainerCreating")}}}}}};
}

// A check's log line by line, each with its '\n' (the last one without, when the log has none).
QList<QByteArray> logLines(const QByteArray& log) {
    QList<QByteArray> lines;
    for (const QByteArray& line : log.split('\n'))
        lines << line + '\n';
    if (!lines.isEmpty()) { // split leaves a last piece: drop it when the log ended with '\n'
        QByteArray& last = lines.last();
        last.chop(1);
        if (last.isEmpty())
            lines.removeLast();
    }
    return lines;
}

// The pod's owner: its Job, as the controller.
QJsonObject jobOwnerReference(const QString& jobName, const QString& uid) {
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("batch/v1")},
                       {QStringLiteral("kind"), QStringLiteral("Job")},
                       {QStringLiteral("name"), jobName},
                       {QStringLiteral("uid"), uid},
                       {QStringLiteral("controller"), true},
                       {QStringLiteral("blockOwnerDeletion"), true}};
}

} // namespace

void Controller::event(const QJsonObject& involved, const QString& type, const QString& reason,
                       const QString& message, const QString& component) {
    const QJsonObject meta = metadataOf(involved);
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString name = meta.value(QLatin1String("name")).toString();
    const QString now = nowTimestamp();
    const QString eventName = QStringLiteral("%1.%2").arg(name).arg(
        quint64(std::chrono::steady_clock::now().time_since_epoch().count()) & 0xffffffffffffULL, 0, 16);
    const QJsonObject e{
        {QStringLiteral("kind"), QStringLiteral("Event")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), eventName}, {QStringLiteral("namespace"), ns}}},
        {QStringLiteral("involvedObject"),
         QJsonObject{{QStringLiteral("kind"), involved.value(QLatin1String("kind"))},
                     {QStringLiteral("apiVersion"), involved.value(QLatin1String("apiVersion"))},
                     {QStringLiteral("namespace"), ns},
                     {QStringLiteral("name"), name},
                     {QStringLiteral("uid"), meta.value(QLatin1String("uid"))},
                     {QStringLiteral("resourceVersion"), meta.value(QLatin1String("resourceVersion"))}}},
        {QStringLiteral("type"), type},
        {QStringLiteral("reason"), reason},
        {QStringLiteral("message"), message},
        {QStringLiteral("source"), QJsonObject{{QStringLiteral("component"), component}}},
        {QStringLiteral("reportingComponent"), component},
        {QStringLiteral("reportingInstance"), QString()},
        {QStringLiteral("firstTimestamp"), now},
        {QStringLiteral("lastTimestamp"), now},
        {QStringLiteral("count"), 1}};
    store_.add(QStringLiteral("events"), e);
}

void Controller::podEvent(const PodRun& run, const QString& type, const QString& reason,
                          const QString& message, const QString& component) {
    if (const QJsonObject* pod = store_.find(QStringLiteral("pods"), run.ns, run.pod))
        event(*pod, type, reason, message, component);
}

void Controller::jobEvent(const PodRun& run, const QString& type, const QString& reason,
                          const QString& message) {
    if (const QJsonObject* job = store_.find(QStringLiteral("jobs"), run.ns, run.job))
        event(*job, type, reason, message, QStringLiteral("job-controller"));
}

QJsonObject Controller::jobCreated(const QJsonObject& stored) {
    QJsonObject job = stored;
    const QJsonObject meta = metadataOf(job);
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString jobName = meta.value(QLatin1String("name")).toString();
    const QString uid = meta.value(QLatin1String("uid")).toString();
    const QJsonObject spec = job.value(QLatin1String("spec")).toObject();
    const QJsonObject templ = spec.value(QLatin1String("template")).toObject();

    QJsonObject labels = metadataOf(templ).value(QLatin1String("labels")).toObject();
    labels.insert(QStringLiteral("batch.kubernetes.io/job-name"), jobName);
    labels.insert(QStringLiteral("job-name"), jobName);
    labels.insert(QStringLiteral("controller-uid"), uid);
    labels.insert(QStringLiteral("batch.kubernetes.io/controller-uid"), uid);

    QJsonObject podSpec = templ.value(QLatin1String("spec")).toObject();
    if (!podSpec.contains(QLatin1String("restartPolicy")))
        podSpec.insert(QStringLiteral("restartPolicy"), QStringLiteral("Never"));
    QString nodeName;
    for (const QJsonObject& node : store_.list(QStringLiteral("nodes"), {})) {
        if (nodeName.isEmpty())
            nodeName = metadataOf(node).value(QLatin1String("name")).toString();
        if (metadataOf(node)
                .value(QLatin1String("labels"))
                .toObject()
                .value(QLatin1String("nvidia.com/gpu.present"))
                .toString() == QLatin1String("true")) {
            nodeName = metadataOf(node).value(QLatin1String("name")).toString();
            break;
        }
    }
    podSpec.insert(QStringLiteral("nodeName"), nodeName);
    if (!podSpec.contains(QLatin1String("serviceAccountName")))
        podSpec.insert(QStringLiteral("serviceAccountName"), QStringLiteral("default"));

    PodRun run;
    run.ns = ns;
    run.job = jobName;
    QJsonArray waiting;
    for (const QJsonValue& c : podSpec.value(QLatin1String("containers")).toArray()) {
        const QString name = c.toObject().value(QLatin1String("name")).toString();
        run.containers << name;
        waiting.append(creatingContainerStatus(name, c.toObject().value(QLatin1String("image")).toString()));
    }
    run.pod = jobName + QLatin1Char('-') + randomSuffix();
    while (store_.find(QStringLiteral("pods"), ns, run.pod))
        run.pod = jobName + QLatin1Char('-') + randomSuffix();
    run.check = chooseCheck(job);
    run.created = Clock::now();
    run.lines = logLines(run.check.log);

    QJsonObject podStatus{
        {QStringLiteral("phase"), QStringLiteral("Pending")},
        {QStringLiteral("qosClass"), QStringLiteral("BestEffort")},
        {QStringLiteral("hostIP"), QStringLiteral("10.0.0.10")},
        {QStringLiteral("conditions"), QJsonArray{condition(QStringLiteral("PodScheduled"), {}, {})}},
        {QStringLiteral("containerStatuses"), waiting}};
    if (run.check.podFault == QLatin1String("Unschedulable")) { // never bound: no node, no container statuses
        podSpec.remove(QStringLiteral("nodeName"));
        podStatus = unschedulableStatus();
        run.faultStep = 1;
    }
    const QJsonObject pod{
        {QStringLiteral("kind"), QStringLiteral("Pod")},
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), run.pod},
                     {QStringLiteral("generateName"), jobName + QLatin1Char('-')},
                     {QStringLiteral("namespace"), ns},
                     {QStringLiteral("labels"), labels},
                     {QStringLiteral("ownerReferences"), QJsonArray{jobOwnerReference(jobName, uid)}}}},
        {QStringLiteral("spec"), podSpec},
        {QStringLiteral("status"), podStatus}};
    store_.add(QStringLiteral("pods"), pod);

    JobRun jr;
    jr.start = Clock::now();
    jr.deadlineSeconds = spec.contains(QLatin1String("activeDeadlineSeconds"))
                             ? spec.value(QLatin1String("activeDeadlineSeconds")).toInt()
                             : -1;
    jobs_[{ns, jobName}] = jr;
    runs_[{ns, run.pod}] = run;
    event(stored, QStringLiteral("Normal"), QStringLiteral("SuccessfulCreate"),
          QStringLiteral("Created pod: %1").arg(run.pod), QStringLiteral("job-controller"));
    if (run.check.podFault == QLatin1String("Unschedulable"))
        podEvent(
            run, QStringLiteral("Warning"), QStringLiteral("FailedScheduling"),
            QStringLiteral("0/%1 nodes are available: %1 Insufficient nvidia.com/gpu. preemption: 0/%1 nodes "
                           "are available: %1 No preemption victims found for incoming pod.")
                .arg(store_.list(QStringLiteral("nodes"), {}).size()),
            QStringLiteral("default-scheduler"));
    else
        podEvent(run, QStringLiteral("Normal"), QStringLiteral("Scheduled"),
                 QStringLiteral("Successfully assigned %1/%2 to %3").arg(ns, run.pod, nodeName),
                 QStringLiteral("default-scheduler"));

    QJsonObject status = job.value(QLatin1String("status")).toObject();
    status.insert(QStringLiteral("active"), 1);
    status.insert(QStringLiteral("ready"), 0);
    status.insert(QStringLiteral("terminating"), 0);
    status.insert(QStringLiteral("startTime"), nowTimestamp());
    status.insert(QStringLiteral("uncountedTerminatedPods"), QJsonObject{});
    job.insert(QStringLiteral("status"), status);
    return store_.update(QStringLiteral("jobs"), job);
}

void Controller::podDeleted(const QString& ns, const QString& pod) {
    runs_.erase({ns, pod});
    store_.changed.notify_all();
}

void Controller::jobDeleted(const QString& ns, const QString& job) {
    jobs_.erase({ns, job});
}

bool Controller::terminating(const QString& resource, const QString& ns, const QString& name) const {
    for (const Doomed& d : doomed_)
        if (d.resource == resource && d.ns == ns && d.name == name)
            return true;
    return false;
}

void Controller::removeNow(const QString& resource, const QString& ns, const QString& name) {
    if (resource == QLatin1String("namespaces")) {
        for (const QJsonObject& job : store_.list(QStringLiteral("jobs"), name))
            jobs_.erase({name, metadataOf(job).value(QLatin1String("name")).toString()});
        for (const ResourceType& t : resourceTypes()) {
            if (!t.namespaced)
                continue;
            for (const QJsonObject& o : store_.list(t.resource, name)) {
                const QString objectName = metadataOf(o).value(QLatin1String("name")).toString();
                store_.remove(t.resource, name, objectName);
                if (t.resource == QLatin1String("pods"))
                    runs_.erase({name, objectName});
            }
        }
        std::erase_if(doomed_, [&](const Doomed& d) { return d.ns == name; });
        store_.remove(resource, {}, name);
        store_.changed.notify_all();
        return;
    }
    store_.remove(resource, ns, name);
    if (resource == QLatin1String("pods"))
        runs_.erase({ns, name});
    if (resource == QLatin1String("jobs"))
        jobs_.erase({ns, name});
    store_.changed.notify_all();
}

QJsonObject Controller::deleteGracefully(const QString& resource, const QString& ns, const QString& name,
                                         const QString& disruptionReason) {
    const QJsonObject* found = store_.find(resource, ns, name);
    if (!found)
        return {};
    if (terminating(resource, ns, name))
        return *found;
    QJsonObject object = *found;
    const bool graceful = script_.deletionGraceMs > 0 || resource == QLatin1String("namespaces");
    if (resource == QLatin1String("pods")) { // a Job whose only pod goes away fails (backoffLimit 0)
        const auto it = runs_.find({ns, name});
        if (it != runs_.end() && it->second.stage != Stage::Terminated) {
            if (graceful) // the kubelet stops the container (SIGTERM, exit 143)
                terminate(it->second, 143, QStringLiteral("Error"), {});
            failJob(it->second, QStringLiteral("BackoffLimitExceeded"),
                    QStringLiteral("Job has reached the specified backoff limit"));
            if (const QJsonObject* now = store_.find(resource, ns, name))
                object = *now;
        }
    }
    // An eviction (or the taint manager) marks the pod first, whatever the grace: the DisruptionTarget
    // condition.
    const bool disrupted = resource == QLatin1String("pods") && !disruptionReason.isEmpty();
    if (disrupted) {
        QJsonObject status = object.value(QLatin1String("status")).toObject();
        QJsonArray conditions = status.value(QLatin1String("conditions")).toArray();
        conditions.append(condition(QStringLiteral("DisruptionTarget"), disruptionReason,
                                    disruptionReason == QLatin1String("EvictionByEvictionAPI")
                                        ? QStringLiteral("Eviction API: evicting")
                                        : QStringLiteral("Taint manager: deleting due to NoExecute taint")));
        status.insert(QStringLiteral("conditions"), conditions);
        object.insert(QStringLiteral("status"), status);
    }
    if (!graceful) {
        if (disrupted) // at grace 0: one MODIFIED event with the condition, then the deletion
            object = store_.update(resource, object);
        removeNow(resource, ns, name);
        setMeta(object, QStringLiteral("deletionTimestamp"), nowTimestamp());
        return object;
    }
    setMeta(object, QStringLiteral("deletionTimestamp"), nowTimestamp());
    if (resource == QLatin1String("pods"))
        setMeta(object, QStringLiteral("deletionGracePeriodSeconds"), 30);
    if (resource == QLatin1String("namespaces")) {
        QJsonObject status = object.value(QLatin1String("status")).toObject();
        status.insert(QStringLiteral("phase"), QStringLiteral("Terminating"));
        object.insert(QStringLiteral("status"), status);
    }
    object = store_.update(resource, object);
    if (resource == QLatin1String("namespaces")) { // the namespace controller empties it
        for (const QJsonObject& job : store_.list(QStringLiteral("jobs"), name)) {
            const QString jobName = metadataOf(job).value(QLatin1String("name")).toString();
            jobs_.erase({name, jobName});
            store_.remove(QStringLiteral("jobs"), name, jobName);
        }
        for (const ResourceType& t : resourceTypes()) {
            if (!t.namespaced || t.resource == QLatin1String("pods"))
                continue;
            for (const QJsonObject& o : store_.list(t.resource, name))
                store_.remove(t.resource, name, metadataOf(o).value(QLatin1String("name")).toString());
        }
        for (const QJsonObject& pod : store_.list(QStringLiteral("pods"), name))
            deleteGracefully(QStringLiteral("pods"), name,
                             metadataOf(pod).value(QLatin1String("name")).toString());
        if (script_.deletionGraceMs == 0) {
            removeNow(resource, ns, name);
            return object;
        }
    }
    // Namespaces go a little after their pods, as the namespace controller waits for them.
    const int grace =
        script_.deletionGraceMs + (resource == QLatin1String("namespaces") ? script_.deletionGraceMs / 2 : 0);
    doomed_.push_back({resource, ns, name, Clock::now() + std::chrono::milliseconds(grace)});
    store_.changed.notify_all();
    return object;
}

void Controller::failJob(PodRun& run, const QString& reason, const QString& message) {
    auto j = jobs_.find({run.ns, run.job});
    if (j == jobs_.end() || j->second.finished)
        return;
    j->second.finished = true;
    updateJob(run, [&](QJsonObject& status) {
        status.insert(QStringLiteral("active"), 0);
        status.insert(QStringLiteral("ready"), 0);
        status.insert(QStringLiteral("failed"), status.value(QLatin1String("failed")).toInt() + 1);
        status.insert(QStringLiteral("conditions"),
                      QJsonArray{condition(QStringLiteral("FailureTarget"), reason, message),
                                 condition(QStringLiteral("Failed"), reason, message)});
    });
    jobEvent(run, QStringLiteral("Warning"), reason, message);
}

void Controller::setPodPending(PodRun& run, const QJsonObject& podNow) {
    // The podFault states a pod can sit in while Pending.
    QJsonObject copy = podNow;
    QJsonObject status = copy.value(QLatin1String("status")).toObject();
    const QString& fault = run.check.podFault;
    if (fault == QLatin1String("Unschedulable")) {
        status = unschedulableStatus();
        QJsonObject spec = copy.value(QLatin1String("spec")).toObject();
        spec.remove(QStringLiteral("nodeName"));
        copy.insert(QStringLiteral("spec"), spec);
    } else if (fault == QLatin1String("ErrImagePull")) {
        const bool backOff = run.faultStep >= 2;
        QJsonArray statuses;
        for (const QJsonValue& v : status.value(QLatin1String("containerStatuses")).toArray()) {
            QJsonObject cs = v.toObject();
            const QString image = cs.value(QLatin1String("image")).toString();
            const QJsonObject waiting{{QStringLiteral("reason"), backOff ? QStringLiteral("ImagePullBackOff")
                                                                         : QStringLiteral("ErrImagePull")},
                                      {QStringLiteral("message"),
                                       backOff
                                           ? QStringLiteral("Back-off pulling image \"%1\"").arg(image)
                                           : QStringLiteral("rpc error: code = NotFound desc = failed to "
                                                            "pull and unpack image \"%1\": failed to resolve "
                                                            "reference \"%1\": %1: not found")
                                                 .arg(image)}};
            cs.insert(QStringLiteral("state"), QJsonObject{{QStringLiteral("waiting"), waiting}});
            statuses.append(cs);
        }
        status.insert(QStringLiteral("containerStatuses"), statuses);
    }
    copy.insert(QStringLiteral("status"), status);
    store_.update(QStringLiteral("pods"), copy);
    if (fault == QLatin1String("ErrImagePull"))
        for (const QJsonValue& c :
             copy.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray()) {
            const QString image = c.toObject().value(QLatin1String("image")).toString();
            if (run.faultStep >= 2)
                podEvent(run, QStringLiteral("Normal"), QStringLiteral("BackOff"),
                         QStringLiteral("Back-off pulling image \"%1\"").arg(image),
                         QStringLiteral("kubelet"));
            else
                podEvent(run, QStringLiteral("Warning"), QStringLiteral("Failed"),
                         QStringLiteral("Failed to pull image \"%1\": not found").arg(image),
                         QStringLiteral("kubelet"));
        }
}

const Controller::PodRun* Controller::run(const QString& ns, const QString& pod) const {
    const auto it = runs_.find({ns, pod});
    return it == runs_.end() ? nullptr : &it->second;
}

void Controller::updateJob(const PodRun& run, const std::function<void(QJsonObject&)>& change) {
    const QJsonObject* job = store_.find(QStringLiteral("jobs"), run.ns, run.job);
    if (!job)
        return;
    QJsonObject copy = *job;
    QJsonObject status = copy.value(QLatin1String("status")).toObject();
    change(status);
    copy.insert(QStringLiteral("status"), status);
    store_.update(QStringLiteral("jobs"), copy);
}

void Controller::terminate(PodRun& run, int exitCode, const QString& reason, const QString& message) {
    run.stage = Stage::Terminated;
    const QJsonObject* pod = store_.find(QStringLiteral("pods"), run.ns, run.pod);
    if (!pod)
        return;
    QJsonObject copy = *pod;
    QJsonObject status = copy.value(QLatin1String("status")).toObject();
    const QString now = nowTimestamp();
    const QString startedAt = status.value(QLatin1String("startTime")).toString(now);
    status.insert(QStringLiteral("phase"),
                  exitCode == 0 ? QStringLiteral("Succeeded") : QStringLiteral("Failed"));
    QJsonArray statuses;
    for (const QJsonValue& v : status.value(QLatin1String("containerStatuses")).toArray()) {
        QJsonObject cs = v.toObject();
        QJsonObject terminated{{QStringLiteral("exitCode"), exitCode},
                               {QStringLiteral("reason"), reason},
                               {QStringLiteral("startedAt"), startedAt},
                               {QStringLiteral("finishedAt"), now},
                               {QStringLiteral("containerID"), cs.value(QLatin1String("containerID"))}};
        if (!message.isEmpty())
            terminated.insert(QStringLiteral("message"), message);
        cs.insert(QStringLiteral("state"), QJsonObject{{QStringLiteral("terminated"), terminated}});
        cs.insert(QStringLiteral("ready"), false);
        cs.insert(QStringLiteral("started"), false);
        statuses.append(cs);
    }
    status.insert(QStringLiteral("containerStatuses"), statuses);
    QJsonArray conditions{condition(QStringLiteral("PodScheduled"), {}, {})};
    QJsonObject ready = condition(QStringLiteral("Ready"), QStringLiteral("PodCompleted"), {});
    ready.insert(QStringLiteral("status"), QStringLiteral("False"));
    conditions.append(ready);
    status.insert(QStringLiteral("conditions"), conditions);
    copy.insert(QStringLiteral("status"), status);
    store_.update(QStringLiteral("pods"), copy);
}

namespace {

// A pod's status once its container runs: phase, start time, an IP, running container statuses
// and the four conditions of a ready pod.
QJsonObject runningStatus(QJsonObject status, int podIndex) {
    const QString now = nowTimestamp();
    status.insert(QStringLiteral("phase"), QStringLiteral("Running"));
    status.insert(QStringLiteral("startTime"), now);
    status.insert(QStringLiteral("podIP"), QStringLiteral("10.244.1.%1").arg(2 + podIndex));
    QJsonArray statuses;
    for (const QJsonValue& v : status.value(QLatin1String("containerStatuses")).toArray()) {
        QJsonObject cs = v.toObject();
        cs.insert(QStringLiteral("state"),
                  QJsonObject{{QStringLiteral("running"), QJsonObject{{QStringLiteral("startedAt"), now}}}});
        cs.insert(QStringLiteral("ready"), true);
        cs.insert(QStringLiteral("started"), true);
        cs.insert(QStringLiteral("containerID"),
                  QStringLiteral("containerd://") + QUuid::createUuid().toString(QUuid::Id128));
        statuses.append(cs);
    }
    status.insert(QStringLiteral("containerStatuses"), statuses);
    status.insert(QStringLiteral("conditions"),
                  QJsonArray{condition(QStringLiteral("PodScheduled"), {}, {}),
                             condition(QStringLiteral("Initialized"), {}, {}),
                             condition(QStringLiteral("ContainersReady"), {}, {}),
                             condition(QStringLiteral("Ready"), {}, {})});
    return status;
}

// A Job whose pod succeeded: no active pod, one more succeeded, Complete.
void markJobComplete(QJsonObject& status, const QString& now) {
    status.insert(QStringLiteral("active"), 0);
    status.insert(QStringLiteral("ready"), 0);
    status.insert(QStringLiteral("succeeded"), status.value(QLatin1String("succeeded")).toInt() + 1);
    status.insert(QStringLiteral("completionTime"), now);
    status.insert(
        QStringLiteral("conditions"),
        QJsonArray{condition(QStringLiteral("SuccessCriteriaMet"), QStringLiteral("CompletionsReached"),
                             QStringLiteral("Reached expected number of succeeded pods")),
                   condition(QStringLiteral("Complete"), QStringLiteral("CompletionsReached"),
                             QStringLiteral("Reached expected number of succeeded pods"))});
}

// How many of a check's log lines are out after `elapsed` ms of `runMs` (all once it is done).
int linesDue(int lines, qint64 elapsed, int runMs, bool done) {
    int due = lines;
    if (!done)
        due = runMs > 0 ? int(qint64(lines) * elapsed / runMs) : due;
    return std::min(due, lines);
}

// A failed Job: no active pod, one more failed, FailureTarget and Failed for `reason`.
void markJobFailed(QJsonObject& status, const QString& reason, const QString& msg) {
    status.insert(QStringLiteral("active"), 0);
    status.insert(QStringLiteral("ready"), 0);
    status.insert(QStringLiteral("failed"), status.value(QLatin1String("failed")).toInt() + 1);
    status.insert(QStringLiteral("conditions"),
                  QJsonArray{condition(QStringLiteral("FailureTarget"), reason, msg),
                             condition(QStringLiteral("Failed"), reason, msg)});
}

} // namespace

void Controller::removeDueDoomed(std::chrono::steady_clock::time_point now) {
    for (std::size_t i = 0; i < doomed_.size();) {
        if (doomed_[i].due > now) {
            ++i;
            continue;
        }
        const Doomed d = doomed_[i];
        doomed_.erase(doomed_.begin() + qsizetype(i));
        removeNow(d.resource, d.ns, d.name);
        i = 0; // removeNow may have dropped other entries
    }
}

void Controller::tick() {
    removeDueDoomed(Clock::now());
    for (auto it = runs_.begin(); it != runs_.end();) {
        PodRun& run = it->second;
        JobRun* job = nullptr;
        if (auto j = jobs_.find({run.ns, run.job}); j != jobs_.end())
            job = &j->second;
        const QJsonObject* pod = store_.find(QStringLiteral("pods"), run.ns, run.pod);
        if (!pod) {
            it = runs_.erase(it);
            continue;
        }

        if (job && !job->finished && job->deadlineSeconds >= 0 && run.stage != Stage::Terminated &&
            msSince(job->start) >= qint64(job->deadlineSeconds) * 1000) {
            // The job controller kills the active pod and fails the Job.
            job->finished = true;
            terminate(run, 137, QStringLiteral("Error"), {});
            const QString msg = QStringLiteral("Job was active longer than specified deadline");
            updateJob(run, [&](QJsonObject& status) {
                markJobFailed(status, QStringLiteral("DeadlineExceeded"), msg);
            });
            jobEvent(run, QStringLiteral("Warning"), QStringLiteral("DeadlineExceeded"), msg);
            store_.remove(QStringLiteral("pods"), run.ns, run.pod);
            it = runs_.erase(it);
            store_.changed.notify_all();
            continue;
        }

        const QString& podFault = run.check.podFault;
        if (run.stage == Stage::Pending &&
            (podFault == QLatin1String("Unschedulable") || podFault == QLatin1String("ErrImagePull") ||
             podFault == QLatin1String("Pending"))) {
            // Stuck before the container starts: step 1 at pendingMs, step 2 (back-off) one more pendingMs
            // later.
            const int step = podFault == QLatin1String("Unschedulable")                              ? 1
                             : msSince(run.created) >= 2 * qint64(std::max(run.check.pendingMs, 50)) ? 2
                             : msSince(run.created) >= run.check.pendingMs                           ? 1
                                                                                                     : 0;
            if (step > run.faultStep && podFault != QLatin1String("Pending")) {
                run.faultStep = step;
                setPodPending(run, *pod);
            }
            ++it;
            continue;
        }

        if (run.stage == Stage::Running && !run.faultFired &&
            msSince(run.started) >= run.check.faultAfterMs &&
            (podFault == QLatin1String("Deleted") || podFault == QLatin1String("Evicted"))) {
            run.faultFired = true;
            const QString ns = run.ns, name = run.pod;
            deleteGracefully(QStringLiteral("pods"), ns, name,
                             podFault == QLatin1String("Evicted") ? QStringLiteral("EvictionByEvictionAPI")
                                                                  : QString());
            it = runs_.lower_bound({ns, name}); // the run may be gone
            if (it != runs_.end() && it->first == std::make_pair(ns, name))
                ++it;
            continue;
        }

        if (run.stage == Stage::Pending && msSince(run.created) >= run.check.pendingMs) {
            run.stage = Stage::Running;
            run.started = Clock::now();
            QJsonObject copy = *pod;
            copy.insert(
                QStringLiteral("status"),
                runningStatus(copy.value(QLatin1String("status")).toObject(), int(runs_.size() % 250)));
            store_.update(QStringLiteral("pods"), copy);
            for (const QJsonValue& c :
                 copy.value(QLatin1String("spec")).toObject().value(QLatin1String("containers")).toArray()) {
                const QString name = c.toObject().value(QLatin1String("name")).toString();
                const QString image = c.toObject().value(QLatin1String("image")).toString();
                podEvent(run, QStringLiteral("Normal"), QStringLiteral("Pulled"),
                         QStringLiteral("Container image \"%1\" already present on machine").arg(image),
                         QStringLiteral("kubelet"));
                podEvent(run, QStringLiteral("Normal"), QStringLiteral("Created"),
                         QStringLiteral("Created container: %1").arg(name), QStringLiteral("kubelet"));
                podEvent(run, QStringLiteral("Normal"), QStringLiteral("Started"),
                         QStringLiteral("Started container %1").arg(name), QStringLiteral("kubelet"));
            }
            updateJob(run, [](QJsonObject& s) { s.insert(QStringLiteral("ready"), 1); });
            if (!run.check.serverFault.isEmpty() && onServerFault) {
                QString check = run.job;
                onServerFault(run.check.serverFault, check);
            }
        }

        if (run.stage == Stage::Running) {
            const qint64 elapsed = msSince(run.started);
            const bool done = !run.check.neverFinish && elapsed >= run.check.runMs;
            const int due = linesDue(int(run.lines.size()), elapsed, run.check.runMs, done);
            if (due > run.released) {
                const QString at = nanoTimestamp();
                while (run.lineTimes.size() < due)
                    run.lineTimes << at;
                run.released = due;
                store_.changed.notify_all();
            }
            if (done) {
                const int code = run.check.exitCode;
                terminate(run, code, code == 0 ? QStringLiteral("Completed") : QStringLiteral("Error"),
                          run.check.terminationMessage);
                if (job)
                    job->finished = true;
                const QString now = nowTimestamp();
                updateJob(run, [&](QJsonObject& status) {
                    if (code == 0)
                        markJobComplete(status, now);
                    else
                        markJobFailed(status, QStringLiteral("BackoffLimitExceeded"),
                                      QStringLiteral("Job has reached the specified backoff limit"));
                });
                if (code == 0)
                    jobEvent(run, QStringLiteral("Normal"), QStringLiteral("Completed"),
                             QStringLiteral("Job completed"));
                else
                    jobEvent(run, QStringLiteral("Warning"), QStringLiteral("BackoffLimitExceeded"),
                             QStringLiteral("Job has reached the specified backoff limit"));
                store_.changed.notify_all();
            }
        }
        ++it;
    }
}

} // namespace kts
