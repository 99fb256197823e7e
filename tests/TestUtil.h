// Shared helpers for tests: locating ../shared/data (skipping cleanly when absent) and fixtures.
#pragma once

#include "FsUtil.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTest>

namespace pbtest {

inline QString sharedData(const QString& rel = {}) {
    return QDir::cleanPath(QStringLiteral(PB_SHARED_DATA) +
                           (rel.isEmpty() ? QString() : QLatin1Char('/') + rel));
}

inline QString fixture(const QString& rel) {
    return QStringLiteral(PB_FIXTURES) + QLatin1Char('/') + rel;
}

inline QString realCatalog(const QString& version) {
    return sharedData(QStringLiteral("aicr/catalogs/%1/recipes").arg(version));
}

// Writes `data` to `path` (replacing it), owner-executable when asked (exec plugins, scripts).
inline bool writeFile(const QString& path, const QByteArray& data, bool executable = false) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(data) != data.size())
        return false;
    f.close();
    if (executable)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return true;
}

inline QString embeddedCatalogDir(const QString& version) {
    return QStringLiteral(PB_SOURCE_DIR "/recipes/") + version;
}

// A CTRF report whose last `n` passed tests could not run to a verdict (status "other", as a
// cluster fault leaves them): the summary moves them from passed to other.
inline QByteArray ctrfWithOther(const QByteArray& report, int n) {
    QJsonObject doc = QJsonDocument::fromJson(report).object();
    QJsonObject results = doc.value(QStringLiteral("results")).toObject();
    QJsonArray tests = results.value(QStringLiteral("tests")).toArray();
    QJsonObject summary = results.value(QStringLiteral("summary")).toObject();
    int moved = 0;
    for (qsizetype i = tests.size() - 1; i >= 0 && moved < n; --i) {
        QJsonObject t = tests.at(i).toObject();
        if (t.value(QStringLiteral("status")).toString() != QLatin1String("passed"))
            continue;
        t.insert(QStringLiteral("status"), QStringLiteral("other"));
        t.insert(QStringLiteral("message"),
                 QStringLiteral("cluster fault: the pod was evicted before the check finished"));
        tests.replace(i, t);
        ++moved;
    }
    summary.insert(QStringLiteral("passed"), summary.value(QStringLiteral("passed")).toInt() - moved);
    summary.insert(QStringLiteral("other"), moved);
    results.insert(QStringLiteral("tests"), tests);
    results.insert(QStringLiteral("summary"), summary);
    doc.insert(QStringLiteral("results"), results);
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

} // namespace pbtest

// Skips the current test when ../shared/data is not beside the project (a plain clone).
#define PB_REQUIRE_SHARED(rel)                                                                               \
    do {                                                                                                     \
        if (!QFileInfo::exists(pbtest::sharedData(rel)))                                                     \
            QSKIP(qPrintable(QStringLiteral("shared data not found at %1 (clone lacks ../shared); skipping") \
                                 .arg(pbtest::sharedData(rel))));                                            \
    } while (0)
