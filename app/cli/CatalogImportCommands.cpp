// catalog import and catalog list.
#include "cli/Commands.h"
#include "CliUtil.h"
#include "ops/ImportCatalog.h"

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

int catalogImport(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    p.addOption({QStringLiteral("version"), QStringLiteral("Label of the catalog version, e.g. sample-2."),
                 QStringLiteral("LABEL")});
    p.addOption({QStringLiteral("replace"), QStringLiteral("Replace a version of the same label with new content.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("Catalog directory (AICR recipes/ layout)."));
    if (int rc = parse(p, args, QStringLiteral("catalog import"),
                       QStringLiteral("Import a catalog directory as a version. All or nothing: a catalog with "
                                      "one bad file is refused whole and the database is left unchanged."));
        rc >= 0)
        return rc;
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
    Result<ops::ImportCatalogOutcome> r = ops::importCatalog(ops::Context(**db), request);
    if (!r)
        return fail(r.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        printJson(QJsonObject{{QStringLiteral("version"), r->label},
                              {QStringLiteral("outcome"), r->outcomeName()},
                              {QStringLiteral("files"), r->report.files},
                              {QStringLiteral("recipes"), r->report.recipes},
                              {QStringLiteral("contentDigest"), r->contentDigest}});
    } else {
        out() << "catalog version " << r->label << ": " << r->outcomeName() << " (" << r->report.files << " files, " << r->report.recipes
              << " recipes)" << Qt::endl;
    }
    return kOk;
}

int catalogList(const QStringList& args) {
    QCommandLineParser p;
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    if (int rc = parse(p, args, QStringLiteral("catalog list"), QStringLiteral("List the catalog versions.")); rc >= 0)
        return rc;
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
                                 {QStringLiteral("orderedBy"), v.orderBasis()}});
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
                     .arg(v.originText())
              << Qt::endl;
    return kOk;
}

} // namespace pb::cli
