#include "RegistrySettings.h"

#include "oci/Layout.h"

#include <QRegularExpression>

namespace pb::widgets {

QString RegistrySettings::effectiveCacheDir() const {
    return cacheDir.isEmpty() ? oci::Layout::defaultCacheDir() : cacheDir;
}

oci::ClientOptions RegistrySettings::clientOptions() const {
    oci::ClientOptions o;
    o.plainHttpRegistries = plainHttpRegistries;
    o.caFile = caFile;
    o.dockerConfig.configFile = dockerConfig;
    return o;
}

QStringList RegistrySettings::parseList(const QString& text) {
    QStringList out = text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    out.removeDuplicates();
    return out;
}

} // namespace pb::widgets
