// The shared Sigstore acceptance cases (../shared/data/sigstore/MANIFEST.tsv), read for tests.
#pragma once

#include "TestUtil.h"

#include <QFile>
#include <QStringList>

#include <vector>

namespace pbtest {

struct SigstoreCase {
    QString name, verdict, mode, identity, issuer, trustedRoot, digest, features, notes;
    QString dir() const { return sharedData(QStringLiteral("sigstore/cases/") + name); }
    QString file(const QString& f) const { return dir() + QLatin1Char('/') + f; }
    bool pass() const { return verdict == QLatin1String("PASS"); }
};

inline std::vector<SigstoreCase> sigstoreCases() {
    std::vector<SigstoreCase> out;
    QFile f(sharedData(QStringLiteral("sigstore/MANIFEST.tsv")));
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList c = QString::fromUtf8(lines.at(i)).split(QLatin1Char('\t'));
        if (c.size() < 10)
            continue;
        out.push_back(SigstoreCase{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[9]});
    }
    return out;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace pbtest
