#include "bundle/GenArgoHelm.h"

#include "bundle/GenCommon.h"
#include "yaml/GoYaml.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace pb::bundle {

using namespace gen;
using yaml::Node;

namespace {

constexpr char kDefaultChartName[] = "aicr-bundle";
constexpr char kDefaultParentName[] = "aicr-stack";
constexpr char kInCluster[] = "https://kubernetes.default.svc";
constexpr char kDefaultProject[] = "default";
constexpr char kResourcesFinalizer[] = "resources-finalizer.argocd.argoproj.io";
// Argo CD names the Helm release of a child after the Application; Helm allows 53 characters.
constexpr int kMaxChildName = 53;

// Patterns of the install-time deployer: values (values.schema.json) and of the bundle-time options.
const char* const kNamePrefixPattern = "^$|^[a-z0-9][a-z0-9-]*$";
const char* const kServerPattern = "^$|^https://[^'\"\\s@:/][^'\"\\s@]*$";
const char* const kProjectPattern = "^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
constexpr int kMaxSubdomain = 253;

bool matches(const char* pattern, const QString& text) {
    return QRegularExpression(QString::fromLatin1(pattern)).match(text).hasMatch();
}

bool isStrictSemVer(const QString& v) {
    static const QRegularExpression re(QStringLiteral(
        "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
        "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
        "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"));
    return re.match(v).hasMatch();
}

Status checkOptions(const GenerateOptions& o) {
    auto bad = [](const QString& field, const QString& why) { return makeError(why, {}, 0, field); };
    if (!o.chartName.isEmpty() && !QRegularExpression(QStringLiteral("^[a-z0-9]([-a-z0-9._]*[a-z0-9])?$"))
                                       .match(o.chartName)
                                       .hasMatch())
        return bad(
            QStringLiteral("chartName"),
            QStringLiteral("chart name '%1' is not a chart name (lower-case letters, digits, '-', '.', '_')")
                .arg(o.chartName));
    if (!o.chartVersion.isEmpty() && !isStrictSemVer(o.chartVersion))
        return bad(
            QStringLiteral("chartVersion"),
            QStringLiteral("chart version '%1' is not strict SemVer (e.g. 1.2.3)").arg(o.chartVersion));
    if (!o.appName.isEmpty() && !isDnsSubdomain(o.appName))
        return bad(QStringLiteral("--app-name"),
                   QStringLiteral("'%1' is not a DNS-1123 subdomain, which an Application name must be")
                       .arg(o.appName));
    if (!matches(kNamePrefixPattern, o.namePrefix))
        return bad(
            QStringLiteral("deployer:namePrefix"),
            QStringLiteral("name prefix '%1' must be lower-case letters, digits and '-', starting with a "
                           "letter or digit")
                .arg(o.namePrefix));
    if (!matches(kServerPattern, o.destinationServer))
        return bad(
            QStringLiteral("deployer:destinationServer"),
            QStringLiteral("destination server '%1' must be an https:// URL with a host and no credentials")
                .arg(o.destinationServer));
    if (!o.project.isEmpty() && !isDnsSubdomain(o.project))
        return bad(QStringLiteral("deployer:project"),
                   QStringLiteral("project '%1' is not a DNS-1123 subdomain").arg(o.project));
    return {};
}

bool fromRepository(const GenComponent& c) {
    return !c.kustomize && !c.source.isEmpty();
}

QString deployerValue(const char* key, const QString& fallback) {
    // The deployer: map may be missing or hold an empty value: both give the fallback.
    return QStringLiteral("{{ .Values.deployer | default dict | dig \"%1\" \"\" | default \"%2\" }}")
        .arg(QLatin1String(key), fallback);
}

QString childGuard(const QString& child, const QString& parentDefault) {
    return QStringLiteral("{{- $appName := print (.Values.deployer | default dict | dig \"namePrefix\" \"\") "
                          "\"%1\" -}}\n"
                          "{{- if gt (len $appName) %2 -}}\n"
                          "{{- fail (printf \"child Application %s has %d characters, more than the %2 Argo "
                          "CD can use as "
                          "a Helm release name: shorten deployer.namePrefix\" $appName (len $appName)) -}}\n"
                          "{{- end -}}\n"
                          "{{- if eq $appName (.Values.appName | default \"%3\" | toString) -}}\n"
                          "{{- fail (printf \"child Application %s would have the name of the parent "
                          "Application: change "
                          "deployer.namePrefix or appName\" $appName) -}}\n"
                          "{{- end -}}\n")
        .arg(child)
        .arg(kMaxChildName)
        .arg(parentDefault);
}

// The Helm values of a child Application: for a chart from a repository, its static values file
// with the install-time values of its component merged over them; for a folder chart (whose own
// values.yaml is the static part) the install-time values alone. `indent` places the rendered YAML
// inside the block scalar.
QString valuesTemplate(const QString& staticFile, const QString& overrideKey, int indent) {
    // Always more than one line: a string with a line break is written as a block scalar, the only
    // style in which the YAML the template renders stays one value.
    if (staticFile.isEmpty())
        return QStringLiteral("{{- $atInstall := index .Values \"%1\" | default dict }}\n"
                              "{{- toYaml $atInstall | nindent %2 }}")
            .arg(overrideKey)
            .arg(indent);
    return QStringLiteral("{{- $static := .Files.Get \"%1\" | fromYaml | default dict }}\n"
                          "{{- $atInstall := index .Values \"%2\" | default dict }}\n"
                          "{{- mergeOverwrite $static $atInstall | toYaml | nindent %3 }}")
        .arg(staticFile, overrideKey)
        .arg(indent);
}

// spec.source(s) of the argocd Application turned into the chart template's single source.
Status templateSource(Node& spec, const BundleFolder& f, const QString& overrideKey) {
    // encodeOrdered writes spec.source.helm.values at column 6; its content goes deeper.
    constexpr int kValuesIndent = 8;
    if (const Node* sources = spec.get("sources"); sources && sources->isSeq() && !sources->items.empty()) {
        const Node& chart = sources->items.front();
        const Node* repo = chart.get("repoURL");
        const Node* name = chart.get("chart");
        const Node* rev = chart.get("targetRevision");
        if (!repo || !name || !rev)
            return makeError(
                QStringLiteral("the Application of %1 names no chart repoURL, chart and targetRevision")
                    .arg(f.dir),
                f.dir + QStringLiteral("/application.yaml"), 0, QStringLiteral("spec.sources[0]"));
        Node source =
            kv({{"repoURL", *repo},
                {"chart", *name},
                {"targetRevision", *rev},
                {"helm", kv({{"values", s(valuesTemplate(QStringLiteral("static/%1.yaml").arg(f.component),
                                                         overrideKey, kValuesIndent))}})}});
        // The single source takes the place of the two (chart, and values from Git).
        for (yaml::MapEntry& e : spec.entries)
            if (e.key.scalar == "sources") {
                e.key = Node::str("source");
                e.value = source;
            }
        return {};
    }
    Node* source = spec.get("source");
    if (!source || !source->isMap() || !source->get("path"))
        return makeError(
            QStringLiteral("the Application of %1 has neither a chart source nor a path source").arg(f.dir),
            f.dir + QStringLiteral("/application.yaml"), 0, QStringLiteral("spec.source"));
    // The bundle chart is where it was pushed: the folder is a path inside that artifact.
    source->set(
        "repoURL",
        s(QStringLiteral("{{ required \"set repoURL to the registry or chart repository this bundle was "
                         "pushed to, without the chart name (--set repoURL=oci://REGISTRY/PATH)\" "
                         ".Values.repoURL | trimSuffix \"/\" }}/{{ .Chart.Name }}")));
    source->set("targetRevision", s(QStringLiteral("{{ .Values.targetRevision | default .Chart.Version }}")));
    source->set("helm", kv({{"values", s(valuesTemplate({}, overrideKey, kValuesIndent))}}));
    return {};
}

// One child Application template from the argocd Application of a folder.
Result<QByteArray> childTemplate(const QByteArray& application, const BundleFolder& f,
                                 const QString& overrideKey, const GenerateOptions& options,
                                 const QString& parentDefault) {
    const QString file = f.dir + QStringLiteral("/application.yaml");
    Result<Node> parsed = yaml::parse(application, file);
    if (!parsed)
        return parsed.error();
    Node app = *parsed;
    Node* metadata = app.get("metadata");
    Node* spec = app.get("spec");
    if (!metadata || !spec || !spec->isMap() || !spec->get("destination"))
        return makeError(QStringLiteral("not an Application with metadata, spec and spec.destination"), file);
    metadata->set(
        "name",
        s(QStringLiteral("{{ .Values.deployer | default dict | dig \"namePrefix\" \"\" }}") + f.name));
    if (options.cascadeDelete)
        metadata->set("finalizers", strSeq({QString::fromLatin1(kResourcesFinalizer)}));
    spec->set("project", s(deployerValue("project", QString::fromLatin1(kDefaultProject))));
    spec->get("destination")
        ->set("server", s(deployerValue("destinationServer", QString::fromLatin1(kInCluster))));
    if (Status st = templateSource(*spec, f, overrideKey); !st)
        return st.error();
    // A template comment, not a YAML one: the guard's trimming would join a YAML comment line to
    // the first line of the Application.
    return "{{- /* Child Application " + f.name.toUtf8() +
           " (written by Proofbench bundle generate) */ -}}\n" + childGuard(f.name, parentDefault).toUtf8() +
           encodeOrdered(app);
}

QByteArray valuesSchema() {
    auto text = [](const char* pattern) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                           {QStringLiteral("pattern"), QString::fromLatin1(pattern)}};
    };
    QJsonObject project = text(kProjectPattern);
    project.insert(QStringLiteral("maxLength"), kMaxSubdomain);
    const QJsonObject deployer{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("additionalProperties"), false},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("namePrefix"), text(kNamePrefixPattern)},
                     {QStringLiteral("destinationServer"), text(kServerPattern)},
                     {QStringLiteral("project"), project},
                     {QStringLiteral("includeRootApp"),
                      QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}}}}};
    const QJsonObject schema{
        {QStringLiteral("$schema"), QStringLiteral("http://json-schema.org/draft-07/schema#")},
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"), QJsonObject{{QStringLiteral("deployer"), deployer}}}};
    return QJsonDocument(schema).toJson(QJsonDocument::Indented);
}

