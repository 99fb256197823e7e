// proofbench health: the health table: each recipe coordinate and its evidence status
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "catalog/Loader.h"
#include "core/Files.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "evidence/Health.h"
#include "ops/CheckEvidence.h"
#include "ops/ImportEvidence.h"
#include "receipts/Ledger.h"
#include "report/HealthTable.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;

static int healthVerb(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (!QStringList{QStringLiteral("markdown"), QStringLiteral("json"), QStringLiteral("csv")}.contains(
            format))
        return usage(QStringLiteral("unknown --format '%1' (expected markdown, json or csv)").arg(format),
                     QStringLiteral("health"));
    Result<std::unique_ptr<Database>> db = openDb(p);
    if (!db)
        return fail(db.error());
    // The version asked for, else the newest in version order (never the last imported).
    Result<CatalogVersionInfo> version = report::chosenVersion(**db, p.value(QStringLiteral("version")));
    if (!version)
        return fail(version.error());
    Result<std::vector<evidence::HealthRow>> rows = report::healthRows(**db, version->id);
    if (!rows)
        return fail(rows.error());
    const evidence::HealthTableInfo info = report::tableInfo(*version);
    if (format == QLatin1String("json")) {
        QJsonArray a;
        for (const evidence::HealthRow& r : *rows)
            a.append(evidence::healthJson(r, info));
        printJson(a);
    } else {
        out() << (format == QLatin1String("csv") ? evidence::healthCsv(*rows, info)
                                                 : evidence::healthMarkdown(*rows, info));
    }
    return kOk;
}

Command healthCommand() {
    Command p(QStringLiteral("health"),
              QStringLiteral("the health table: each recipe coordinate and its evidence status"),
              QStringLiteral("The health table: one row per recipe coordinate of a catalog version, with the "
                             "status its evidence gives it."));
    addDb(p);
    p.addOption({QStringLiteral("version"),
                 QStringLiteral("Catalog version (default: the newest in version order)."),
                 QStringLiteral("LABEL")});
    addFormat(p, QStringLiteral("markdown|json|csv"), QStringLiteral("markdown"));
    p.handler = healthVerb;
    return p;
}

} // namespace pb::cli
