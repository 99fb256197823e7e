#include "bundle/GenHelmfile.h"

#include "bundle/GenCommon.h"

#include <QRegularExpression>

#include <set>

namespace pb::bundle {

using namespace gen;
using yaml::Node;

namespace {

// Components the helm deployer installs without waiting, and how long helm may take for them.
// Keep in step with ASYNC_COMPONENTS of the helm deployer's deploy.sh.
struct AsyncComponent {
    const char* name;
    int timeoutSeconds;
};
constexpr AsyncComponent kAsyncComponents[] = {{"kai-scheduler", 20 * 60}};

constexpr int kDefaultTimeoutSeconds = 10 * 60;

struct Repository {
    QString alias, url;
    bool oci = false;
};

// The repositories: entry of an upstream chart and the alias its release names the chart by.
Repository repositoryOf(const GenComponent& c) {
    Repository r;
    r.alias = urlSlug(c.source, QStringLiteral("default-repo"));
    r.oci = c.source.startsWith(QLatin1String("oci://"));
    // helmfile adds oci:// itself when oci: true; a URL that has it already would be doubled.
    r.url = r.oci ? c.source.mid(6) : c.source;
    return r;
}

// A needs: entry: a release of another namespace is named <namespace>/<release>.
QString needsRef(const QString& ownNamespace, const QString& depNamespace, const QString& depName) {
    return depNamespace.isEmpty() || depNamespace == ownNamespace ? depName
                                                                  : depNamespace + QLatin1Char('/') + depName;
}

bool createsOwnNamespace(const BundleTree& tree, const QString& dir) {
    static const QRegularExpression namespaceKind(QStringLiteral("^kind:\\s+Namespace\\s*$"),
                                                  QRegularExpression::MultilineOption);
    const QString prefix = dir + QStringLiteral("/templates/");
    for (const BundleFile& f : tree.files)
        if (f.path.startsWith(prefix) && namespaceKind.match(QString::fromUtf8(f.bytes)).hasMatch())
            return true;
    return false;
}

bool hasClusterValues(const GenComponent& c) {
    return !c.dynamicPaths.isEmpty() || (c.clusterValues.isMap() && !c.clusterValues.entries.empty());
}

// One helmfile document for the folders given (in deployment order).
Node helmfileDocument(const BundleTree& tree, const std::vector<const BundleFolder*>& folders,
                      const std::map<QString, const GenComponent*>& byName, bool serial) {
    std::map<QString, Repository> repositories; // by alias
    Node releases = Node::seq();
    QString prevName, prevNamespace;
    std::map<QString, std::pair<QString, QString>> lastOfComponent; // component -> release, namespace
    for (const BundleFolder* f : folders) {
        const GenComponent& c = *byName.at(f->component);
        Node r = Node::map();
        r.set("name", s(f->name));
        r.set("namespace", s(f->namespace_));
        if (f->kind == QLatin1String("upstream-helm")) {
            const Repository repo = repositoryOf(c);
            repositories[repo.alias] = repo;
            r.set("chart", s(repo.alias + QLatin1Char('/') + effectiveChart(c)));
            if (!c.version.isEmpty()) // the repository's newest chart otherwise
                r.set("version", s(c.version));
        } else {
            r.set("chart", s(QStringLiteral("./") + f->dir));
        }
        QStringList values = {QStringLiteral("./%1/values.yaml").arg(f->dir)};
        if (hasClusterValues(c))
            values << QStringLiteral("./%1/cluster-values.yaml").arg(f->dir);
        r.set("values", strSeq(values));
        QString need;
        if (serial) {
            if (!prevName.isEmpty())
                need = needsRef(f->namespace_, prevNamespace, prevName);
        } else if (auto it = lastOfComponent.find(c.name); it != lastOfComponent.end()) {
            need = needsRef(f->namespace_, it->second.second, it->second.first);
        }
        if (!need.isEmpty())
            r.set("needs", strSeq({need}));
        for (const AsyncComponent& a : kAsyncComponents)
            if (c.name == QLatin1String(a.name)) {
                r.set("wait", Node::plain("false"));
                r.set("timeout", Node::plain(std::to_string(a.timeoutSeconds)));
            }
        if (f->kind == QLatin1String("local-helm") && createsOwnNamespace(tree, f->dir))
            r.set("createNamespace", Node::plain("false"));
        const bool validationOff = (f->phase == QLatin1String("primary") && c.selfReferencingCrds) ||
                                   (f->phase == QLatin1String("post") && c.manifestsUseChartCrds);
        if (validationOff)
            r.set("disableValidation", Node::plain("true"));
        releases.items.push_back(std::move(r));
        prevName = f->name;
        prevNamespace = f->namespace_;
        lastOfComponent[c.name] = {f->name, f->namespace_};
    }
    Node doc = Node::map();
    if (!repositories.empty()) {
        Node repos = Node::seq();
        for (const auto& [alias, repo] : repositories) {
            Node e = kv({{"name", s(alias)}, {"url", s(repo.url)}});
            if (repo.oci)
                e.set("oci", Node::plain("true"));
            repos.items.push_back(std::move(e));
        }
        doc.set("repositories", repos);
    }
    doc.set("helmDefaults", kv({{"wait", Node::plain("true")},
                                {"timeout", Node::plain(std::to_string(kDefaultTimeoutSeconds))},
                                {"createNamespace", Node::plain("true")}}));
    doc.set("releases", releases);
    return doc;
}

} // namespace

Status writeHelmfileTop(BundleTree& tree, const GenerateInput& input, const GenerateOptions& options,
                        const std::map<QString, const GenComponent*>& byName) {
    std::map<int, std::vector<const BundleFolder*>> byLevel;
    std::vector<const BundleFolder*> all;
    for (const BundleFolder& f : tree.folders) {
        byLevel[f.level].push_back(&f);
        all.push_back(&f);
    }
    const bool leveled = byLevel.size() > 1;
    if (leveled) {
        Node list = Node::seq();
        for (const auto& [level, folders] : byLevel) {
            const QString file = QStringLiteral("level-%1.yaml").arg(level);
            put(tree, file, encodeOrdered(helmfileDocument(tree, folders, byName, options.serial)));
            list.items.push_back(kv({{"path", s(file)}}));
        }
        put(tree, QStringLiteral("helmfile.yaml"), encodeOrdered(kv({{"helmfiles", list}})));
    } else {
        put(tree, QStringLiteral("helmfile.yaml"),
            encodeOrdered(helmfileDocument(tree, all, byName, options.serial)));
    }

    QByteArray rows;
    bool dynamic = false;
    std::set<QString> listed;
    for (const BundleFolder& f : tree.folders) {
        const GenComponent& c = *byName.at(f.component);
        dynamic = dynamic || hasClusterValues(c);
        if (!listed.insert(c.name).second)
            continue;
        rows += QStringLiteral("| %1 | %2 | %3 |\n")
                    .arg(c.name, c.namespace_, c.version.isEmpty() ? c.tag : c.version)
                    .toUtf8();
    }
    const QByteArray levels =
        leveled
            ? QByteArray(
                  "\nThe components depend on each other in more than one level, so `helmfile.yaml` only "
                  "lists\n`level-N.yaml` files, one per dependency level. helmfile applies them in order, "
                  "so every\nrelease of a level (and the CRDs it installs) is in place before the next "
                  "level is diffed\nor applied.\n")
            : QByteArray();
    const QByteArray clusterValues =
        dynamic
            ? QByteArray("\n## Per-cluster values\n\nSome releases read a `cluster-values.yaml` beside their "
                         "`values.yaml`: fill in those\ninstall-time values for your cluster before "
                         "`helmfile apply`.\n")
            : QByteArray();
    put(tree, QStringLiteral("README.md"),
        fill(templateText(QStringLiteral("helmfile/README.md")),
             {{"RECIPE_VERSION", input.recipeVersion.toUtf8()},
              {"BUNDLER_VERSION", options.bundlerVersion.toUtf8()},
              {"COMPONENT_ROWS", rows},
              {"LEVELS", levels},
              {"CLUSTER_VALUES", clusterValues}}));
    return {};
}

} // namespace pb::bundle
