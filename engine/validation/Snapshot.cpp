#include "validation/Snapshot.h"

#include "kube/Client.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTimeZone>

namespace pb::validation {

using yaml::Node;

namespace {

Node str(const QString& s) {
    return Node::str(s.toStdString());
}

// "Ubuntu 24.04.1 LTS" -> (ubuntu, 24.04); "Amazon Linux 2023..." -> (amzn, 2023);
// "Container-Optimized OS from Google" -> (cos, ""); "Red Hat Enterprise Linux CoreOS 4xx" -> (rhcos, ...)
void osFromImage(const QString& image, QString* id, QString* version) {
    const QString lower = image.toLower();
    static const QRegularExpression num(QStringLiteral("(\\d+(?:\\.\\d+)?)"));
    const QRegularExpressionMatch m = num.match(image);
    const QString v = m.hasMatch() ? m.captured(1) : QString();
    if (lower.startsWith(QLatin1String("ubuntu")))
        *id = QStringLiteral("ubuntu"), *version = v;
    else if (lower.startsWith(QLatin1String("amazon linux")))
        *id = QStringLiteral("amzn"), *version = v;
    else if (lower.startsWith(QLatin1String("container-optimized os")))
        *id = QStringLiteral("cos"), *version = v;
    else if (lower.contains(QLatin1String("coreos")))
        *id = QStringLiteral("rhcos"), *version = v;
    else if (lower.startsWith(QLatin1String("red hat")) || lower.startsWith(QLatin1String("rhel")))
        *id = QStringLiteral("rhel"), *version = v;
    else if (lower.startsWith(QLatin1String("debian")))
        *id = QStringLiteral("debian"), *version = v;
    else
        *id = lower.section(QLatin1Char(' '), 0, 0), *version = v;
}

int gpuCount(const QJsonObject& status) {
    for (const char* field : {"allocatable", "capacity"}) {
        const QJsonValue v =
            status.value(QLatin1String(field)).toObject().value(QStringLiteral("nvidia.com/gpu"));
        if (v.isString())
            return v.toString().toInt();
        if (v.isDouble())
            return v.toInt();
    }
    return 0;
}

// Numeric components of a version: "v1.33.0-eks-4f" -> [1, 33, 0]; "6.8.0-1015-aws" -> [6, 8, 0].
QList<int> versionParts(const QString& text, bool* ok) {
    QString t = text.trimmed();
    if (t.startsWith(QLatin1Char('v')) || t.startsWith(QLatin1Char('V')))
        t.remove(0, 1);
    static const QRegularExpression lead(QStringLiteral("^(\\d+(?:\\.\\d+)*)"));
    const QRegularExpressionMatch m = lead.match(t);
    *ok = m.hasMatch();
    QList<int> out;
    if (*ok)
        for (const QString& p : m.captured(1).split(QLatin1Char('.')))
            out << p.toInt();
    return out;
}

} // namespace

int ClusterSnapshot::gpuNodeCount() const {
    int n = 0;
    for (const NodeInfo& node : nodes)
        n += node.isGpuNode() ? 1 : 0;
    return n;
}

const NodeInfo* ClusterSnapshot::firstGpuNode() const {
    for (const NodeInfo& node : nodes)
        if (node.isGpuNode())
            return &node;
    return nodes.empty() ? nullptr : &nodes.front();
}

QString ClusterSnapshot::reading(const QString& path) const {
    const NodeInfo* node = firstGpuNode();
    if (path == QLatin1String("K8s.server.version"))
        return serverVersion;
    if (!node)
        return {};
    if (path == QLatin1String("OS.release.ID"))
        return node->osId;
    if (path == QLatin1String("OS.release.VERSION_ID"))
        return node->osVersion;
    if (path == QLatin1String("OS.sysctl./proc/sys/kernel/osrelease"))
        return node->kernelVersion;
    if (path == QLatin1String("GPU.hardware.model"))
        return node->gpuProduct;
    if (path == QLatin1String("GPU.hardware.gpu-count"))
        return node->gpus ? QString::number(node->gpus) : QString();
    if (path == QLatin1String("K8s.node.container-runtime"))
        return node->containerRuntime;
    if (path == QLatin1String("K8s.node.kubelet-version"))
        return node->kubeletVersion;
    return {};
}

Node ClusterSnapshot::toNode() const {
    const NodeInfo* src = firstGpuNode();
    auto subtype = [](const char* name, Node data) {
        Node s = Node::map();
        s.set("subtype", Node::str(name));
        s.set("data", std::move(data));
        return s;
    };
    auto measurement = [](const char* type, Node subtypes) {
        Node m = Node::map();
        m.set("type", Node::str(type));
        m.set("subtypes", std::move(subtypes));
        return m;
    };
    Node doc = Node::map();
    doc.set("apiVersion", Node::str("aicr.run/v1alpha2"));
    doc.set("kind", Node::str("Snapshot"));
    Node meta = Node::map();
    meta.set("timestamp", str(taken.toUTC().toString(Qt::ISODate)));
    meta.set("version", str(toolVersion));
    if (src)
        meta.set("source-node", str(src->name));
    meta.set("source", Node::str("proofbench (Kubernetes API)"));
    doc.set("metadata", meta);

    Node ms = Node::seq();
    {
        Node subs = Node::seq();
        Node server = Node::map();
        server.set("version", str(serverVersion));
        subs.items.push_back(subtype("server", server));
        if (src) {
            Node node = Node::map();
            node.set("container-runtime", str(src->containerRuntime));
            node.set("kubelet-version", str(src->kubeletVersion));
            node.set("os-image", str(src->osImage));
            subs.items.push_back(subtype("node", node));
        }
        ms.items.push_back(measurement("K8s", subs));
    }
    if (src) {
        Node gpu = Node::map();
        gpu.set("gpu-present", Node::plain(src->isGpuNode() ? "true" : "false"));
        gpu.set("gpu-count", Node::plain(std::to_string(src->gpus)));
        gpu.set("model", str(src->gpuProduct));
        gpu.set("detection-source", Node::str("node-labels"));
        Node subs = Node::seq();
        subs.items.push_back(subtype("hardware", gpu));
        ms.items.push_back(measurement("GPU", subs));

        Node release = Node::map();
        release.set("ID", str(src->osId));
        release.set("VERSION_ID", str(src->osVersion));
        Node sysctl = Node::map();
        sysctl.set("/proc/sys/kernel/osrelease", str(src->kernelVersion));
        Node osSubs = Node::seq();
        osSubs.items.push_back(subtype("release", release));
        osSubs.items.push_back(subtype("sysctl", sysctl));
        ms.items.push_back(measurement("OS", osSubs));
    }
    {
        Node items = Node::seq();
        for (const NodeInfo& n : nodes) {
            Node item = Node::map();
            Node ctx = Node::map();
            ctx.set("node", str(n.name));
            item.set("context", ctx);
            Node data = Node::map();
            for (auto it = n.labels.cbegin(); it != n.labels.cend(); ++it)
                if (it.key().startsWith(QLatin1String("nvidia.com/")) ||
                    it.key().startsWith(QLatin1String("node.kubernetes.io/")) ||
                    it.key().startsWith(QLatin1String("feature.node.kubernetes.io/system-os_release")) ||
                    it.key() == QLatin1String("kubernetes.io/arch"))
                    data.set(it.key().toStdString(), str(it.value()));
            item.set("data", data);
            items.items.push_back(item);
        }
        Node label = Node::map();
        label.set("subtype", Node::str("label"));
        label.set("items", items);
        Node summary = Node::map();
        summary.set("nodes", Node::plain(std::to_string(nodes.size())));
        summary.set("gpu-nodes", Node::plain(std::to_string(gpuNodeCount())));
        Node subs = Node::seq();
        subs.items.push_back(label);
        subs.items.push_back(subtype("summary", summary));
        ms.items.push_back(measurement("NodeTopology", subs));
    }
    doc.set("measurements", ms);
    return doc;
}

QByteArray ClusterSnapshot::toYaml() const {
    return yaml::serialize(toNode());
}

ClusterSnapshot snapshotFromJson(const QJsonObject& version, const QJsonObject& nodeList,
                                 const QString& toolVersion) {
    ClusterSnapshot s;
    s.taken = QDateTime::currentDateTimeUtc();
    s.toolVersion = toolVersion;
    s.serverVersion = version.value(QStringLiteral("gitVersion")).toString();
    for (const QJsonValue& v : nodeList.value(QStringLiteral("items")).toArray()) {
        const QJsonObject o = v.toObject();
        const QJsonObject meta = o.value(QStringLiteral("metadata")).toObject();
        const QJsonObject status = o.value(QStringLiteral("status")).toObject();
        const QJsonObject info = status.value(QStringLiteral("nodeInfo")).toObject();
        NodeInfo n;
        n.name = meta.value(QStringLiteral("name")).toString();
        const QJsonObject labels = meta.value(QStringLiteral("labels")).toObject();
        for (auto it = labels.begin(); it != labels.end(); ++it)
            n.labels.insert(it.key(), it.value().toString());
        n.gpus = gpuCount(status);
        if (n.gpus == 0)
            n.gpus = n.labels.value(QStringLiteral("nvidia.com/gpu.count")).toInt();
        n.gpuProduct = n.labels.value(QStringLiteral("nvidia.com/gpu.product"));
        n.osImage = info.value(QStringLiteral("osImage")).toString();
        n.kernelVersion = info.value(QStringLiteral("kernelVersion")).toString();
        n.containerRuntime = info.value(QStringLiteral("containerRuntimeVersion")).toString();
        n.kubeletVersion = info.value(QStringLiteral("kubeletVersion")).toString();
        n.schedulable =
            !o.value(QStringLiteral("spec")).toObject().value(QStringLiteral("unschedulable")).toBool();
        n.osId = n.labels.value(QStringLiteral("feature.node.kubernetes.io/system-os_release.ID"));
        n.osVersion =
            n.labels.value(QStringLiteral("feature.node.kubernetes.io/system-os_release.VERSION_ID"));
        if (n.osId.isEmpty()) {
            QString id, ver;
            osFromImage(n.osImage, &id, &ver);
            n.osId = id;
            if (n.osVersion.isEmpty())
                n.osVersion = ver;
        }
        s.nodes.push_back(std::move(n));
    }
    std::sort(s.nodes.begin(), s.nodes.end(),
              [](const NodeInfo& a, const NodeInfo& b) { return a.name < b.name; });
    return s;
}

Result<ClusterSnapshot> takeSnapshot(kube::Client& client, const QString& toolVersion) {
    const kube::ApiResponse version = client.get(QStringLiteral("/version"));
    if (!version.ok())
        return makeError(QStringLiteral("cannot read the server version: %1").arg(version.message));
    const kube::ApiResponse nodes = client.get(QStringLiteral("/api/v1/nodes"));
    if (!nodes.ok())
        return makeError(QStringLiteral("cannot list nodes: %1").arg(nodes.message));
    return snapshotFromJson(version.object, nodes.object, toolVersion);
}

bool compareVersions(const QString& measured, const QString& op, const QString& wanted, bool* comparable) {
    bool okA = false, okB = false;
    const QList<int> a = versionParts(measured, &okA);
    const QList<int> b = versionParts(wanted, &okB);
    if (comparable)
        *comparable = okA && okB;
    int cmp = 0;
    if (okA && okB) {
        for (int i = 0; i < std::max(a.size(), b.size()) && cmp == 0; ++i) {
            const int x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
            cmp = x < y ? -1 : x > y ? 1 : 0;
        }
    } else {
        cmp = QString::compare(measured, wanted);
    }
    if (op == QLatin1String(">="))
        return cmp >= 0;
    if (op == QLatin1String("<="))
        return cmp <= 0;
    if (op == QLatin1String(">"))
        return cmp > 0;
    if (op == QLatin1String("<"))
        return cmp < 0;
    if (op == QLatin1String("!="))
        return cmp != 0;
    return cmp == 0;
}

std::vector<ConstraintCheck> evaluateReadiness(const catalog::RecipeResult& recipe,
                                               const ClusterSnapshot& snapshot) {
    std::vector<ConstraintCheck> out;
    auto evaluate = [&](const catalog::Constraint& c, const QString& source) {
        ConstraintCheck check{c, source, snapshot.reading(c.name), ConstraintOutcome::Unknown, {}};
        if (check.measured.isEmpty()) {
            check.detail = QStringLiteral("not measurable from the Kubernetes API");
        } else {
            const catalog::ConstraintValue v = catalog::parseConstraintValue(c.value);
            bool pass = false;
            if (v.hasComparator()) {
                pass = compareVersions(check.measured, v.op, v.operand);
            } else {
                // An exact value: OS names compare case-insensitively, versions by their components.
                bool comparable = false;
                pass = compareVersions(check.measured, QStringLiteral("=="), v.operand, &comparable);
                if (!comparable)
                    pass = check.measured.compare(v.operand, Qt::CaseInsensitive) == 0;
            }
            check.outcome = pass ? ConstraintOutcome::Passed : ConstraintOutcome::Failed;
            check.detail = QStringLiteral("%1 is %2, wanted %3").arg(c.name, check.measured, c.value);
        }
        out.push_back(std::move(check));
    };
    for (const catalog::Constraint& c : recipe.constraints)
        evaluate(c, QStringLiteral("constraints"));
    if (recipe.validation && recipe.validation->readiness && recipe.validation->readiness->constraints)
        for (const catalog::Constraint& c : *recipe.validation->readiness->constraints)
            evaluate(c, QStringLiteral("validation.readiness"));
    return out;
}

} // namespace pb::validation
