// Builds AICR-style evidence bundles of our own, following the formats spec
// (../shared/reference/aicr-formats.md §2.4-2.5): a summary-bundle/ directory and the same content
// as an OCI image layout with one tar+gzip layer. Tests then tamper with copies.
#pragma once

#include "../OciLayoutFixture.h"
#include "catalog/Digest.h"
#include "catalog/Loader.h"
#include "core/Hash.h"
#include "store/CatalogStore.h"

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace pbtest {

inline void writeBytes(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
}

inline QByteArray ctrf(const QString& phase, int passed, int failed) {
    QJsonArray tests;
    for (int i = 0; i < passed + failed; ++i)
        tests.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("%1-check-%2").arg(phase).arg(i)},
            {QStringLiteral("status"), i < passed ? QStringLiteral("passed") : QStringLiteral("failed")},
            {QStringLiteral("duration"), 1000 + i},
            {QStringLiteral("suite"), QJsonArray{phase}}});
    const QJsonObject doc{
        {QStringLiteral("reportFormat"), QStringLiteral("CTRF")},
        {QStringLiteral("specVersion"), QStringLiteral("0.0.1")},
        {QStringLiteral("results"),
         QJsonObject{{QStringLiteral("tool"), QJsonObject{{QStringLiteral("name"), QStringLiteral("aicr")}}},
                     {QStringLiteral("summary"), QJsonObject{{QStringLiteral("tests"), passed + failed},
                                                             {QStringLiteral("passed"), passed},
                                                             {QStringLiteral("failed"), failed},
                                                             {QStringLiteral("skipped"), 0}}},
                     {QStringLiteral("tests"), tests}}}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

// A complete, consistent summary bundle for a leaf of the embedded catalog.
struct BundleFixture {
    QMap<QString, QByteArray> files;
    QString recipeName;
    QString predicateType = QStringLiteral("https://aicr.run/recipe-evidence/v3");
    QString attestedAt = QStringLiteral("2026-10-01T10:00:00Z");

    explicit BundleFixture(const QString& leaf = QStringLiteral("h100-eks-ubuntu-training-kubeflow"),
                           int failedPerf = 0) {
        pb::Result<pb::catalog::Catalog> cat =
            pb::catalog::loadCatalog(QStringLiteral(PB_SOURCE_DIR "/recipes/sample-2"));
        pb::catalog::RecipeResult r = *pb::store::resolveStoredRecipe(*cat, leaf);
        r.version = QStringLiteral("sample-2");
        recipeName = r.recipeName();
        files[QStringLiteral("recipe.yaml")] = pb::catalog::deterministicYaml(r);
        files[QStringLiteral("snapshot.yaml")] =
            "kind: Snapshot\napiVersion: aicr.run/v1\nmeasurements: []\n";
        files[QStringLiteral("bom.cdx.json")] =
            "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.6\", \"components\": []}\n";
        files[QStringLiteral("ctrf/deployment.json")] = ctrf(QStringLiteral("deployment"), 4, 0);
        files[QStringLiteral("ctrf/performance.json")] =
            ctrf(QStringLiteral("performance"), 1 - failedPerf, failedPerf);
        files[QStringLiteral("ctrf/conformance.json")] = ctrf(QStringLiteral("conformance"), 10, 0);
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
            const QJsonObject s = QJsonDocument::fromJson(files[QStringLiteral("ctrf/%1.json").arg(p)])
                                      .object()[QStringLiteral("results")]
                                      .toObject()[QStringLiteral("summary")]
                                      .toObject();
            phases.insert(p, QJsonObject{{QStringLiteral("passed"), s[QStringLiteral("passed")]},
                                         {QStringLiteral("failed"), s[QStringLiteral("failed")]},
                                         {QStringLiteral("skipped"), s[QStringLiteral("skipped")]},
                                         {QStringLiteral("ctrfDigest"),
                                          QStringLiteral("sha256:") +
                                              pb::sha256Hex(files[QStringLiteral("ctrf/%1.json").arg(p)])}});
        }
        const QString recipeDigest = *pb::catalog::evidenceRecipeDigest(
            files[QStringLiteral("recipe.yaml")], QStringLiteral("recipe.yaml"),
            *pb::catalog::parsePredicateType(predicateType));
        const QJsonObject statement{
            {QStringLiteral("_type"), QStringLiteral("https://in-toto.io/Statement/v1")},
            {QStringLiteral("subject"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("recipe:") + recipeName},
                 {QStringLiteral("digest"), QJsonObject{{QStringLiteral("sha256"), recipeDigest}}}}}},
            {QStringLiteral("predicateType"), predicateType},
            {QStringLiteral("predicate"),
             QJsonObject{
                 {QStringLiteral("schemaVersion"), QStringLiteral("1.0.0")},
                 {QStringLiteral("attestedAt"), attestedAt},
                 {QStringLiteral("aicrVersion"), QStringLiteral("v1.0.0")},
                 {QStringLiteral("recipe"), QJsonObject{{QStringLiteral("name"), recipeName},
                                                        {QStringLiteral("digest"), recipeDigest}}},
                 {QStringLiteral("phases"), phases},
                 {QStringLiteral("manifest"),
                  QJsonObject{{QStringLiteral("digest"), QStringLiteral("sha256:") + pb::sha256Hex(manifest)},
                              {QStringLiteral("fileCount"), list.size()}}}}}};
        files[QStringLiteral("manifest.json")] = manifest;
        files[QStringLiteral("statement.intoto.json")] =
            QJsonDocument(statement).toJson(QJsonDocument::Indented);
    }

    // Signs statement.intoto.json as a key-mode Sigstore bundle (v0.3, DSSE over PAE, no log entry)
    // into attestation.intoto.jsonl, with OpenSSL directly; returns the public key as PEM.
    QByteArray signWithNewKey() {
        EVP_PKEY* key = EVP_EC_gen("P-256");
        const QByteArray payload = files[QStringLiteral("statement.intoto.json")];
        const QByteArray type = "application/vnd.in-toto+json";
        const QByteArray pae = "DSSEv1 " + QByteArray::number(type.size()) + ' ' + type + ' ' +
                               QByteArray::number(payload.size()) + ' ' + payload;
        EVP_MD_CTX* ctx = EVP_MD_CTX_new();
        EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key);
        size_t len = 0;
        EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(pae.constData()),
                       size_t(pae.size()));
        QByteArray sig(qsizetype(len), Qt::Uninitialized);
        EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                       reinterpret_cast<const unsigned char*>(pae.constData()), size_t(pae.size()));
        sig.truncate(qsizetype(len));
        EVP_MD_CTX_free(ctx);
        BIO* bio = BIO_new(BIO_s_mem());
        PEM_write_bio_PUBKEY(bio, key);
        char* data = nullptr;
        const long n = BIO_get_mem_data(bio, &data);
        const QByteArray pem(data, int(n));
        BIO_free(bio);
        EVP_PKEY_free(key);
        const QJsonObject bundle{
            {QStringLiteral("mediaType"), QStringLiteral("application/vnd.dev.sigstore.bundle.v0.3+json")},
            {QStringLiteral("verificationMaterial"),
             QJsonObject{{QStringLiteral("publicKey"),
                          QJsonObject{{QStringLiteral("hint"), QStringLiteral("test")}}}}},
            {QStringLiteral("dsseEnvelope"),
             QJsonObject{
                 {QStringLiteral("payload"), QString::fromLatin1(payload.toBase64())},
                 {QStringLiteral("payloadType"), QString::fromLatin1(type)},
                 {QStringLiteral("signatures"),
                  QJsonArray{QJsonObject{{QStringLiteral("sig"), QString::fromLatin1(sig.toBase64())}}}}}}};
        files[QStringLiteral("attestation.intoto.jsonl")] =
            QJsonDocument(bundle).toJson(QJsonDocument::Compact) + '\n';
        return pem;
    }

    QString writeDirectory(const QString& parent) const {
        const QString root = parent + QStringLiteral("/summary-bundle");
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            writeBytes(root + QLatin1Char('/') + it.key(), it.value());
        return root;
    }

    // A tar+gzip layer of the files (extra raw entries let tests add hostile members).
    static QByteArray tarGz(const QMap<QString, QByteArray>& files,
                            const QList<QPair<QString, int>>& hostile = {}) {
        QByteArray out(8 * 1024 * 1024, Qt::Uninitialized);
        size_t used = 0;
        archive* a = archive_write_new();
        archive_write_add_filter_gzip(a);
        archive_write_set_format_pax_restricted(a);
        archive_write_open_memory(a, out.data(), static_cast<size_t>(out.size()), &used);
        auto add = [&](const QString& path, const QByteArray& bytes, int type, const char* link) {
            archive_entry* e = archive_entry_new();
            archive_entry_set_pathname(e, path.toUtf8().constData());
            archive_entry_set_filetype(e, static_cast<unsigned>(type));
            archive_entry_set_perm(e, 0644);
            archive_entry_set_size(e, type == AE_IFREG ? bytes.size() : 0);
            if (link)
                archive_entry_set_symlink(e, link);
            archive_write_header(a, e);
            if (type == AE_IFREG)
                archive_write_data(a, bytes.constData(), static_cast<size_t>(bytes.size()));
            archive_entry_free(e);
        };
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            add(it.key(), it.value(), AE_IFREG, nullptr);
        for (const auto& [path, type] : hostile)
            add(path, "evil\n", type, type == AE_IFLNK ? "/etc/passwd" : nullptr);
        archive_write_close(a);
        archive_write_free(a);
        out.truncate(static_cast<qsizetype>(used));
        return out;
    }

    // Writes an OCI image layout; returns the manifest digest ("sha256:...").
    static QString writeOciLayout(const QString& dir, const QByteArray& layer) {
        return writeLayoutAround(dir, writeLayoutBlob(dir, layer), layer.size());
    }
};

} // namespace pbtest
