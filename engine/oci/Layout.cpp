#include "oci/Layout.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "oci/Reference.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QStandardPaths>

namespace pb::oci {

QJsonObject Descriptor::toJson() const {
    QJsonObject o;
    o.insert(QStringLiteral("mediaType"), mediaType);
    if (!artifactType.isEmpty())
        o.insert(QStringLiteral("artifactType"), artifactType);
    o.insert(QStringLiteral("digest"), digest);
    o.insert(QStringLiteral("size"), size);
    if (!annotations.isEmpty())
        o.insert(QStringLiteral("annotations"), annotations);
    return o;
}

Descriptor Descriptor::fromJson(const QJsonObject& o) {
    Descriptor d;
    d.mediaType = o.value(QStringLiteral("mediaType")).toString();
    d.artifactType = o.value(QStringLiteral("artifactType")).toString();
    d.digest = o.value(QStringLiteral("digest")).toString();
    d.size = o.value(QStringLiteral("size")).toInteger(-1);
    d.annotations = o.value(QStringLiteral("annotations")).toObject();
    return d;
}

bool isManifestType(const QString& t) {
    return t == QLatin1String(kImageManifest) || t == QLatin1String(kDockerManifest);
}
bool isIndexType(const QString& t) {
    return t == QLatin1String(kImageIndex) || t == QLatin1String(kDockerManifestList);
}

std::vector<Descriptor> childrenOf(const QJsonObject& manifest) {
    std::vector<Descriptor> out;
    if (manifest.contains(QStringLiteral("config")))
        out.push_back(Descriptor::fromJson(manifest.value(QStringLiteral("config")).toObject()));
    for (const QJsonValue& v : manifest.value(QStringLiteral("layers")).toArray())
        out.push_back(Descriptor::fromJson(v.toObject()));
    for (const QJsonValue& v : manifest.value(QStringLiteral("manifests")).toArray())
        out.push_back(Descriptor::fromJson(v.toObject()));
    return out;
}

QString Layout::defaultCacheDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/oci");
}

Result<Layout> Layout::open(const QString& dirIn) {
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    if (!QDir().mkpath(dir + QStringLiteral("/blobs/sha256")))
        return makeError(QStringLiteral("cannot create the layout's blobs/sha256 directory"), dir);
    const QString marker = dir + QStringLiteral("/oci-layout");
    if (QFileInfo::exists(marker)) {
        Result<QByteArray> bytes = readFileLimited(marker, limits::kSmallFile, QStringLiteral("oci-layout"));
        if (!bytes)
            return bytes.error();
        const QString v =
            QJsonDocument::fromJson(*bytes).object().value(QStringLiteral("imageLayoutVersion")).toString();
        if (v != QLatin1String("1.0.0"))
            return makeError(QStringLiteral("imageLayoutVersion '%1' is not 1.0.0").arg(v), marker, 0,
                             QStringLiteral("imageLayoutVersion"));
    } else if (Status s = writeFileAtomically(marker, "{\"imageLayoutVersion\":\"1.0.0\"}"); !s) {
        return s.error();
    }
    const QString index = dir + QStringLiteral("/index.json");
    if (!QFileInfo::exists(index)) {
        if (Status s = writeFileAtomically(index, "{\"schemaVersion\":2,\"mediaType\":\"application/"
                                                  "vnd.oci.image.index.v1+json\",\"manifests\":[]}");
            !s)
            return s.error();
    }
    Layout l;
    l.m_dir = dir;
    return l;
}

QString Layout::blobPath(const QString& digest) const {
    return m_dir + QStringLiteral("/blobs/sha256/") + digest.mid(7);
}

bool Layout::hasBlob(const QString& digest) const {
    return isValidDigest(digest) && QFileInfo::exists(blobPath(digest));
}

