// proofbench bundle generate: write the deployment bundle of a recipe in the layout AICR writes for one of
// its deployers (helm, argocd, argocd-helm, flux, helmfile)
#include "cli/BundleGenerateSupport.h"

namespace pb::cli {

namespace {

// --set deployer:KEY=VALUE (AICR's form): the child Application defaults of argocd-helm.
Status applyDeployerSet(const QString& set, bundle::GenerateOptions& options) {
    const QString body = set.mid(QStringLiteral("deployer:").size());
    const qsizetype eq = body.indexOf(QLatin1Char('='));
    const QString key = body.left(eq), value = eq < 0 ? QString() : body.mid(eq + 1);
    if (eq <= 0)
        return makeError(QStringLiteral("'%1' is not deployer:KEY=VALUE").arg(set), {}, 0,
                         QStringLiteral("--set"));
    if (options.deployer != bundle::Deployer::ArgoCDHelm)
        return makeError(QStringLiteral("'%1': deployer options are for --deployer argocd-helm").arg(set), {},
                         0, QStringLiteral("--set"));
    if (key == QLatin1String("namePrefix"))
        options.namePrefix = value;
    else if (key == QLatin1String("destinationServer"))
        options.destinationServer = value;
    else if (key == QLatin1String("project"))
        options.project = value;
    else if (key == QLatin1String("cascadeDelete") &&
             (value == QLatin1String("true") || value == QLatin1String("false")))
        options.cascadeDelete = value == QLatin1String("true");
    else
        return makeError(QStringLiteral("'%1': expected deployer:namePrefix, deployer:destinationServer, "
                                        "deployer:project or deployer:cascadeDelete=true|false")
                             .arg(set),
                         {}, 0, QStringLiteral("--set"));
    return {};
}

// The generation options of the flags; an error is a usage error.
Result<bundle::GenerateOptions> generateOptions(const QCommandLineParser& p, bundle::Deployer deployer) {
    bundle::GenerateOptions options;
    options.deployer = deployer;
    for (const QString& set : p.values(QStringLiteral("set"))) {
        if (!set.startsWith(QLatin1String("deployer:"))) {
            options.sets << set;
            continue;
        }
        if (Status st = applyDeployerSet(set, options); !st)
            return st.error();
    }
    options.dynamicValues = p.values(QStringLiteral("dynamic"));
    options.readinessHooks = p.isSet(QStringLiteral("readiness-hooks"));
    options.serial = p.isSet(QStringLiteral("serial"));
    options.fluxNamespace = p.value(QStringLiteral("flux-namespace"));
    options.appName = p.value(QStringLiteral("app-name"));
    auto accel = selectorFrom(p.values(QStringLiteral("accelerated-node-selector")),
                              QStringLiteral("--accelerated-node-selector"));
    auto workload =
        selectorFrom(p.values(QStringLiteral("workload-selector")), QStringLiteral("--workload-selector"));
    if (!accel)
        return accel.error();
    if (!workload)
        return workload.error();
    options.acceleratedNodeSelector = *accel;
    options.workloadSelector = *workload;
    options.acceleratedNodeTolerations = p.values(QStringLiteral("accelerated-node-toleration"));
    options.storageClass = p.value(QStringLiteral("storage-class"));
    if (p.isSet(QStringLiteral("estimated-node-count"))) {
        bool ok = false;
        options.estimatedNodeCount = p.value(QStringLiteral("estimated-node-count")).toInt(&ok);
        if (!ok || options.estimatedNodeCount <= 0 || options.estimatedNodeCount > 100000)
            return makeError(QStringLiteral("--estimated-node-count needs a whole number from 1 to 100000"));
    }
    options.repoUrl = p.value(QStringLiteral("repo-url"));
    options.targetRevision = p.value(QStringLiteral("target-revision"));
    return options;
}

// request.recipe and its label: the --recipe file, or the recipe resolved for --leaf or the criteria.
// Returns the exit code when it fails.
std::optional<int> recipeOf(const QCommandLineParser& p, const catalog::Catalog& cat,
                            const QString& catalogLabel, const QString& verb,
                            ops::BundleGenerateRequest& request) {
    if (p.isSet(QStringLiteral("recipe"))) {
        const QString file = p.value(QStringLiteral("recipe"));
        Result<QByteArray> bytes = readFile(file);
        if (!bytes)
            return fail(bytes.error());
        Result<catalog::RecipeResult> r = catalog::parseRecipeResult(*bytes, file);
        if (!r)
            return fail(r.error());
        request.recipe = std::move(*r);
        request.recipeLabel = file;
        return std::nullopt;
    }
    Result<catalog::ResolveOptions> ropt = resolveOptionsFrom(p);
    if (!ropt)
        return usage(ropt.error().toString(), verb);
    Result<catalog::Criteria> query = catalog::Criteria{};
    if (p.isSet(QStringLiteral("leaf"))) {
        const QString leaf = p.value(QStringLiteral("leaf"));
        if (!cat.leafNames().contains(leaf))
            return fail(makeError(QStringLiteral("'%1' is not a leaf overlay of this catalog").arg(leaf),
                                  catalogLabel, 0, QStringLiteral("--leaf")));
        query = catalog::leafCriteria(cat, leaf);
        request.recipeLabel = QStringLiteral("leaf ") + leaf;
    } else {
        query = criteriaFrom(p, cat);
        if (query)
            request.recipeLabel = query->summary();
    }
    if (!query)
        return fail(query.error());
    Result<catalog::RecipeResult> r = catalog::resolve(cat, *query, *ropt);
    if (!r)
        return fail(r.error());
    request.recipe = std::move(*r);
    return std::nullopt;
}

void printGenerated(const QCommandLineParser& p, const bundle::GenerateOptions& options,
                    const ops::BundleGenerateOutcome& done) {
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray folders;
        for (const bundle::BundleFolder& f : done.tree.folders)
            folders.append(QJsonObject{{QStringLiteral("dir"), f.dir},
                                       {QStringLiteral("name"), f.name},
                                       {QStringLiteral("component"), f.component},
                                       {QStringLiteral("kind"), f.kind},
                                       {QStringLiteral("namespace"), f.namespace_},
                                       {QStringLiteral("syncWave"), f.syncWave}});
        printJson(QJsonObject{{QStringLiteral("out"), done.outDir},
                              {QStringLiteral("deployer"), bundle::deployerName(options.deployer)},
                              {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + done.treeDigest},
                              {QStringLiteral("files"), static_cast<int>(done.tree.files.size())},
                              {QStringLiteral("folders"), folders},
                              {QStringLiteral("sealed"), done.sealed},
                              {QStringLiteral("receipt"), done.receiptSeq}});
    } else {
        out() << "wrote " << bundle::deployerName(options.deployer) << " bundle " << done.outDir << ": "
              << done.tree.folders.size() << " install steps, " << done.tree.files.size()
              << " files, tree digest sha256:" << done.treeDigest << (done.sealed ? ", sealed" : "")
              << Qt::endl;
    }
}

} // namespace

