#include "bundle/GenGate.h"

#include <QStringList>

namespace pb::bundle {

namespace {

const char* const kNs = "{{ .Release.Namespace }}";

// Read-only access to what readiness Tests assert on; a component whose Test reads another API
// group adds its own rule.
QStringList clusterRules(const QString& component) {
    QStringList rules = {
        QStringLiteral(
            "- apiGroups: [\"\"]\n  resources: [pods, nodes, namespaces, services, configmaps, events]"),
        QStringLiteral(
            "- apiGroups: [apps]\n  resources: [deployments, daemonsets, statefulsets, replicasets]"),
        QStringLiteral("- apiGroups: [batch]\n  resources: [jobs, cronjobs]"),
        QStringLiteral("- apiGroups: [nvidia.com]\n  resources: [\"*\"]"),
        QStringLiteral("- apiGroups: [operators.coreos.com]\n  resources: [clusterserviceversions]"),
        QStringLiteral("- apiGroups: [apiextensions.k8s.io]\n  resources: [customresourcedefinitions]"),
    };
    if (component == QLatin1String("network-operator"))
        rules << QStringLiteral("- apiGroups: [mellanox.com]\n  resources: [nicclusterpolicies]");
    for (QString& r : rules)
        r += QStringLiteral("\n  verbs: [get, list, watch]");
    return rules;
}

QString indent(const QString& text, int spaces) {
    const QString pad(spaces, QLatin1Char(' '));
    QStringList lines = text.split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QString& l : lines)
        if (!l.isEmpty())
            l.prepend(pad);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString gateImage(const QString& bundlerVersion) {
    return QStringLiteral("ghcr.io/nvidia/aicr-gate:") + bundlerVersion;
}

Result<QByteArray> renderReadinessGate(const QString& component, const QString& image,
                                       const QByteArray& testYaml, Deployer deployer,
                                       const GateSettings& settings) {
    if (component.isEmpty())
        return makeError(QStringLiteral("readiness gate: no component name"));
    if (testYaml.trimmed().isEmpty())
        return makeError(QStringLiteral("readiness gate of %1: the readiness Test is empty").arg(component));
    const QString account = component + QStringLiteral("-readiness-gate");
    const QString clusterName = account + QLatin1Char('-') + QLatin1String(kNs);
    const QString configMap = component + QStringLiteral("-readiness-bundle");
    // The Job is replaced on every sync: Argo CD (argocd, argocd-helm) by sync option; Helm runs it
    // as a hook after install and upgrade. Flux and helmfile carry no gates (render() refuses them).
    QString jobAnnotations;
    if (deployer == Deployer::ArgoCD || deployer == Deployer::ArgoCDHelm)
        jobAnnotations =
            QStringLiteral("  annotations:\n    argocd.argoproj.io/sync-options: Replace=true\n");
    else if (deployer == Deployer::Helm)
        jobAnnotations = QStringLiteral("  annotations:\n    helm.sh/hook: post-install,post-upgrade\n"
                                        "    helm.sh/hook-delete-policy: before-hook-creation\n");

    QStringList docs;
    docs << QStringLiteral("kind: ServiceAccount\napiVersion: v1\nmetadata:\n  namespace: %2\n  name: %1\n")
                .arg(account, QLatin1String(kNs));
    docs << QStringLiteral("kind: ClusterRole\napiVersion: rbac.authorization.k8s.io/v1\nmetadata:\n  name: "
                           "%1\nrules:\n%2\n")
                .arg(clusterName, clusterRules(component).join(QLatin1Char('\n')));
    docs << QStringLiteral(
                "kind: ClusterRoleBinding\napiVersion: rbac.authorization.k8s.io/v1\nmetadata:\n  name: %1\n"
                "roleRef:\n  kind: ClusterRole\n  apiGroup: rbac.authorization.k8s.io\n  name: %1\n"
                "subjects:\n- kind: ServiceAccount\n  namespace: %3\n  name: %2\n")
                .arg(clusterName, account, QLatin1String(kNs));
    docs << QStringLiteral("kind: ConfigMap\napiVersion: v1\nmetadata:\n  namespace: %2\n  name: %1\ndata:\n "
                           " %3.yaml: |\n%4\n")
                .arg(configMap, QLatin1String(kNs), component, indent(QString::fromUtf8(testYaml), 4));
    const QStringList args = {QStringLiteral("--bundle-dir=/bundle"),
                              QStringLiteral("--namespace=") + QLatin1String(kNs),
                              QStringLiteral("--timeout=") + settings.execTimeout,
                              QStringLiteral("--poll-interval=") + settings.pollInterval,
                              QStringLiteral("--stability-window=") + settings.stabilityWindow,
                              QStringLiteral("--max-wait=") + settings.maxWait};
    QString argLines;
    for (const QString& a : args)
        argLines += QStringLiteral("        - %1\n").arg(a);
    docs << QStringLiteral("kind: Job\napiVersion: batch/v1\nmetadata:\n  namespace: %2\n  name: %1\n%3"
                           "spec:\n  backoffLimit: %4\n  template:\n    spec:\n      serviceAccountName: "
                           "%1\n      restartPolicy: Never\n"
                           "      volumes:\n      - name: bundle\n        configMap:\n          name: %5\n"
                           "      containers:\n      - name: gate\n        image: %6\n        "
                           "imagePullPolicy: IfNotPresent\n"
                           "        volumeMounts:\n        - name: bundle\n          readOnly: true\n        "
                           "  mountPath: /bundle\n"
                           "        args:\n%7")
                .arg(account, QLatin1String(kNs), jobAnnotations)
                .arg(settings.backoffLimit)
                .arg(configMap, image, argLines);
    return docs.join(QStringLiteral("---\n")).toUtf8();
}

} // namespace pb::bundle