Result<QByteArray> Layout::readBlob(const QString& digest, qint64 maxBytes) const {
    if (!isValidDigest(digest))
        return makeError(QStringLiteral("'%1' is not a sha256 digest").arg(digest), m_dir, 0,
                         QStringLiteral("digest"));
    const QString path = blobPath(digest);
    QFile f(path);
    if (Status opened = openInputFile(f, QStringLiteral("the blob")); !opened) {
        if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink())
            return makeError(QStringLiteral("blob missing from the layout: %1").arg(opened.error().message),
                             path);
        return opened.error(); // a pipe, device or directory where the blob should be
    }
    if (f.size() > maxBytes)
        return makeError(
            QStringLiteral("blob is %1 bytes, over the %2 allowed here").arg(f.size()).arg(maxBytes), path);
    Result<QByteArray> b = readLimited(f, maxBytes, QStringLiteral("the blob"));
    if (!b)
        return b.error();
    if (QStringLiteral("sha256:") + sha256Hex(*b) != digest)
        return makeError(QStringLiteral("blob content does not match its digest (the layout is corrupt)"),
                         path);
    return std::move(*b);
}

QString Layout::tempPath() const {
    return m_dir + QStringLiteral("/blobs/.partial-%1")
                       .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

Status Layout::adoptBlob(const QString& tempFile, const QString& digest) {
    const QString target = blobPath(digest);
    if (QFileInfo::exists(target)) {
        QFile::remove(tempFile);
        return {};
    }
    if (!QFile::rename(tempFile, target)) {
        QFile::remove(tempFile);
        return makeError(QStringLiteral("cannot move the verified blob into place"), target);
    }
    return {};
}

Result<QString> Layout::writeBlob(const QByteArray& bytes) {
    const QString digest = QStringLiteral("sha256:") + sha256Hex(bytes);
    if (hasBlob(digest))
        return digest;
    if (Status s = writeFileAtomically(blobPath(digest), bytes); !s)
        return s.error();
    return digest;
}

std::vector<Descriptor> Layout::manifests() const {
    std::vector<Descriptor> out;
    Result<QByteArray> bytes = readFileLimited(m_dir + QStringLiteral("/index.json"), limits::kConfigFile,
                                               QStringLiteral("index.json"));
    if (!bytes)
        return out;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(*bytes).object().value(QStringLiteral("manifests")).toArray())
        out.push_back(Descriptor::fromJson(v.toObject()));
    return out;
}

Status Layout::addManifest(Descriptor manifest, const QString& refName) {
    const QString file = m_dir + QStringLiteral("/index.json");
    QJsonObject index;
    if (QFileInfo::exists(file) || QFileInfo(file).isSymLink()) {
        Result<QByteArray> bytes = readFileLimited(file, limits::kConfigFile, QStringLiteral("index.json"));
        if (!bytes)
            return bytes.error();
        index = QJsonDocument::fromJson(*bytes).object();
    }
    if (!refName.isEmpty())
        manifest.annotations.insert(QLatin1String(kRefName), refName);
    // Replaced in place: the first entry stays first (loadOciLayout reads the first as the bundle).
    QJsonArray kept;
    bool replaced = false;
    for (const QJsonValue& v : index.value(QStringLiteral("manifests")).toArray()) {
        const Descriptor d = Descriptor::fromJson(v.toObject());
        const QString name = d.annotations.value(QLatin1String(kRefName)).toString();
        if (refName.isEmpty() ? d.digest == manifest.digest && name.isEmpty() : name == refName) {
            if (!replaced)
                kept.append(manifest.toJson());
            replaced = true;
            continue;
        }
        kept.append(v);
    }
    if (!replaced)
        kept.append(manifest.toJson());
    index.insert(QStringLiteral("schemaVersion"), 2);
    index.insert(QStringLiteral("mediaType"), QLatin1String(kImageIndex));
    index.insert(QStringLiteral("manifests"), kept);
    return writeFileAtomically(file, QJsonDocument(index).toJson(QJsonDocument::Indented));
}

Result<Descriptor> Layout::findManifest(const QString& key) const {
    const std::vector<Descriptor> all = manifests();
    if (key.isEmpty()) {
        if (all.size() == 1)
            return all.front();
        return makeError(
            QStringLiteral("index.json lists %1 manifests; name one by tag or digest").arg(all.size()),
            m_dir + QStringLiteral("/index.json"), 0, QStringLiteral("manifests"));
    }
    for (const Descriptor& d : all)
        if (d.digest == key || d.annotations.value(QLatin1String(kRefName)).toString() == key)
            return d;
    return makeError(QStringLiteral("no manifest named '%1' in index.json").arg(key),
                     m_dir + QStringLiteral("/index.json"), 0, QStringLiteral("manifests"));
}

} // namespace pb::oci
