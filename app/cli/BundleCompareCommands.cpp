// bundle import | list | show | diff: deployment bundles of any AICR deployer read as structured
// data, stored, shown and compared (ops/BundleImport.h, ops/BundleDiff.h).
#include "cli/Commands.h"
#include "cli/CliUtil.h"

#include "ops/BundleDiff.h"
#include "ops/BundleImport.h"
#include "store/BundleStore.h"
#include "store/CatalogStore.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pb::cli {

namespace model = bundle::model;

namespace {

std::optional<model::Deployer> deployerOption(const QCommandLineParser& p, bool* bad) {
    *bad = false;
    if (!p.isSet(QStringLiteral("deployer")))
        return std::nullopt;
    auto d = model::parseDeployer(p.value(QStringLiteral("deployer")));
    *bad = !d;
    return d;
}

QString fieldText(const model::Field& f) {
    return f.isEmpty() ? QStringLiteral("-") : f.display();
}

void printBundle(const model::DeployBundle& b) {
    out() << b.root << ": " << model::deployerName(b.deployer) << " bundle, " << b.components.size() << " components, " << b.files.size()
          << " files (" << b.unknownFiles.size() << " unknown), " << b.distinctSyncWaves() << " distinct sync-waves, tree sha256:" << b.treeDigest
          << "\n";
    if (!b.recipePath.isEmpty())
        out() << "recipe " << b.recipePath << (b.recipeName.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(b.recipeName))
              << (b.recipeEvidenceDigest.isEmpty() ? QString() : QStringLiteral(", evidence digest sha256:%1").arg(b.recipeEvidenceDigest)) << "\n";
    for (const model::Component& c : b.components) {
        out() << QStringLiteral("%1. %2").arg(c.order + 1).arg(c.name);
        if (c.syncWave || !c.syncWaveText.isEmpty())
            out() << "  wave " << (c.syncWave ? QString::number(*c.syncWave) : QStringLiteral("templated: ") + c.syncWaveText);
        out() << "  " << c.source << "  chart " << fieldText(c.chart) << "  version " << fieldText(c.version) << "  repository "
              << fieldText(c.repository) << "  namespace " << fieldText(c.namespace_) << "\n";
        if (!c.valueFiles.isEmpty())
            out() << "   values from " << c.valueFiles.join(QStringLiteral(", ")) << " (" << model::flatten(c.values).size() << " paths)\n";
        if (!c.manifests.isEmpty())
            out() << "   manifests " << c.manifests.join(QStringLiteral(", ")) << "\n";
        if (!c.dependsOn.isEmpty())
            out() << "   depends on " << c.dependsOn.join(QStringLiteral(", ")) << "\n";
        if (!c.templatedFields.isEmpty())
            out() << "   templated fields (not rendered) " << c.templatedFields.join(QStringLiteral(", ")) << "\n";
        for (const QString& n : c.notes)
            out() << "   note: " << n << "\n";
    }
    for (const QString& u : b.unknownFiles)
        out() << "unknown file: " << u << "\n";
    for (const QString& w : b.warnings)
        out() << "warning: " << w << "\n";
    out().flush();
}

} // namespace

