// What the Catalog commands share (one command per file: GraphCommand.cpp, DiffCommand.cpp,
// RecipeDigestCommand.cpp, RecipeCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"
#include "core/Files.h"
#include "ops/ImportCatalog.h"

#include "catalog/Diff.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "db/Database.h"
#include "graph/Layout.h"
#include "ops/Operation.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"
#include "store/CatalogStore.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;

// Whether a catalog is Proofbench's sample data: a stored version marked so, or a folder whose
// content is one of the sample versions compiled into the application.
inline bool isSampleCatalog(const Catalog& cat, const QString& spec, const QCommandLineParser& p) {
    if (!QFileInfo(spec).isDir()) {
        Result<std::unique_ptr<Database>> db = openDb(p);
        if (!db)
            return false;
        Result<CatalogVersionInfo> v = CatalogStore(**db).version(spec);
        return v && v->isSample();
    }
    static const QStringList sampleDigests = [] {
        QStringList out;
        for (const QString& label : embeddedCatalogLabels())
            if (Result<Catalog> c = loadCatalog(QStringLiteral(":/recipes/") + label))
                out << c->contentDigest();
        return out;
    }();
    return sampleDigests.contains(cat.contentDigest());
}

// --ignore values: only "version-only" (see catalog/Diff.h).
inline Result<DiffOptions> diffOptionsFrom(const QCommandLineParser& p) {
    DiffOptions o;
    for (const QString& v : p.values(QStringLiteral("ignore"))) {
        if (v != QLatin1String("version-only"))
            return makeError(QStringLiteral("unknown --ignore '%1' (expected version-only)").arg(v));
        o.ignoreVersionOnly = true;
    }
    return o;
}

} // namespace pb::cli
