// An evidence tree for the embedded v1.0.0 catalog, written the way AICR lays it out
// (engine/evidence/Evidence.h): an allowlist with a community and a partner signer, per-source
// signed pointers under <recipe>/<slug>/sha256-<hex>.yaml, a flat pending pointer, an invalid
// pointer (wrong source directory) and evidence for a recipe the catalog does not have.
#pragma once

#include "evidence/Evidence.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>

namespace pbgui {

struct EvidenceFixture {
    static QString communityIssuer() { return QStringLiteral("https://github.com/login/oauth"); }
    static QString communityIdentity() { return QStringLiteral("alice@example.com"); }
    static QString partnerIssuer() { return QStringLiteral("https://token.actions.githubusercontent.com"); }
    static QString partnerIdentity() {
        return QStringLiteral(
            "https://github.com/example-partner/aicr-evidence/.github/workflows/attest.yaml@refs/heads/main");
    }
    static QString communitySlug() {
        return pb::evidence::sourceSlug(communityIssuer(), communityIdentity());
    }
    static QString partnerSlug() { return pb::evidence::sourceSlug(partnerIssuer(), partnerIdentity()); }

    // Recipes of v1.0.0 and what the tree says about them.
    static QString signedRecipe() {
        return QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    } // community + partner
    static QString pendingRecipe() {
        return QStringLiteral("gb200-eks-ubuntu-inference-dynamo");
    } // flat, unsigned
    static QString invalidRecipe() {
        return QStringLiteral("h100-gke-cos-training-kubeflow");
    } // wrong source dir
    static QString outsideRecipe() { return QStringLiteral("vr200-rke2-ubuntu-training"); } // not in v1.0.0
    static QString hex(char c) { return QString(64, QLatin1Char(c)); }
    static qint64 rekorIndex() { return 1234567890; }

    struct Signer {
        QString issuer, identity;
    };

    static QByteArray pointer(const QString& recipe, const QString& digestHex, const QString& attestedAt,
                              const Signer* signer, const QString& predicate = QStringLiteral("v3")) {
        QByteArray y = "attestations:\n  - attestedAt: " + attestedAt.toUtf8() +
                       "\n    bundle:\n      digest: sha256:" + digestHex.toUtf8() +
                       "\n      oci: ghcr.io/example/aicr-evidence:" + recipe.toUtf8() +
                       "\n      predicateType: https://aicr.run/recipe-evidence/" + predicate.toUtf8() + "\n";
        if (signer)
            y += "    signer:\n      identity: " + signer->identity.toUtf8() +
                 "\n      issuer: " + signer->issuer.toUtf8() +
                 "\n      rekorLogIndex: " + QByteArray::number(rekorIndex()) + "\n";
        return y + "recipe: " + recipe.toUtf8() + "\nschemaVersion: 1.0.0\n";
    }

    static bool write(const QString& path, const QByteArray& bytes) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    }

    // Writes the tree under `root` (an evidence directory: allowlist.yaml and the pointers).
    static bool writeTree(const QString& root) {
        const Signer community{communityIssuer(), communityIdentity()};
        const Signer partner{partnerIssuer(), partnerIdentity()};
        bool ok = write(root + QStringLiteral("/allowlist.yaml"),
                        "schemaVersion: 1.0.0\ncommunity:\n  - issuer: " + communityIssuer().toUtf8() +
                            "\n    source: " + communitySlug().toUtf8() +
                            "\n    label: alice\npartner:\n  - issuer: " + partnerIssuer().toUtf8() +
                            "\n    source: " + partnerSlug().toUtf8() + "\n    label: example-partner\n");
        auto perSource = [&](const QString& recipe, const QString& slug, char h, const QString& at,
                             const Signer& s) {
            return write(root + QStringLiteral("/%1/%2/sha256-%3.yaml").arg(recipe, slug, hex(h)),
                         pointer(recipe, hex(h), at, &s));
        };
        ok = ok && perSource(signedRecipe(), communitySlug(), 'a', QStringLiteral("2026-10-01T10:00:00Z"),
                             community);
        ok = ok &&
             perSource(signedRecipe(), partnerSlug(), 'b', QStringLiteral("2026-10-05T08:30:00Z"), partner);
        ok = ok && write(root + QStringLiteral("/%1.yaml").arg(pendingRecipe()),
                         pointer(pendingRecipe(), hex('c'), QStringLiteral("2026-10-02T12:00:00Z"), nullptr));
        // Signed by the community signer but filed under somebody else's source directory.
        ok = ok && perSource(invalidRecipe(), QString(32, QLatin1Char('0')), 'd',
                             QStringLiteral("2026-09-30T09:15:00Z"), community);
        ok = ok && perSource(outsideRecipe(), communitySlug(), 'e', QStringLiteral("2026-09-01T00:00:00Z"),
                             community);
        return ok;
    }
    static constexpr int kPointers = 5;
};

} // namespace pbgui