static int bundleImport(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle folder"), QStringLiteral("bundle import"));
    bool bad = false;
    const auto deployer = deployerOption(p, &bad);
    if (bad)
        return usage(QStringLiteral("unknown --deployer '%1' (expected helm, argocd, argocd-helm, flux or helmfile)").arg(p.value(QStringLiteral("deployer"))),
                     QStringLiteral("bundle import"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::BundleImportRequest req;
    req.dir = p.positionalArguments().constFirst();
    req.name = p.value(QStringLiteral("name"));
    req.deployer = deployer;
    req.replace = p.isSet(QStringLiteral("replace"));
    auto done = ops::importBundle(ops::Context(**db), req);
    if (!done)
        return fail(done.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonObject o = model::toJson(done->bundle);
        o.insert(QStringLiteral("name"), done->name);
        o.insert(QStringLiteral("outcome"), store::outcomeName(done->stored.outcome));
        if (done->recipe)
            o.insert(QStringLiteral("catalogVersion"), done->recipe->catalogLabel);
        printJson(o);
        return kOk;
    }
    out() << store::outcomeName(done->stored.outcome) << " '" << done->name << "'\n";
    if (done->recipe)
        out() << "made from recipe " << done->recipe->recipeName << " of catalog version " << done->recipe->catalogLabel << "\n";
    else if (!done->bundle.recipeEvidenceDigest.isEmpty())
        out() << "its recipe (evidence digest sha256:" << done->bundle.recipeEvidenceDigest << ") is in no catalog version in the database\n";
    printBundle(done->bundle);
    return kOk;
}

static int bundleList(const QCommandLineParser& p) {
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto list = store::BundleStore(**db).list();
    if (!list)
        return fail(list.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const store::StoredBundleInfo& i : *list)
            a.append(QJsonObject{{QStringLiteral("name"), i.name},
                                 {QStringLiteral("deployer"), i.deployer},
                                 {QStringLiteral("source"), i.sourceDir},
                                 {QStringLiteral("components"), i.componentCount},
                                 {QStringLiteral("files"), i.fileCount},
                                 {QStringLiteral("unknownFiles"), i.unknownFiles},
                                 {QStringLiteral("distinctSyncWaves"), i.distinctSyncWaves},
                                 {QStringLiteral("treeDigest"), QStringLiteral("sha256:") + i.treeDigest},
                                 {QStringLiteral("catalogVersion"), i.catalogLabel},
                                 {QStringLiteral("importedAt"), i.importedAt.toString(Qt::ISODate)}});
        printJson(a);
        return kOk;
    }
    if (list->empty())
        out() << "no deployment bundles imported (proofbench bundle import DIR)\n";
    for (const store::StoredBundleInfo& i : *list)
        out() << i.name << "  " << i.deployer << "  " << i.componentCount << " components  " << i.fileCount << " files  "
              << (i.catalogLabel.isEmpty() ? QString() : QStringLiteral("catalog %1  ").arg(i.catalogLabel)) << i.sourceDir << "\n";
    out().flush();
    return kOk;
}

static int bundleShow(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle folder or imported bundle name"), QStringLiteral("bundle show"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto read = ops::loadBundleSide(ops::Context(**db), p.positionalArguments().constFirst());
    if (!read)
        return fail(read.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(model::toJson(read->bundle));
        return kOk;
    }
    printBundle(read->bundle);
    return kOk;
}

static int bundleDiff(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("text"), QStringLiteral("markdown"), QStringLiteral("json")}.contains(format))
        return usage(QStringLiteral("unknown --format '%1' (expected text, markdown or json)").arg(format), QStringLiteral("bundle diff"));
    ops::BundleDiffRequest req;
    const bool generated = p.isSet(QStringLiteral("from-version")) || p.isSet(QStringLiteral("to-version"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    if (generated) {
        if (!p.isSet(QStringLiteral("from-version")) || !p.isSet(QStringLiteral("to-version")) || !p.positionalArguments().isEmpty())
            return usage(QStringLiteral("generated mode takes --from-version, --to-version and criteria or --leaf, no folders"),
                         QStringLiteral("bundle diff"));
        if (p.isSet(QStringLiteral("leaf")) == anyCriteria(p))
            return usage(QStringLiteral("give criteria flags or --leaf NAME (not both)"), QStringLiteral("bundle diff"));
        req.fromVersion = p.value(QStringLiteral("from-version"));
        req.toVersion = p.value(QStringLiteral("to-version"));
        req.leaf = p.value(QStringLiteral("leaf"));
        req.deployer = p.value(QStringLiteral("deployer"));
        if (!req.leaf.isEmpty()) {
            // resolved per version
        } else {
            auto cat = store::CatalogStore(**db).loadCatalog(req.fromVersion);
            if (!cat)
                return fail(cat.error());
            auto crit = criteriaFrom(p, *cat);
            if (!crit)
                return usage(crit.error().message, QStringLiteral("bundle diff"));
            req.criteria = *crit;
        }
    } else {
        if (p.positionalArguments().size() != 2)
            return usage(QStringLiteral("give two bundles (folders or imported names)"), QStringLiteral("bundle diff"));
        req.from = p.positionalArguments().at(0);
        req.to = p.positionalArguments().at(1);
    }
    auto done = ops::diffBundles(ops::Context(**db), req);
    if (!done)
        return fail(done.error());
    const QByteArray bytes = format == QLatin1String("json")       ? QJsonDocument(done->diff.toJson()).toJson(QJsonDocument::Indented)
                             : format == QLatin1String("markdown") ? done->diff.toMarkdown().toUtf8()
                                                                   : done->diff.toText().toUtf8();
    return writeOutput(p, bytes) ? kOk : kFailed;
}

// ---- declarations ------------------------------------------------------------------------------

Command bundleImportCommand() {
    Command p(QStringLiteral("bundle import"), QStringLiteral("read a bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile) into the database"),
              QStringLiteral("Read a deployment bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile) into the "
                                      "database: components in order, sync-waves, chart, repository, version, namespace, values, "
                                      "manifests, the recipe it was made from (linked to the catalog version that has it), and every "
                                      "file no layout explains. argocd-helm templates are never rendered: templated fields are shown "
                                      "as written. One transaction with its receipt."));
    addDb(p);
    p.addOption({QStringLiteral("name"), QStringLiteral("Name to import it under (default: the folder's name)."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("deployer"), QStringLiteral("Read it as this deployer: helm|argocd|argocd-helm|flux|helmfile (default: detected)."),
                 QStringLiteral("D")});
    p.addOption({QStringLiteral("replace"), QStringLiteral("Replace an imported bundle of the same name whose content differs.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("The bundle folder (aicr bundle output of any deployer)."));
    p.handler = bundleImport;
    return p;
}

Command bundleListCommand() {
    Command p(QStringLiteral("bundle list"), QStringLiteral("the deployment bundles imported into the database"),
              QStringLiteral("The deployment bundles imported into the database."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = bundleList;
    return p;
}

Command bundleShowCommand() {
    Command p(QStringLiteral("bundle show"), QStringLiteral("a bundle as structured data: components, coordinates, values, unknown files"),
              QStringLiteral("A deployment bundle read as structured data (nothing is stored): components in order, "
                                      "coordinates, values, manifests, unknown files."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("BUNDLE"), QStringLiteral("A bundle folder or the name of an imported bundle."));
    p.handler = bundleShow;
    return p;
}

Command bundleDiffCommand() {
    Command p(QStringLiteral("bundle diff"), QStringLiteral("what changed between two deployment bundles (folders, imported, or generated from two catalog versions)"),
              QStringLiteral("What changed between two deployment bundles: components added and removed, chart, version "
                                      "and repository changes, deployment order and sync-waves, values path by path, Applications / "
                                      "HelmReleases field by field, manifests and files. Each side is a folder or an imported bundle, "
                                      "or both are generated from two catalog versions (--from-version, --to-version, criteria or "
                                      "--leaf). Exit 0 whether or not they differ."));
    addDb(p);
    p.addOption({QStringLiteral("from-version"), QStringLiteral("Generate the older side from this catalog version (with criteria or --leaf)."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("to-version"), QStringLiteral("Generate the newer side from this catalog version."), QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("leaf"), QStringLiteral("Generated mode: the leaf overlay to resolve in both versions."), QStringLiteral("NAME")});
    p.addOption({QStringLiteral("deployer"), QStringLiteral("Generated mode: helm|argocd (default helm)."), QStringLiteral("D"), QStringLiteral("helm")});
    addCriteriaOptions(p);
    addFormat(p, QStringLiteral("text|markdown|json"), QStringLiteral("text"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Write to FILE instead of standard output."),
                 QStringLiteral("FILE")});
    p.addPositionalArgument(QStringLiteral("A"), QStringLiteral("Older bundle: a folder or an imported bundle's name."));
    p.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Newer bundle: a folder or an imported bundle's name."));
    p.handler = bundleDiff;
    return p;
}

} // namespace pb::cli
