// proofbench bundle import: read a bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile)
// into the database
#include "cli/BundleCompareSupport.h"

namespace pb::cli {

static int bundleImport(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one bundle folder"), QStringLiteral("bundle import"));
    bool bad = false;
    const auto deployer = deployerOption(p, &bad);
    if (bad)
        return usage(
            QStringLiteral("unknown --deployer '%1' (expected helm, argocd, argocd-helm, flux or helmfile)")
                .arg(p.value(QStringLiteral("deployer"))),
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
        out() << "made from recipe " << done->recipe->recipeName << " of catalog version "
              << done->recipe->catalogLabel << "\n";
    else if (!done->bundle.recipeEvidenceDigest.isEmpty())
        out() << "its recipe (evidence digest sha256:" << done->bundle.recipeEvidenceDigest
              << ") is in no catalog version in the database\n";
    printBundle(done->bundle);
    return kOk;
}

Command bundleImportCommand() {
    Command p(
        QStringLiteral("bundle import"),
        QStringLiteral("read a bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile) into "
                       "the database"),
        QStringLiteral(
            "Read a deployment bundle of any AICR deployer (helm, argocd, argocd-helm, flux, helmfile) into "
            "the "
            "database: components in order, sync-waves, chart, repository, version, namespace, values, "
            "manifests, the recipe it was made from (linked to the catalog version that has it), and every "
            "file no layout explains. argocd-helm templates are never rendered: templated fields are shown "
            "as written. One transaction with its receipt."));
    addDb(p);
    p.addOption({QStringLiteral("name"),
                 QStringLiteral("Name to import it under (default: the folder's name)."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("deployer"),
                 QStringLiteral(
                     "Read it as this deployer: helm|argocd|argocd-helm|flux|helmfile (default: detected)."),
                 QStringLiteral("D")});
    p.addOption({QStringLiteral("replace"),
                 QStringLiteral("Replace an imported bundle of the same name whose content differs.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("The bundle folder (aicr bundle output of any deployer)."));
    p.handler = bundleImport;
    return p;
}

} // namespace pb::cli
