// An evidence tree for the embedded sample-2 catalog, written the way AICR lays it out
// (engine/evidence/Evidence.h): an allowlist with a community and a partner signer, per-source
// signed pointers under <recipe>/<slug>/sha256-<hex>.yaml, a flat pending pointer, an invalid
// pointer (wrong source directory) and evidence for a recipe the catalog does not have.
// BundleDirFixture: a consistent AICR summary bundle (directory form) for a leaf of the embedded
// catalog, as tests/engine/BundleFixture.h builds it but without the OCI layout (no libarchive).
#pragma once

#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "core/Hash.h"
#include "evidence/Evidence.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
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

    // Recipes of sample-2 and what the tree says about them.
    static QString signedRecipe() {
        return QStringLiteral("h100-eks-ubuntu-training-kubeflow");
    } // community + partner
    static QString pendingRecipe() {
        return QStringLiteral("gb200-eks-ubuntu-inference-dynamo");
    } // flat, unsigned
    static QString invalidRecipe() {
        return QStringLiteral("h100-gke-cos-training-kubeflow");
    } // wrong source dir
    static QString outsideRecipe() { return QStringLiteral("vr200-rke2-ubuntu-training"); } // not in sample-2
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

// A summary-bundle/ directory: recipe.yaml (the leaf resolved from the embedded sample-2 catalog),
// snapshot, BOM, a CTRF report per phase, manifest.json and statement.intoto.json consistent with
// them. `failedPerf` performance tests fail (with a message), so the check says "failed phases".
struct BundleDirFixture {
    QMap<QString, QByteArray> files;
    QString recipeName;
    QString predicateType = QStringLiteral("https://aicr.run/recipe-evidence/v3");
    QString attestedAt = QStringLiteral("2026-10-01T10:00:00Z");
    QString aicrVersion = QStringLiteral("sample-2");
    QString recipeDigest; // 64 hex, as the statement records it

    static QString failedTestMessage() { return QStringLiteral("busbw 312.4 GB/s below threshold 350 GB/s"); }

