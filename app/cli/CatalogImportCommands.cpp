// catalog import and catalog list.
#include "cli/Commands.h"
#include "cli/CliUtil.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportCatalogGit.h"

#include "db/Database.h"
#include "store/CatalogStore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::store;

namespace {

QJsonObject originJson(const CatalogVersionInfo& v) {
    QJsonObject o{{QStringLiteral("kind"), v.origin.kind}};
    for (auto [key, value] : {std::pair{"repository", v.origin.repository}, std::pair{"ref", v.origin.ref},
                              std::pair{"tag", v.origin.tag}, std::pair{"commit", v.origin.commit}, std::pair{"path", v.origin.path}})
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    if (v.origin.commitDate.isValid())
        o.insert(QStringLiteral("commitDate"), v.origin.commitDate.toString(Qt::ISODate));
    return o;
}

} // namespace

// ---- catalog ------------------------------------------------------------------------------------

namespace {

// catalog import --git REPO: one version per ref, read from the repository without a checkout.
int catalogImportGit(const QCommandLineParser& p) {
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("--git reads the catalog from the repository; give no catalog directory"),
                     QStringLiteral("catalog import"));
    ops::ImportCatalogGitRequest request;
    request.repository = p.value(QStringLiteral("git"));
    request.refs = p.values(QStringLiteral("ref"));
    request.tagGlob = p.value(QStringLiteral("tags"));
    if (p.isSet(QStringLiteral("path")))
        request.path = p.value(QStringLiteral("path"));
    request.label = p.value(QStringLiteral("version"));
    request.replace = p.isSet(QStringLiteral("replace"));
    request.expectRelease = p.value(QStringLiteral("expect-release"));
    if (request.refs.isEmpty() && request.tagGlob.isEmpty())
        return usage(QStringLiteral("--git needs --ref REF (repeatable) or --tags GLOB"), QStringLiteral("catalog import"));
    if (!request.label.isEmpty() && (request.refs.size() != 1 || !request.tagGlob.isEmpty()))
        return usage(QStringLiteral("--version labels a single ref; with several refs or --tags each version is labelled by "
                                    "its tag or ref name"),
                     QStringLiteral("catalog import"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<ops::ImportCatalogGitOutcome> r = ops::importCatalogGit(ops::Context(**db), request);
    if (!r)
        return fail(r.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray versions;
        for (const ops::GitVersionOutcome& v : r->versions) {
            QJsonObject o{{QStringLiteral("version"), v.label},
                          {QStringLiteral("outcome"), v.outcome},
                          {QStringLiteral("ref"), v.ref},
                          {QStringLiteral("commit"), v.commit},
                          {QStringLiteral("commitDate"), v.commitDate.toString(Qt::ISODate)},
                          {QStringLiteral("path"), v.path},
                          {QStringLiteral("files"), v.files},
                          {QStringLiteral("recipes"), v.recipes},
                          {QStringLiteral("contentDigest"), v.contentDigest}};
            o.insert(QStringLiteral("tag"), v.tag.isEmpty() ? QJsonValue() : QJsonValue(v.tag));
            if (!v.sameContentAs.isEmpty())
                o.insert(QStringLiteral("sameContentAs"), v.sameContentAs);
            o.insert(QStringLiteral("signedByReleases"), QJsonArray::fromStringList(v.signedByReleases));
            versions.append(o);
        }
        printJson(QJsonObject{{QStringLiteral("repository"), r->repository},
                              {QStringLiteral("versions"), versions},
                              {QStringLiteral("cancelled"), r->cancelled}});
    } else {
        for (const ops::GitVersionOutcome& v : r->versions)
            out() << "catalog version " << v.summary() << Qt::endl;
        if (r->cancelled)
            out() << "cancelled; the versions above were done" << Qt::endl;
    }
    return r->cancelled ? kFailed : kOk;
}

} // namespace

static int catalogImport(const QCommandLineParser& p) {
    if (p.isSet(QStringLiteral("git")))
        return catalogImportGit(p);
    for (const char* gitOnly : {"ref", "tags", "path"})
        if (p.isSet(QLatin1String(gitOnly)))
            return usage(QStringLiteral("--%1 goes with --git REPO").arg(QLatin1String(gitOnly)), QStringLiteral("catalog import"));
    if (!p.isSet(QStringLiteral("version")))
        return usage(QStringLiteral("--version LABEL is required"), QStringLiteral("catalog import"));
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one catalog directory"), QStringLiteral("catalog import"));
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
        printJson(QJsonObject{{QStringLiteral("version"), r->label},
                              {QStringLiteral("outcome"), r->outcomeName()},
                              {QStringLiteral("files"), r->report.files},
                              {QStringLiteral("recipes"), r->report.recipes},
                              {QStringLiteral("contentDigest"), r->contentDigest},
                              {QStringLiteral("signedByReleases"), QJsonArray::fromStringList(r->signedByReleases)}});
    } else {
        out() << "catalog version " << r->label << ": " << r->outcomeName() << " (" << r->report.files << " files, " << r->report.recipes
              << " recipes)" << Qt::endl;
        if (!r->signedByReleases.isEmpty())
            out() << "registry and validator catalog signed by AICR " << r->signedByReleases.join(QStringLiteral(", ")) << " ("
                  << store::releaseScopeNote() << ")" << Qt::endl;
    }
    return kOk;
}

