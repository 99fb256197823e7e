// proofbench catalog import: import a catalog directory (AICR recipes/ layout) as a version, all or nothing
#include "cli/CatalogImportSupport.h"

namespace pb::cli {

static int catalogImport(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("git")))
        return catalogImportGit(p);
    for (const char* gitOnly : {"ref", "tags", "path"})
        if (p.isSet(QLatin1String(gitOnly)))
            return usage(QStringLiteral("--%1 goes with --git REPO").arg(QLatin1String(gitOnly)),
                         QStringLiteral("catalog import"));
    if (!p.isSet(QStringLiteral("version")))
        return usage(QStringLiteral("--version LABEL is required"), QStringLiteral("catalog import"));
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one catalog directory"),
                     QStringLiteral("catalog import"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::ImportCatalogRequest request;
    request.label = p.value(QStringLiteral("version"));
    request.dir = p.positionalArguments().constFirst();
    request.replace = p.isSet(QStringLiteral("replace"));
    request.expectRelease = p.value(QStringLiteral("expect-release"));
    Result<ops::ImportCatalogOutcome> r = ops::importCatalog(ops::Context(**db), request);
    if (!r)
        return fail(r.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(QJsonObject{
            {QStringLiteral("version"), r->label},
            {QStringLiteral("outcome"), r->outcomeName()},
            {QStringLiteral("files"), r->report.files},
            {QStringLiteral("recipes"), r->report.recipes},
            {QStringLiteral("contentDigest"), r->contentDigest},
            {QStringLiteral("signedByReleases"), QJsonArray::fromStringList(r->signedByReleases)}});
    } else {
        out() << "catalog version " << r->label << ": " << r->outcomeName() << " (" << r->report.files
              << " files, " << r->report.recipes << " recipes)" << Qt::endl;
        if (!r->signedByReleases.isEmpty())
            out() << "registry and validator catalog signed by AICR "
                  << r->signedByReleases.join(QStringLiteral(", ")) << " (" << store::releaseScopeNote()
                  << ")" << Qt::endl;
    }
    return kOk;
}

Command catalogImportCommand() {
    Command p(
        QStringLiteral("catalog import"),
        QStringLiteral("import a catalog directory (AICR recipes/ layout) as a version, all or nothing"),
        QStringLiteral("Import a catalog directory as a version, or (--git) catalog versions from a Git "
                       "repository's tags and branches. All or nothing per version: a catalog with one bad "
                       "file is refused whole and the database is left unchanged."));
    addDb(p);
    p.addOption(
        {QStringLiteral("version"),
         QStringLiteral("Label of the catalog version, e.g. sample-2. With --git: optional, for a single ref "
                        "(default: the tag or ref name)."),
         QStringLiteral("LABEL")});
    p.addOption(
        {QStringLiteral("replace"), QStringLiteral("Replace a version of the same label with new content.")});
    p.addOption({QStringLiteral("git"),
                 QStringLiteral(
                     "Read the catalog from this Git repository (bare, or the top of a clone) at each ref, "
                     "without a checkout."),
                 QStringLiteral("REPO")});
    p.addOption({QStringLiteral("ref"),
                 QStringLiteral("With --git: a tag, branch or commit to import (repeatable)."),
                 QStringLiteral("REF")});
    p.addOption(
        {QStringLiteral("tags"),
         QStringLiteral(
             "With --git: import every tag matching this glob ('v*', '*'), one transaction per version; "
             "versions whose content is already imported are skipped."),
         QStringLiteral("GLOB")});
    p.addOption({QStringLiteral("path"),
                 QStringLiteral("With --git: the catalog folder in the repository (default recipes)."),
                 QStringLiteral("PATH")});
    p.addOption(
        {QStringLiteral("expect-release"),
         QStringLiteral(
             "Refuse the import unless registry.yaml and validators/catalog.yaml reproduce the "
             "recipe-catalog "
             "subject this AICR release signed (kept by 'release verify'); names the file that differs. The "
             "signature does not cover the overlays."),
         QStringLiteral("vX.Y.Z")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("Catalog directory (AICR recipes/ layout); not with --git."));
    p.handler = catalogImport;
    return p;
}

} // namespace pb::cli
