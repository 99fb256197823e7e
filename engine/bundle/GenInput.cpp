// GenerateInput from a resolved recipe and its catalog, and the one-call generate().
#include "bundle/GenKustomize.h"
#include "bundle/Generate.h"

#include "bundle/GenValues.h"
#include "catalog/Digest.h"

namespace pb::bundle {

using yaml::Node;

namespace {

void deepMerge(Node& into, const Node& from) {
    for (const yaml::MapEntry& e : from.entries) {
        Node* existing = into.get(e.key.scalar);
        if (e.value.isMap() && existing && existing->isMap())
            deepMerge(*existing, e.value);
        else if (existing)
            *existing = e.value;
        else
            into.entries.push_back(e);
    }
}

// Sets `value` at a dotted path, creating maps on the way; a scalar in the way is replaced.
void setPath(Node& root, const QString& dotted, const Node& value) {
    Node* n = &root;
    const QStringList keys = dotted.split(QLatin1Char('.'));
    for (int i = 0; i < keys.size(); ++i) {
        if (!n->isMap())
            *n = Node::map();
        const std::string k = keys[i].toStdString();
        if (i == keys.size() - 1) {
            n->set(k, value);
            return;
        }
        if (!n->get(k))
            n->set(k, Node::map());
        n = n->get(k);
    }
}

QStringList pathsAt(const Node* node, std::initializer_list<const char*> keys) {
    const Node* n = node;
    for (const char* k : keys) {
        if (!n || !n->isMap())
            return {};
        n = n->get(k);
    }
    QStringList out;
    if (n && n->isSeq())
        for (const Node& i : n->items)
            out << i.text();
    return out;
}

Node selectorNode(const QMap<QString, QString>& selector) {
    Node m = Node::map();
    for (auto it = selector.begin(); it != selector.end(); ++it)
        m.set(it.key().toStdString(), Node::str(it.value().toStdString()));
    return m;
}

// "key=value:Effect", "key:Effect", "key=value" or "*" (tolerate everything), as AICR's flag reads it.
Result<Node> tolerationNode(const QString& text) {
    Node t = Node::map();
    if (text == QLatin1String("*")) {
        t.set("operator", Node::str("Exists"));
        return t;
    }
    QString body = text, effect;
    if (const qsizetype colon = text.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        body = text.left(colon);
        effect = text.mid(colon + 1);
    }
    QString key = body, value;
    if (const qsizetype eq = body.indexOf(QLatin1Char('=')); eq >= 0) {
        key = body.left(eq);
        value = body.mid(eq + 1);
    }
    if (key.isEmpty())
        return makeError(QStringLiteral("toleration '%1' has no key (expected key=value:Effect)").arg(text),
                         {}, 0, QStringLiteral("--accelerated-node-toleration"));
    t.set("key", Node::str(key.toStdString()));
    t.set("operator", Node::str(value.isEmpty() ? "Exists" : "Equal"));
    if (!value.isEmpty())
        t.set("value", Node::str(value.toStdString()));
    if (!effect.isEmpty())
        t.set("effect", Node::str(effect.toStdString()));
    return t;
}

// --set values, path and value, by component.
using ComponentSets = std::map<QString, std::vector<std::pair<QString, QString>>>;

// --set component.path=value, grouped by component.
Result<ComponentSets> parseSets(const QStringList& options, const catalog::RecipeResult& recipe) {
    ComponentSets sets;
    for (const QString& s : options) {
        const qsizetype eq = s.indexOf(QLatin1Char('='));
        const qsizetype dot = s.indexOf(QLatin1Char('.'));
        if (eq <= 0 || dot <= 0 || dot > eq || dot == eq - 1)
            return makeError(QStringLiteral("'%1' is not component.path=value").arg(s), {}, 0,
                             QStringLiteral("--set"));
        const QString comp = s.left(dot);
        if (!recipe.component(comp))
            return makeError(QStringLiteral("'%1': the recipe has no component '%2'").arg(s, comp), {}, 0,
                             QStringLiteral("--set"));
        sets[comp].push_back({s.mid(dot + 1, eq - dot - 1), s.mid(eq + 1)});
    }
    return sets;
}

Result<QByteArray> readCatalogFile(const catalog::Catalog& catalog, const QString& path,
                                   const QString& component, const QString& field) {
    const catalog::CatalogFile* f = catalog.file(path);
    if (!f)
        return makeError(
            QStringLiteral("component '%1' names %2, which the catalog does not have").arg(component, path),
            catalog.root, 0, field);
    return f->bytes;
}

// The node selectors, tolerations, storage class and node count of the options, written at the
// paths the registry names for the component.
void applyScheduling(Node& values, const catalog::RegistryComponent& reg, const GenerateOptions& options,
                     const Node& tolerations) {
    const Node* node = &reg.node;
    if (!options.acceleratedNodeSelector.isEmpty())
        for (const QString& p : pathsAt(node, {"nodeScheduling", "accelerated", "nodeSelectorPaths"}))
            setPath(values, p, selectorNode(options.acceleratedNodeSelector));
    if (!tolerations.items.empty())
        for (const QString& p : pathsAt(node, {"nodeScheduling", "accelerated", "tolerationPaths"}))
            setPath(values, p, tolerations);
    if (!options.workloadSelector.isEmpty())
        for (const QString& p : pathsAt(node, {"podScheduling", "workload", "workloadSelectorPaths"}))
            setPath(values, p, selectorNode(options.workloadSelector));
    if (!options.storageClass.isEmpty())
        for (const QString& p : pathsAt(node, {"storageClassPaths"}))
            setPath(values, p, Node::str(options.storageClass.toStdString()));
    if (options.estimatedNodeCount > 0)
        for (const QString& p : pathsAt(node, {"nodeScheduling", "nodeCountPaths"}))
            setPath(values, p, Node::plain(std::to_string(options.estimatedNodeCount)));
}

// A component's Helm values: its values file, its overrides, the scheduling options, then --set.
Result<Node> componentValues(const catalog::Catalog& catalog, const catalog::ComponentRef& ref,
                             const GenerateOptions& options, const Node& tolerations,
                             const ComponentSets& sets) {
    Node values = Node::map();
    if (!ref.valuesFile.isEmpty()) {
        Result<QByteArray> bytes =
            readCatalogFile(catalog, ref.valuesFile, ref.name, QStringLiteral("valuesFile"));
        if (!bytes)
            return bytes.error();
        Result<Node> parsed = yaml::parse(*bytes, ref.valuesFile);
        if (!parsed)
            return parsed.error();
        if (parsed->isMap())
            values = *parsed;
        else if (!parsed->isNull())
            return makeError(QStringLiteral("values file is not a mapping"), ref.valuesFile);
    }
    if (ref.overrides.isMap())
        deepMerge(values, ref.overrides);
    if (const catalog::RegistryComponent* reg = catalog.component(ref.name))
        applyScheduling(values, *reg, options, tolerations);
    if (auto it = sets.find(ref.name); it != sets.end())
        for (const auto& [path, value] : it->second)
            setPath(values, path, Node::plain(value.toStdString()));
    return values;
}

// The manifests a component lists, read from the catalog.
Status readManifests(const catalog::Catalog& catalog, const catalog::ComponentRef& ref,
                     const QStringList& files, const QString& field, std::vector<GenManifest>& out) {
    for (const QString& m : files) {
        Result<QByteArray> bytes = readCatalogFile(catalog, m, ref.name, field);
        if (!bytes)
            return bytes.error();
        out.push_back({m, *bytes});
    }
    return {};
}

bool flagAt(const Node& node, const char* key) {
    const Node* v = node.isMap() ? node.get(key) : nullptr;
    return v && v->isScalar() && v->resolve() == yaml::Resolved::Bool &&
           (v->scalar == "true" || v->scalar == "True" || v->scalar == "TRUE");
}

// --readiness-hooks: components/<name>/readiness.yaml of the catalog, a chainsaw Test, when there is one.
Status readReadinessTest(const catalog::Catalog& catalog, GenComponent& c) {
    const QString path = QStringLiteral("components/%1/readiness.yaml").arg(c.name);
    const catalog::CatalogFile* f = catalog.file(path);
    if (!f)
        return {};
    Result<Node> doc = yaml::parse(f->bytes, path);
    if (!doc)
        return doc.error();
    const Node* api = doc->isMap() ? doc->get("apiVersion") : nullptr;
    const Node* kind = doc->isMap() ? doc->get("kind") : nullptr;
    if (!api || !api->text().contains(QLatin1String("chainsaw.kyverno.io")))
        return makeError(
            QStringLiteral("a readiness gate must be a chainsaw Test (apiVersion chainsaw.kyverno.io/*)"),
            path, api ? api->line : 0, QStringLiteral("apiVersion"));
    if (!kind || kind->text() != QLatin1String("Test"))
        return makeError(QStringLiteral("a readiness gate must be a chainsaw Test (kind: Test)"), path,
                         kind ? kind->line : 0, QStringLiteral("kind"));
    c.readinessTest = f->bytes;
    return {};
}

} // namespace

void applyRegistryEntry(GenComponent& c, const catalog::RegistryComponent& entry) {
    const QStringList keys = pathsAt(&entry.node, {"valueOverrideKeys"});
    if (!keys.isEmpty())
        c.overrideKey = keys.constFirst();
    c.selfReferencingCrds = flagAt(entry.node, "hasSelfRefCRDs");
    c.manifestsUseChartCrds = flagAt(entry.node, "manifestsUseChartCRDs");
}

Result<GenerateInput> inputFromRecipe(const catalog::Catalog& catalog, const catalog::RecipeResult& recipe,
                                      const GenerateOptions& options) {
    GenerateInput in;
    in.recipeVersion = recipe.version;
    in.criteria = recipe.criteria;
    in.constraints = recipe.constraints;
    in.deploymentOrder = recipe.deploymentOrder;
    in.recipeYaml = catalog::deterministicYaml(recipe);

    Node tolerations = Node::seq();
    for (const QString& t : options.acceleratedNodeTolerations) {
        Result<Node> n = tolerationNode(t);
        if (!n)
            return n.error();
        tolerations.items.push_back(*n);
    }
    Result<ComponentSets> sets = parseSets(options.sets, recipe);
    if (!sets)
        return sets.error();

    for (const catalog::ComponentRef& ref : recipe.componentRefs) {
        if (!ref.isEnabled())
            continue;
        GenComponent c;
        c.name = ref.name;
        c.namespace_ = ref.namespace_;
        c.chart = ref.chart;
        c.source = ref.source;
        c.version = ref.version;
        c.tag = ref.tag;
        c.path = ref.path;
        c.kustomize = ref.type.compare(QLatin1String("kustomize"), Qt::CaseInsensitive) == 0;
        c.dependencyRefs = ref.dependencyRefs;
        if (c.kustomize) {
            // Built as AICR builds it: <source>//<path>?ref=<tag>, read with libgit2 at the pinned
            // revision (a remote source is cloned), the output the wrapper chart's one template.
            Result<KustomizeBuilt> built =
                kustomizeBuildSource(KustomizeSource{ref.source, ref.path, ref.tag}, catalog.root);
            if (!built)
                return makeError(
                    QStringLiteral("Kustomize component '%1': %2").arg(ref.name, built.error().toString()),
                    catalog.root, 0,
                    QStringLiteral("componentRefs[%1].%2")
                        .arg(ref.name,
                             built.error().field.isEmpty() ? QStringLiteral("source") : built.error().field));
            c.kustomizeBuilt = built->manifest;
            c.kustomizeCommit = built->commit;
        }
        Result<Node> values = componentValues(catalog, ref, options, tolerations, *sets);
        if (!values)
            return values.error();
        c.values = *values;
        if (Status s = readManifests(catalog, ref, ref.preManifestFiles, QStringLiteral("preManifestFiles"),
                                     c.preManifests);
            !s)
            return s.error();
        if (Status s = readManifests(catalog, ref, ref.manifestFiles, QStringLiteral("manifestFiles"),
                                     c.postManifests);
            !s)
            return s.error();
        if (const catalog::RegistryComponent* reg = catalog.component(ref.name))
            applyRegistryEntry(c, *reg);
        if (options.readinessHooks)
            if (Status s = readReadinessTest(catalog, c); !s)
                return s.error();
        in.components.push_back(std::move(c));
    }
    // --dynamic names a component or one of its value override keys.
    std::map<QString, QString> overrideKeys;
    for (const catalog::ComponentRef& ref : recipe.componentRefs)
        if (const catalog::RegistryComponent* reg = catalog.component(ref.name))
            for (const QString& k : pathsAt(&reg->node, {"valueOverrideKeys"}))
                overrideKeys.emplace(k, ref.name);
    if (Status s = applyDynamicOptions(options.dynamicValues, in.components, overrideKeys); !s)
        return s.error();
    return in;
}

Result<BundleTree> generate(const catalog::Catalog& catalog, const catalog::RecipeResult& recipe,
                            const GenerateOptions& options, const QString& dir, const GenProgressFn& progress,
                            const std::atomic_bool* cancel) {
    Result<GenerateInput> in = inputFromRecipe(catalog, recipe, options);
    if (!in)
        return in.error();
    Result<BundleTree> tree = render(*in, options, cancel);
    if (!tree)
        return tree.error();
    if (Status st = writeTree(*tree, dir, progress, cancel); !st)
        return st.error();
    return tree;
}

} // namespace pb::bundle
