// The files of an OCI image layout around a layer blob already in blobs/sha256/: the empty config,
// the manifest naming the layer, index.json and oci-layout. Shared by the evidence fixtures and the
// evidence benchmark (which writes its large layers straight to disk). Qt Core only.
#pragma once

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace pbtest {

// Writes `bytes` as a blob of the layout at `dir`; returns its digest ("sha256:...").
inline QString writeLayoutBlob(const QString& dir, const QByteArray& bytes) {
    const QString hex =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    QDir().mkpath(dir + QStringLiteral("/blobs/sha256"));
    QFile f(dir + QStringLiteral("/blobs/sha256/") + hex);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write a blob in %s", qPrintable(dir));
    return QStringLiteral("sha256:") + hex;
}

// Writes the rest of the layout around the layer `layerDigest` of `layerSize` bytes; returns the
// manifest digest ("sha256:...").
inline QString writeLayoutAround(const QString& dir, const QString& layerDigest, qint64 layerSize) {
    const QString configDigest = writeLayoutBlob(dir, "{}");
    const QByteArray manifest =
        QJsonDocument(
            QJsonObject{
                {QStringLiteral("schemaVersion"), 2},
                {QStringLiteral("mediaType"), QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
                {QStringLiteral("artifactType"), QStringLiteral("application/vnd.nvidia.aicr.artifact")},
                {QStringLiteral("config"), QJsonObject{{QStringLiteral("mediaType"),
                                                        QStringLiteral("application/vnd.oci.empty.v1+json")},
                                                       {QStringLiteral("digest"), configDigest},
                                                       {QStringLiteral("size"), 2}}},
                {QStringLiteral("layers"),
                 QJsonArray{QJsonObject{{QStringLiteral("mediaType"),
                                         QStringLiteral("application/vnd.oci.image.layer.v1.tar+gzip")},
                                        {QStringLiteral("digest"), layerDigest},
                                        {QStringLiteral("size"), layerSize}}}}})
            .toJson(QJsonDocument::Compact);
    const QString manifestDigest = writeLayoutBlob(dir, manifest);
    QFile layout(dir + QStringLiteral("/oci-layout"));
    QFile index(dir + QStringLiteral("/index.json"));
    if (!layout.open(QIODevice::WriteOnly) || !index.open(QIODevice::WriteOnly))
        qFatal("cannot write the layout in %s", qPrintable(dir));
    layout.write("{\"imageLayoutVersion\": \"1.0.0\"}");
    index.write(QJsonDocument(QJsonObject{{QStringLiteral("schemaVersion"), 2},
                                          {QStringLiteral("manifests"),
                                           QJsonArray{QJsonObject{
                                               {QStringLiteral("mediaType"),
                                                QStringLiteral("application/vnd.oci.image.manifest.v1+json")},
                                               {QStringLiteral("digest"), manifestDigest},
                                               {QStringLiteral("size"), manifest.size()}}}}})
                    .toJson());
    return manifestDigest;
}

} // namespace pbtest
