// proofbench bundle list: the deployment bundles imported into the database
#include "cli/BundleCompareSupport.h"

namespace pb::cli {

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
        out() << i.name << "  " << i.deployer << "  "
              << bundle::treeDigestText(i.treeDigest).left(QStringLiteral("tree digest sha256:").size() + 12)
              << "  " << i.componentCount << " components  " << i.fileCount << " files  "
              << (i.catalogLabel.isEmpty() ? QString() : QStringLiteral("catalog %1  ").arg(i.catalogLabel))
              << i.sourceDir << "\n";
    out().flush();
    return kOk;
}

Command bundleListCommand() {
    Command p(QStringLiteral("bundle list"),
              QStringLiteral("the deployment bundles imported into the database"),
              QStringLiteral("The deployment bundles imported into the database."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = bundleList;
    return p;
}

} // namespace pb::cli
