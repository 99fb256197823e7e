// Fixtures for the Sign view's tests and screenshots: a deployment bundle tree as `aicr bundle`
// writes it (NNN-component folders with values and manifests, recipe.yaml, a README and a deploy
// script), of any size; and a signing key written as the Sign view writes it (encrypted private
// key, public key beside it, recorded in the database).
#pragma once

#include "db/Database.h"
#include "sigstore/Keys.h"
#include "store/VerificationStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace pbgui {

inline bool writeText(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// About `files` payload files below `dir`: recipe.yaml, README.md, deploy.sh and, per component,
// values.yaml plus manifests. Returns the relative paths written (sorted), empty on failure.
inline QStringList writeDeploymentTree(const QString& dir, int files) {
    static const char* const components[] = {"cert-manager", "gpu-operator",          "network-operator",
                                             "nvsentinel",   "kube-prometheus-stack", "dynamo-platform"};
    QStringList written;
    auto put = [&](const QString& rel, const QByteArray& bytes) {
        if (!writeText(dir + QLatin1Char('/') + rel, bytes))
            return false;
        written << rel;
        return true;
    };
    if (!put(QStringLiteral("recipe.yaml"), "kind: RecipeResult\napiVersion: aicr.run/v1\nmetadata:\n  name: "
                                            "h100-eks-ubuntu-inference-dynamo\n") ||
        !put(QStringLiteral("README.md"), "# Deployment bundle\n\nApply with ./deploy.sh\n") ||
        !put(QStringLiteral("deploy.sh"),
             "#!/bin/sh\nset -e\nfor d in [0-9][0-9][0-9]-*; do helm upgrade --install "
             "\"${d#[0-9][0-9][0-9]-}\" \"$d\"; done\n"))
        return {};
    const int perComponent = std::max(1, (files - 3) / 6);
    for (int c = 0; c < 6 && written.size() < files; ++c) {
        const QString folder =
            QStringLiteral("%1-%2").arg(c + 1, 3, 10, QLatin1Char('0')).arg(QLatin1String(components[c]));
        if (!put(folder + QStringLiteral("/values.yaml"), QStringLiteral("# values for %1\nreplicas: %2\n")
                                                              .arg(QLatin1String(components[c]))
                                                              .arg(c + 1)
                                                              .toUtf8()))
            return {};
        for (int i = 1; i < perComponent && written.size() < files; ++i)
            if (!put(
                    QStringLiteral("%1/manifests/resource-%2.yaml")
                        .arg(folder)
                        .arg(i, 4, 10, QLatin1Char('0')),
                    QStringLiteral(
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %1-%2\ndata:\n  index: \"%2\"\n")
                        .arg(QLatin1String(components[c]))
                        .arg(i)
                        .toUtf8()))
                return {};
    }
    int extra = 0;
    while (written.size() < files) // the rounding remainder
        if (!put(QStringLiteral("006-dynamo-platform/extra/extra-%1.yaml").arg(++extra), "extra: true\n"))
            return {};
    written.sort();
    return written;
}

struct WrittenKey {
    QString privatePath, publicPath, fingerprint;
    QByteArray publicPem;
};

// A new key as the Sign view writes it; recorded in `db` under the private key's file name.
inline WrittenKey writeKey(pb::db::Database& db, const QString& privatePath, const QByteArray& passphrase) {
    WrittenKey out;
    pb::sigstore::crypto::Pkey key = pb::sigstore::generateSigningKey();
    pb::sigstore::Passphrase pass{QByteArray(passphrase)};
    auto sealed = pb::sigstore::encryptPrivateKey(key.get(), pass);
    if (!sealed)
        return out;
    out.publicPem = pb::sigstore::publicKeyPem(key.get());
    if (!writeText(privatePath, *sealed) || !writeText(privatePath + QStringLiteral(".pub"), out.publicPem))
        return out;
    QFile::setPermissions(privatePath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (!pb::store::VerificationStore(db).addPublicKey(out.publicPem, QFileInfo(privatePath).fileName()))
        return out;
    out.privatePath = privatePath;
    out.publicPath = privatePath + QStringLiteral(".pub");
    out.fingerprint = pb::sigstore::keyFingerprint(key.get());
    return out;
}

} // namespace pbgui