// The chart's values.yaml: what can be given at install time, explained in its comment block.
QByteArray bundleValues(const Node& values) {
    QByteArray out = templateText(QStringLiteral("argocd-helm/values-header.yaml")) + "---\n";
    yaml::GoEncodeOptions o;
    o.indent = 2;
    o.sortKeys = true;
    if (!values.entries.empty())
        out += yaml::goEncode(values, o);
    return out;
}

} // namespace

Status writeArgoHelmChart(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                          const std::map<QString, const GenComponent*>& byName) {
    if (Status st = checkOptions(options); !st)
        return st;
    const QString chartName =
        options.chartName.isEmpty() ? QString::fromLatin1(kDefaultChartName) : options.chartName;
    QString chartVersion = options.chartVersion;
    if (chartVersion.isEmpty())
        chartVersion = normalizeVersion(input.recipeVersion);
    if (chartVersion.isEmpty())
        chartVersion = QStringLiteral("0.1.0");
    const QString parentName =
        options.appName.isEmpty() ? QString::fromLatin1(kDefaultParentName) : options.appName;

    // Install-time values and the static values of charts from repositories.
    Node values = Node::map();
    std::vector<const GenComponent*> components;
    for (const BundleFolder& f : tree.folders)
        if (f.phase == QLatin1String("primary"))
            components.push_back(byName.at(f.component));
    for (const GenComponent* c : components) {
        if (c->overrideKey.isEmpty())
            return makeError(
                QStringLiteral("component '%1' has no value override key (valueOverrideKeys in the "
                               "registry): argocd-helm keeps its install-time values under it")
                    .arg(c->name),
                {}, 0, QStringLiteral("valueOverrideKeys"));
        if (!fromRepository(*c)) {
            if (!c->dynamicPaths.isEmpty())
                return makeError(
                    QStringLiteral("component '%1' is a chart of the bundle (manifests or kustomize): "
                                   "argocd-helm has no install-time values for it, so it cannot have "
                                   "dynamic paths")
                        .arg(c->name),
                    {}, 0, QStringLiteral("--dynamic"));
            continue;
        }
        if (!c->dynamicPaths.isEmpty() || !c->clusterValues.entries.empty())
            values.set(c->overrideKey.toStdString(), c->clusterValues);
        put(tree, QStringLiteral("static/%1.yaml").arg(c->name),
            valuesFile(QStringLiteral("Static Helm values of %1").arg(c->name), c->values));
    }
    if (!options.appName.isEmpty())
        values.set("appName", s(options.appName));
    values.set("repoURL", s(options.repoUrl));
    values.set("targetRevision", s(QString()));
    values.set(
        "deployer",
        kv({{"namePrefix", s(options.namePrefix)},
            {"destinationServer", s(options.destinationServer.isEmpty() ? QString::fromLatin1(kInCluster)
                                                                        : options.destinationServer)},
            {"project",
             s(options.project.isEmpty() ? QString::fromLatin1(kDefaultProject) : options.project)},
            {"includeRootApp", Node::plain("true")}}));

    // Child Application templates, from the argocd Applications (which leave the bundle).
    QByteArray rows;
    for (const BundleFolder& f : tree.folders) {
        const GenComponent& c = *byName.at(f.component);
        const QString child = options.namePrefix + f.name;
        if (child.size() > kMaxChildName || !isDnsSubdomain(child))
            return makeError(
                QStringLiteral("child Application name '%1' is not a DNS-1123 name of at most %2 "
                               "characters (Argo CD uses it as the Helm release name)")
                    .arg(child)
                    .arg(kMaxChildName),
                {}, 0, QStringLiteral("componentRefs.name"));
        if (child == parentName || f.name == QLatin1String("aicr-stack"))
            return makeError(
                QStringLiteral("child Application '%1' has the name of the parent Application or of "
                               "its template; rename the component or change --app-name")
                    .arg(child),
                {}, 0, QStringLiteral("componentRefs.name"));
        const QString appFile = f.dir + QStringLiteral("/application.yaml");
        auto it = std::find_if(tree.files.begin(), tree.files.end(),
                               [&](const BundleFile& b) { return b.path == appFile; });
        if (it == tree.files.end())
            return makeError(QStringLiteral("the argocd layout wrote no Application for %1").arg(f.dir),
                             appFile);
        Result<QByteArray> t = childTemplate(
            it->bytes, f, c.overrideKey, options,
            options.appName.isEmpty() ? QString::fromLatin1(kDefaultParentName) : options.appName);
        if (!t)
            return t.error();
        tree.files.erase(it);
        put(tree, QStringLiteral("templates/%1.yaml").arg(f.name), *t);
        const QString src = f.kind == QLatin1String("upstream-helm")
                                ? QStringLiteral("%1 %2 (%3)").arg(effectiveChart(c), c.version, c.source)
                                : QStringLiteral("chart in %1/").arg(f.dir);
        rows += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                    .arg(f.dir, f.name)
                    .arg(f.syncWave)
                    .arg(f.namespace_, src)
                    .toUtf8();
    }

    QByteArray finalizers;
    if (options.cascadeDelete)
        finalizers = QByteArray("  finalizers:\n    - ") + kResourcesFinalizer + "\n";
    put(tree, QStringLiteral("templates/aicr-stack.yaml"),
        fill(templateText(QStringLiteral("argocd-helm/aicr-stack.yaml")), {{"FINALIZERS", finalizers}}));
    put(tree, QStringLiteral("Chart.yaml"),
        "# The bundle chart (written by Proofbench bundle generate)\napiVersion: v2\nname: \"" +
            chartName.toUtf8() +
            "\"\ndescription: AICR deployment bundle with dynamic install-time values\ntype: application\n"
            "version: \"" +
            chartVersion.toUtf8() + "\"\n");
    put(tree, QStringLiteral("values.yaml"), bundleValues(values));
    put(tree, QStringLiteral("values.schema.json"), valuesSchema());

    QByteArray dynamicFlags;
    for (const GenComponent* c : components)
        for (const QString& p : c->dynamicPaths)
            dynamicFlags += QStringLiteral("  --set %1.%2=VALUE \\\n").arg(c->overrideKey, p).toUtf8();
    put(tree, QStringLiteral("README.md"),
        fill(templateText(QStringLiteral("argocd-helm/README.md")),
             {{"RECIPE_VERSION", input.recipeVersion.toUtf8()},
              {"BUNDLER_VERSION", options.bundlerVersion.toUtf8()},
              {"CHART_NAME", chartName.toUtf8()},
              {"CHART_VERSION", chartVersion.toUtf8()},
              {"PARENT_NAME", parentName.toUtf8()},
              {"COMPONENT_ROWS", rows},
              {"DYNAMIC_FLAGS", dynamicFlags}}));
    return {};
}

} // namespace pb::bundle