static int catalogList(const QCommandLineParser& p) {
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    Result<std::vector<CatalogVersionInfo>> versions = CatalogStore(**db).versions();
    if (!versions)
        return fail(versions.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const CatalogVersionInfo& v : *versions)
            a.append(QJsonObject{{QStringLiteral("version"), v.label},
                                 {QStringLiteral("source"), v.source},
                                 {QStringLiteral("importedAt"), v.importedAt.toString(Qt::ISODate)},
                                 {QStringLiteral("overlays"), v.overlayCount},
                                 {QStringLiteral("recipes"), v.recipeCount},
                                 {QStringLiteral("apiVersions"), QJsonArray::fromStringList(v.apiVersions.split(','))},
                                 {QStringLiteral("contentDigest"), v.contentDigest},
                                 {QStringLiteral("embedded"), v.embedded},
                                 {QStringLiteral("sample"), v.isSample()},
                                 {QStringLiteral("origin"), originJson(v)},
                                 {QStringLiteral("orderedBy"), v.orderBasis()},
                                 {QStringLiteral("signedByReleases"), QJsonArray::fromStringList(v.signedByReleases)},
                                 {QStringLiteral("releaseBinding"), v.releaseBindingText()}});
        printJson(a);
        return kOk;
    }
    // Oldest first, in version order (semantic version, else source date), never import order.
    out() << QStringLiteral("%1  %2  %3  %4  %5").arg(QStringLiteral("VERSION"), -12).arg(QStringLiteral("OVERLAYS"), 8)
                 .arg(QStringLiteral("RECIPES"), 7).arg(QStringLiteral("IMPORTED"), -20).arg(QStringLiteral("SOURCE"))
          << Qt::endl;
    for (const CatalogVersionInfo& v : *versions)
        out() << QStringLiteral("%1  %2  %3  %4  %5")
                     .arg(v.label, -12)
                     .arg(v.overlayCount, 8)
                     .arg(v.recipeCount, 7)
                     .arg(v.importedAt.toString(Qt::ISODate), -20)
                     .arg(v.originText() +
                          (v.signedByReleases.isEmpty() ? QString() : QStringLiteral("; ") + v.releaseBindingText()))
              << Qt::endl;
    for (const CatalogVersionInfo& v : *versions)
        if (!v.signedByReleases.isEmpty()) {
            out() << "\n" << store::releaseScopeNote() << Qt::endl;
            break;
        }
    return kOk;
}

// ---- declarations ------------------------------------------------------------------------------

Command catalogImportCommand() {
    Command p(QStringLiteral("catalog import"), QStringLiteral("import a catalog directory (AICR recipes/ layout) as a version, all or nothing"),
              QStringLiteral("Import a catalog directory as a version, or (--git) catalog versions from a Git "
                                      "repository's tags and branches. All or nothing per version: a catalog with one bad "
                                      "file is refused whole and the database is left unchanged."));
    addDb(p);
    p.addOption({QStringLiteral("version"),
                 QStringLiteral("Label of the catalog version, e.g. sample-2. With --git: optional, for a single ref "
                                "(default: the tag or ref name)."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("replace"), QStringLiteral("Replace a version of the same label with new content.")});
    p.addOption({QStringLiteral("git"),
                 QStringLiteral("Read the catalog from this Git repository (bare, or the top of a clone) at each ref, "
                                "without a checkout."),
                 QStringLiteral("REPO")});
    p.addOption({QStringLiteral("ref"), QStringLiteral("With --git: a tag, branch or commit to import (repeatable)."),
                 QStringLiteral("REF")});
    p.addOption({QStringLiteral("tags"),
                 QStringLiteral("With --git: import every tag matching this glob ('v*', '*'), one transaction per version; "
                                "versions whose content is already imported are skipped."),
                 QStringLiteral("GLOB")});
    p.addOption({QStringLiteral("path"), QStringLiteral("With --git: the catalog folder in the repository (default recipes)."),
                 QStringLiteral("PATH")});
    p.addOption({QStringLiteral("expect-release"),
                 QStringLiteral("Refuse the import unless registry.yaml and validators/catalog.yaml reproduce the recipe-catalog "
                                "subject this AICR release signed (kept by 'release verify'); names the file that differs. The "
                                "signature does not cover the overlays."),
                 QStringLiteral("vX.Y.Z")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("Catalog directory (AICR recipes/ layout); not with --git."));
    p.handler = catalogImport;
    return p;
}

Command catalogListCommand() {
    Command p(QStringLiteral("catalog list"), QStringLiteral("list the catalog versions in the database"),
              QStringLiteral("List the catalog versions."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = catalogList;
    return p;
}

} // namespace pb::cli
