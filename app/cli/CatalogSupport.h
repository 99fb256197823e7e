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
#include "ops/Recipe.h"
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

// The catalog --catalog DIR or --version LABEL names (exactly one of them).
inline Result<ops::CatalogRef> catalogRefFrom(const QCommandLineParser& p) {
    const bool dir = p.isSet(QStringLiteral("catalog")), label = p.isSet(QStringLiteral("version"));
    if (dir == label)
        return makeError(QStringLiteral("give exactly one of --catalog DIR or --version LABEL"));
    ops::CatalogRef ref;
    ref.spec = p.value(dir ? QStringLiteral("catalog") : QStringLiteral("version"));
    ref.kind = dir ? ops::CatalogRef::Kind::Directory : ops::CatalogRef::Kind::Version;
    return ref;
}

// The criteria flags as typed, one per dimension (empty: not given); flags with `prefix` (diff's
// --to-*) take the place of the plain ones they name.
inline QMap<QString, QString> criteriaFlags(const QCommandLineParser& p, const QString& prefix = {}) {
    QMap<QString, QString> flags;
    for (const QString& d : Criteria::dimensions())
        flags.insert(d, !prefix.isEmpty() && p.isSet(prefix + d) ? p.value(prefix + d) : p.value(d));
    return flags;
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
