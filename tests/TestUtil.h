// Shared helpers for tests: locating ../shared/data (skipping cleanly when absent) and fixtures.
#pragma once

#include <QDir>
#include <QString>
#include <QTest>

namespace pbtest {

inline QString sharedData(const QString& rel = {}) {
    return QDir::cleanPath(QStringLiteral(PB_SHARED_DATA) + (rel.isEmpty() ? QString() : QLatin1Char('/') + rel));
}

inline QString fixture(const QString& rel) {
    return QStringLiteral(PB_FIXTURES) + QLatin1Char('/') + rel;
}

inline QString realCatalog(const QString& version) {
    return sharedData(QStringLiteral("aicr/catalogs/%1/recipes").arg(version));
}

inline QString embeddedCatalogDir(const QString& version) {
    return QStringLiteral(PB_SOURCE_DIR "/recipes/") + version;
}

} // namespace pbtest

// Skips the current test when ../shared/data is not beside the project (a plain clone).
#define PB_REQUIRE_SHARED(rel)                                                                             \
    do {                                                                                                   \
        if (!QFileInfo::exists(pbtest::sharedData(rel)))                                                   \
            QSKIP(qPrintable(QStringLiteral("shared data not found at %1 (clone lacks ../shared); skipping") \
                                 .arg(pbtest::sharedData(rel))));                                          \
    } while (0)
