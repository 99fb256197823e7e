// How the GUI reaches registries: the choices the CLI takes as flags. Shared by the Fetch Evidence
// dialog and the registry credentials view.
#pragma once

#include "oci/Registry.h"

#include <QString>
#include <QStringList>

namespace pb::widgets {

// How the GUI reaches registries: the choices the CLI takes as flags.
struct RegistrySettings {
    QStringList plainHttpRegistries; // "host:port" spoken to over plain HTTP (only these)
    QString dockerConfig;            // empty: $DOCKER_CONFIG/config.json, else ~/.docker/config.json
    QString caFile;                  // extra CA bundle; empty: the system's
    QString cacheDir;                // empty: oci::Layout::defaultCacheDir()

    QString effectiveCacheDir() const;
    oci::ClientOptions clientOptions() const;
    // "a:5000, b:5000" <-> list (commas or spaces).
    static QStringList parseList(const QString& text);
};

} // namespace pb::widgets
