// What the BundleCompare commands share (one command per file: BundleImportCommand.cpp,
// BundleListCommand.cpp, BundleShowCommand.cpp, BundleDiffCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "bundle/TreeDigest.h"
#include "ops/BundleDiff.h"
#include "ops/BundleImport.h"
#include "store/BundleStore.h"
#include "store/CatalogStore.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace pb::cli {

namespace model = bundle::model;

inline std::optional<model::Deployer> deployerOption(const QCommandLineParser& p, bool* bad) {
    *bad = false;
    if (!p.isSet(QStringLiteral("deployer")))
        return std::nullopt;
    auto d = model::parseDeployer(p.value(QStringLiteral("deployer")));
    *bad = !d;
    return d;
}

inline QString fieldText(const model::Field& f) {
    return f.isEmpty() ? QStringLiteral("-") : f.display();
}

inline void printBundle(const model::DeployBundle& b) {
    out() << b.root << ": " << model::deployerName(b.deployer) << " bundle, " << b.components.size()
          << " components, " << b.files.size() << " files (" << b.unknownFiles.size() << " unknown), "
          << b.distinctSyncWaves() << " distinct sync-waves, " << pb::bundle::treeDigestText(b.treeDigest)
          << "\n";
    if (!b.recipePath.isEmpty())
        out() << "recipe " << b.recipePath
              << (b.recipeName.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(b.recipeName))
              << (b.recipeEvidenceDigest.isEmpty()
                      ? QString()
                      : QStringLiteral(", evidence digest sha256:%1").arg(b.recipeEvidenceDigest))
              << "\n";
    for (const model::Component& c : b.components) {
        out() << QStringLiteral("%1. %2").arg(c.order + 1).arg(c.name);
        if (c.syncWave || !c.syncWaveText.isEmpty())
            out() << "  wave "
                  << (c.syncWave ? QString::number(*c.syncWave)
                                 : QStringLiteral("templated: ") + c.syncWaveText);
        out() << "  " << c.source << "  chart " << fieldText(c.chart) << "  version " << fieldText(c.version)
              << "  repository " << fieldText(c.repository) << "  namespace " << fieldText(c.namespace_)
              << "\n";
        if (!c.valueFiles.isEmpty())
            out() << "   values from " << c.valueFiles.join(QStringLiteral(", ")) << " ("
                  << model::flatten(c.values).size() << " paths)\n";
        if (!c.manifests.isEmpty())
            out() << "   manifests " << c.manifests.join(QStringLiteral(", ")) << "\n";
        if (!c.dependsOn.isEmpty())
            out() << "   depends on " << c.dependsOn.join(QStringLiteral(", ")) << "\n";
        if (!c.templatedFields.isEmpty())
            out() << "   templated fields (not rendered) " << c.templatedFields.join(QStringLiteral(", "))
                  << "\n";
        for (const QString& n : c.notes)
            out() << "   note: " << n << "\n";
    }
    for (const QString& u : b.unknownFiles)
        out() << "unknown file: " << u << "\n";
    for (const QString& w : b.warnings)
        out() << "warning: " << w << "\n";
    out().flush();
}

} // namespace pb::cli