static int bundleGenerate(const QCommandLineParser& p) {
    const QString verb = QStringLiteral("bundle generate");
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().constFirst()),
                     verb);
    if (!p.isSet(QStringLiteral("deployer")))
        return usage(QStringLiteral("give --deployer %1").arg(bundle::deployerNames().join(QLatin1Char('|'))),
                     verb);
    Result<bundle::Deployer> deployer = bundle::parseDeployer(p.value(QStringLiteral("deployer")));
    if (!deployer)
        return usage(deployer.error().message, verb);
    const bool hasDir = p.isSet(QStringLiteral("catalog")), hasLabel = p.isSet(QStringLiteral("version"));
    const bool hasRecipe = p.isSet(QStringLiteral("recipe")), hasLeaf = p.isSet(QStringLiteral("leaf"));
    if (hasDir && hasLabel)
        return usage(QStringLiteral("give one of --catalog DIR or --version LABEL"), verb);
    if (!hasRecipe && !hasDir && !hasLabel)
        return usage(QStringLiteral(
                         "give --catalog DIR or --version LABEL (with criteria or --leaf), or --recipe FILE"),
                     verb);
    if (hasRecipe && (hasLeaf || anyCriteria(p)))
        return usage(QStringLiteral("--recipe takes the place of criteria and --leaf"), verb);
    if (hasLeaf && anyCriteria(p))
        return usage(QStringLiteral("--leaf takes the place of criteria flags; give one or the other"), verb);
    Result<bundle::GenerateOptions> options = generateOptions(p, *deployer);
    if (!options)
        return usage(options.error().toString(), verb);

    catalog::Catalog cat;
    QString catalogLabel;
    if (hasDir || hasLabel) {
        Result<catalog::Catalog> loaded = catalogFrom(p);
        if (!loaded)
            return fail(loaded.error());
        cat = std::move(*loaded);
        catalogLabel = hasDir ? p.value(QStringLiteral("catalog")) : p.value(QStringLiteral("version"));
    }
    ops::BundleGenerateRequest request;
    if (std::optional<int> failed = recipeOf(p, cat, catalogLabel, verb, request))
        return *failed;
    request.catalog = &cat;
    request.catalogLabel = catalogLabel;
    request.options = *options;
    request.outDir = p.value(QStringLiteral("out"));
    if (p.isSet(QStringLiteral("key"))) {
        auto pass = passphraseFrom(
            p, QStringLiteral("Passphrase for %1: ").arg(p.value(QStringLiteral("key"))), false);
        if (!pass)
            return fail(pass.error());
        request.key = ops::SigningKey{p.value(QStringLiteral("key")), std::move(*pass)};
    }
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<ops::BundleGenerateOutcome> done = ops::bundleGenerate(ops::Context(**db), request);
    if (!done)
        return fail(done.error());
    printGenerated(p, *options, *done);
    return kOk;
}

