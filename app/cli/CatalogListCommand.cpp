// proofbench catalog list: list the catalog versions in the database
#include "cli/CatalogImportSupport.h"

namespace pb::cli {

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
            a.append(QJsonObject{
                {QStringLiteral("version"), v.label},
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
    out() << QStringLiteral("%1  %2  %3  %4  %5")
                 .arg(QStringLiteral("VERSION"), -12)
                 .arg(QStringLiteral("OVERLAYS"), 8)
                 .arg(QStringLiteral("RECIPES"), 7)
                 .arg(QStringLiteral("IMPORTED"), -20)
                 .arg(QStringLiteral("SOURCE"))
          << Qt::endl;
    for (const CatalogVersionInfo& v : *versions)
        out() << QStringLiteral("%1  %2  %3  %4  %5")
                     .arg(v.label, -12)
                     .arg(v.overlayCount, 8)
                     .arg(v.recipeCount, 7)
                     .arg(v.importedAt.toString(Qt::ISODate), -20)
                     .arg(v.originText() + (v.signedByReleases.isEmpty()
                                                ? QString()
                                                : QStringLiteral("; ") + v.releaseBindingText()))
              << Qt::endl;
    for (const CatalogVersionInfo& v : *versions)
        if (!v.signedByReleases.isEmpty()) {
            out() << "\n" << store::releaseScopeNote() << Qt::endl;
            break;
        }
    return kOk;
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