    static QByteArray ctrf(const QString& phase, int passed, int failed) {
        QJsonArray tests;
        for (int i = 0; i < passed + failed; ++i) {
            QJsonObject t{
                {QStringLiteral("name"), QStringLiteral("%1-check-%2").arg(phase).arg(i)},
                {QStringLiteral("status"), i < passed ? QStringLiteral("passed") : QStringLiteral("failed")},
                {QStringLiteral("duration"), 1000 + 250 * i},
                {QStringLiteral("suite"), QJsonArray{phase}}};
            if (i >= passed)
                t.insert(QStringLiteral("message"), failedTestMessage());
            tests.append(t);
        }
        const QJsonObject summary{{QStringLiteral("tests"), passed + failed},
                                  {QStringLiteral("passed"), passed},
                                  {QStringLiteral("failed"), failed},
                                  {QStringLiteral("skipped"), 0}};
        const QJsonObject doc{{QStringLiteral("reportFormat"), QStringLiteral("CTRF")},
                              {QStringLiteral("specVersion"), QStringLiteral("0.0.1")},
                              {QStringLiteral("results"),
                               QJsonObject{{QStringLiteral("tool"),
                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("aicr")}}},
                                           {QStringLiteral("summary"), summary},
                                           {QStringLiteral("tests"), tests}}}};
        return QJsonDocument(doc).toJson(QJsonDocument::Indented);
    }

    // `catalogDir`/`version`: another catalog's leaf (the screenshots use the real one).
    explicit BundleDirFixture(const QString& leaf = EvidenceFixture::signedRecipe(), int failedPerf = 1,
                              const QString& catalogDir = QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"),
                              const QString& version = QStringLiteral("sample-2")) {
        pb::Result<pb::catalog::Catalog> cat = pb::catalog::loadCatalog(catalogDir);
        if (!cat)
            qFatal("%s", qPrintable(cat.error().toString()));
        pb::Result<pb::catalog::RecipeResult> r = pb::store::resolveStoredRecipe(*cat, leaf);
        if (!r)
            qFatal("%s", qPrintable(r.error().toString()));
        r->version = version;
        recipeName = r->recipeName();
        files[QStringLiteral("recipe.yaml")] = pb::catalog::deterministicYaml(*r);
        files[QStringLiteral("snapshot.yaml")] =
            "kind: Snapshot\napiVersion: aicr.run/v1\nmeasurements: []\n";
        files[QStringLiteral("bom.cdx.json")] =
            "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": []}\n";
        files[QStringLiteral("ctrf/deployment.json")] = ctrf(QStringLiteral("deployment"), 4, 0);
        files[QStringLiteral("ctrf/performance.json")] = ctrf(QStringLiteral("performance"), 2, failedPerf);
        files[QStringLiteral("ctrf/conformance.json")] = ctrf(QStringLiteral("conformance"), 6, 0);
        seal();
    }

    // (Re)writes manifest.json and statement.intoto.json over the current files.
    void seal() {
        files.remove(QStringLiteral("manifest.json"));
        files.remove(QStringLiteral("statement.intoto.json"));
        QJsonArray list;
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            list.append(QJsonObject{
                {QStringLiteral("path"), it.key()},
                {QStringLiteral("size"), it.value().size()},
                {QStringLiteral("sha256"), QStringLiteral("sha256:") + pb::sha256Hex(it.value())}});
        const QByteArray manifest =
            QJsonDocument(QJsonObject{{QStringLiteral("schemaVersion"), QStringLiteral("1.0.0")},
                                      {QStringLiteral("files"), list}})
                .toJson(QJsonDocument::Indented);
        QJsonObject phases;
        for (const QString& p :
             {QStringLiteral("deployment"), QStringLiteral("performance"), QStringLiteral("conformance")}) {
            const QByteArray& report = files[QStringLiteral("ctrf/%1.json").arg(p)];
            const QJsonObject s = QJsonDocument::fromJson(report)
                                      .object()[QStringLiteral("results")]
                                      .toObject()[QStringLiteral("summary")]
                                      .toObject();
            phases.insert(p, QJsonObject{{QStringLiteral("passed"), s[QStringLiteral("passed")]},
                                         {QStringLiteral("failed"), s[QStringLiteral("failed")]},
                                         {QStringLiteral("skipped"), s[QStringLiteral("skipped")]},
                                         {QStringLiteral("ctrfDigest"),
                                          QStringLiteral("sha256:") + pb::sha256Hex(report)}});
        }
        recipeDigest = *pb::catalog::evidenceRecipeDigest(files[QStringLiteral("recipe.yaml")],
                                                          QStringLiteral("recipe.yaml"),
                                                          *pb::catalog::parsePredicateType(predicateType));
        const QJsonObject predicate{
            {QStringLiteral("schemaVersion"), QStringLiteral("1.0.0")},
            {QStringLiteral("attestedAt"), attestedAt},
            {QStringLiteral("aicrVersion"), aicrVersion},
            {QStringLiteral("recipe"),
             QJsonObject{{QStringLiteral("name"), recipeName}, {QStringLiteral("digest"), recipeDigest}}},
            {QStringLiteral("phases"), phases},
            {QStringLiteral("manifest"),
             QJsonObject{{QStringLiteral("digest"), QStringLiteral("sha256:") + pb::sha256Hex(manifest)},
                         {QStringLiteral("fileCount"), list.size()}}}};
        const QJsonObject statement{
            {QStringLiteral("_type"), QStringLiteral("https://in-toto.io/Statement/v1")},
            {QStringLiteral("subject"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("recipe:") + recipeName},
                 {QStringLiteral("digest"), QJsonObject{{QStringLiteral("sha256"), recipeDigest}}}}}},
            {QStringLiteral("predicateType"), predicateType},
            {QStringLiteral("predicate"), predicate}};
        files[QStringLiteral("manifest.json")] = manifest;
        files[QStringLiteral("statement.intoto.json")] =
            QJsonDocument(statement).toJson(QJsonDocument::Indented);
    }

    // Writes <parent>/summary-bundle/…; returns that directory, empty on failure.
    QString writeDirectory(const QString& parent) const {
        const QString root = parent + QStringLiteral("/summary-bundle");
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            if (!EvidenceFixture::write(root + QLatin1Char('/') + it.key(), it.value()))
                return {};
        return root;
    }
};

} // namespace pbgui