Command bundleGenerateCommand() {
    Command p(
        QStringLiteral("bundle generate"),
        QStringLiteral("write the deployment bundle of a recipe in the layout of an AICR deployer (helm, "
                       "argocd, argocd-helm, flux, helmfile)"),
        QStringLiteral("Write the deployment bundle of a recipe in the layout AICR writes for the deployer "
                       "given: helm (install scripts and deploy.sh), argocd (Applications and an "
                       "app-of-apps), argocd-helm (a Helm chart of Applications with install-time values), "
                       "flux (HelmReleases and their sources) or helmfile (helmfile.yaml, one file per "
                       "dependency level)."));
    addDb(p);
    addPassphraseEnv(p);
    p.addOption({QStringLiteral("catalog"), QStringLiteral("Resolve against a catalog directory."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("version"), QStringLiteral("Resolve against an imported catalog version."),
                 QStringLiteral("LABEL")});
    addCriteriaOptions(p);
    p.addOption({QStringLiteral("leaf"), QStringLiteral("Use the criteria of this leaf overlay."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("recipe"),
                 QStringLiteral("A RecipeResult file instead of resolving (with --catalog/--version "
                                "when it names values or manifest files)."),
                 QStringLiteral("FILE")});
    p.addOption(
        {QStringLiteral("deployer"),
         QStringLiteral("The deployer whose layout to write: helm, argocd, argocd-helm, flux or helmfile."),
         QStringLiteral("D")},
        {}, bundle::deployerNames().join(QLatin1Char('|')));
    p.addOption({QStringLiteral("out"), QStringLiteral("Output folder (default ./bundle)."),
                 QStringLiteral("DIR"), QStringLiteral("bundle")});
    p.addOption(
        {QStringLiteral("set"),
         QStringLiteral("Value override component.path=value (repeatable); deployer:KEY=VALUE sets an "
                        "argocd-helm child Application default (namePrefix, destinationServer, project, "
                        "cascadeDelete)."),
         QStringLiteral("C.PATH=V")});
    p.addOption({QStringLiteral("dynamic"),
                 QStringLiteral("An install-time value path component:path, left out of the static values "
                                "(repeatable): cluster-values.yaml (helm, helmfile), the chart's values.yaml "
                                "(argocd-helm), a ConfigMap (flux); argocd refuses it."),
                 QStringLiteral("C:PATH")});
    p.addOption({QStringLiteral("readiness-hooks"),
                 QStringLiteral("A readiness gate after each component the catalog has "
                                "components/<name>/readiness.yaml for (helm, argocd, argocd-helm).")});
    p.addOption(
        {QStringLiteral("serial"),
         QStringLiteral("One component at a time instead of by dependency level (argocd, argocd-helm, "
                        "flux, helmfile; helm is serial).")});
    p.addOption({QStringLiteral("accelerated-node-selector"),
                 QStringLiteral("GPU node selector key=value (repeatable)."), QStringLiteral("K=V")});
    p.addOption({QStringLiteral("accelerated-node-toleration"),
                 QStringLiteral("GPU node toleration key=value:Effect (repeatable)."), QStringLiteral("T")});
    p.addOption({QStringLiteral("workload-selector"),
                 QStringLiteral("Workload node selector key=value (repeatable)."), QStringLiteral("K=V")});
    p.addOption({QStringLiteral("storage-class"),
                 QStringLiteral("StorageClass for components that declare storage paths."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("estimated-node-count"),
                 QStringLiteral("Node count for components that size by it."), QStringLiteral("N")});
    p.addOption(
        {QStringLiteral("repo-url"),
         QStringLiteral("argocd, flux: the Git repository the bundle is published to; argocd-helm: the "
                        "registry or chart repository it is pushed to, without the chart name."),
         QStringLiteral("URL")});
    p.addOption({QStringLiteral("target-revision"),
                 QStringLiteral("argocd, flux: the revision of that repository (default main)."),
                 QStringLiteral("REV")});
    p.addOption({QStringLiteral("app-name"),
                 QStringLiteral("argocd, argocd-helm: the parent Application's name (default nvidia-stack, "
                                "aicr-stack)."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("flux-namespace"),
                 QStringLiteral("flux: the namespace of the Flux objects (default flux-system)."),
                 QStringLiteral("NS")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Seal the bundle with this key (as `bundle sign`)."),
                 QStringLiteral("KEY")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = bundleGenerate;
    return p;
}

} // namespace pb::cli
