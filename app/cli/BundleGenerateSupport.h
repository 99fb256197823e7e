// What the BundleGenerate commands share (one command per file: BundleGenerateCommand.cpp,
// BundleIndexCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "catalog/Loader.h"
#include "catalog/Resolver.h"
#include "ops/BundleGenerate.h"
#include "ops/BundleIndex.h"

#include "db/Database.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

inline Result<QMap<QString, QString>> selectorFrom(const QStringList& values, const QString& flag) {
    QMap<QString, QString> m;
    for (const QString& v : values) {
        const qsizetype eq = v.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return makeError(QStringLiteral("'%1' is not key=value").arg(v), {}, 0, flag);
        m.insert(v.left(eq), v.mid(eq + 1));
    }
    return m;
}

} // namespace pb::cli
