// proofbench bundle diff: what changed between two deployment bundles (folders, imported, or generated from
// two catalog versions)
#include "cli/BundleCompareSupport.h"

namespace pb::cli {

static int bundleDiff(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("text"), QStringLiteral("markdown"), QStringLiteral("json")}.contains(
            format))
        return usage(QStringLiteral("unknown --format '%1' (expected text, markdown or json)").arg(format),
                     QStringLiteral("bundle diff"));
    ops::BundleDiffRequest req;
    const bool generated = p.isSet(QStringLiteral("from-version")) || p.isSet(QStringLiteral("to-version"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    if (generated) {
        if (!p.isSet(QStringLiteral("from-version")) || !p.isSet(QStringLiteral("to-version")) ||
            !p.positionalArguments().isEmpty())
            return usage(
                QStringLiteral(
                    "generated mode takes --from-version, --to-version and criteria or --leaf, no folders"),
                QStringLiteral("bundle diff"));
        if (p.isSet(QStringLiteral("leaf")) == anyCriteria(p))
            return usage(QStringLiteral("give criteria flags or --leaf NAME (not both)"),
                         QStringLiteral("bundle diff"));
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
            return usage(QStringLiteral("give two bundles (folders or imported names)"),
                         QStringLiteral("bundle diff"));
        req.from = p.positionalArguments().at(0);
        req.to = p.positionalArguments().at(1);
    }
    auto done = ops::diffBundles(ops::Context(**db), req);
    if (!done)
        return fail(done.error());
    const QByteArray bytes = format == QLatin1String("json")
                                 ? QJsonDocument(done->diff.toJson()).toJson(QJsonDocument::Indented)
                             : format == QLatin1String("markdown") ? done->diff.toMarkdown().toUtf8()
                                                                   : done->diff.toText().toUtf8();
    return writeOutput(p, bytes) ? kOk : kFailed;
}

Command bundleDiffCommand() {
    Command p(
        QStringLiteral("bundle diff"),
        QStringLiteral("what changed between two deployment bundles (folders, imported, or generated from "
                       "two catalog versions)"),
        QStringLiteral(
            "What changed between two deployment bundles: components added and removed, chart, version "
            "and repository changes, deployment order and sync-waves, values path by path, Applications / "
            "HelmReleases field by field, manifests and files. Each side is a folder or an imported bundle, "
            "or both are generated from two catalog versions (--from-version, --to-version, criteria or "
            "--leaf). Exit 0 whether or not they differ."));
    addDb(p);
    p.addOption(
        {QStringLiteral("from-version"),
         QStringLiteral("Generate the older side from this catalog version (with criteria or --leaf)."),
         QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("to-version"),
                 QStringLiteral("Generate the newer side from this catalog version."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("leaf"),
                 QStringLiteral("Generated mode: the leaf overlay to resolve in both versions."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("deployer"),
                 QStringLiteral("Generated mode: the layout to generate, helm, argocd, argocd-helm, flux or "
                                "helmfile (default helm)."),
                 QStringLiteral("D"), QStringLiteral("helm")});
    addCriteriaOptions(p);
    addFormat(p, QStringLiteral("text|markdown|json"), QStringLiteral("text"));
    p.addOption({QStringList{QStringLiteral("o"), QStringLiteral("output")},
                 QStringLiteral("Write to FILE instead of standard output."), QStringLiteral("FILE")});
    p.addPositionalArgument(
        QStringLiteral("A"),
        QStringLiteral("Older bundle: a folder, or an imported bundle's name or tree digest (prefix)."));
    p.addPositionalArgument(
        QStringLiteral("B"),
        QStringLiteral("Newer bundle: a folder, or an imported bundle's name or tree digest (prefix)."));
    p.handler = bundleDiff;
    return p;
}

} // namespace pb::cli
