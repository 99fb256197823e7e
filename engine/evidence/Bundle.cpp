#include "evidence/Bundle.h"
#include "core/Files.h"
#include "core/Plural.h"

#include "catalog/Digest.h"
#include "core/Hash.h"
#include "yaml/Yaml.h"

#include <archive.h>
#include <archive_entry.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <memory>

namespace pb::evidence {

// ---- archives -----------------------------------------------------------------------------------

namespace {

using ArchivePtr = std::unique_ptr<archive, int (*)(archive*)>;

ArchivePtr newTarReader() {
    ArchivePtr a(archive_read_new(), archive_read_free);
    archive_read_support_filter_gzip(a.get());
    archive_read_support_filter_none(a.get());
    archive_read_support_format_tar(a.get());
    return a;
}

QString archiveError(archive* a) {
    const char* e = archive_error_string(a);
    return QString::fromUtf8(e ? e : "unknown error");
}

// Every member of an opened archive, checked and hashed; bytes kept for the members `keep` names.
Result<TarContents> readMembers(archive* a, const QString& name, const ExtractLimits& limits,
                                const std::function<bool(const QString&)>& keep) {
    TarContents out;
    qint64 total = 0, members = 0, keptBytes = 0;
    archive_entry* entry = nullptr;
    QByteArray chunk(256 * 1024, Qt::Uninitialized);
    for (;;) {
        const int rc = archive_read_next_header(a, &entry);
        if (rc == ARCHIVE_EOF)
            break;
        if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
            return makeError(QStringLiteral("corrupt archive: %1").arg(archiveError(a)), name);
        if (++members > limits.maxMembers)
            return makeError(QStringLiteral("more than %1 members").arg(limits.maxMembers), name);
        const char* rawPath = archive_entry_pathname(entry);
        const QString raw = QString::fromUtf8(rawPath ? rawPath : "");
        QString path = raw;
        const QString shown = name + QStringLiteral(" member '") + path + QLatin1Char('\'');
        if (path.startsWith(QLatin1Char('/')) || (path.size() > 1 && path[1] == QLatin1Char(':')))
            return makeError(QStringLiteral("absolute path refused"), shown);
        while (path.startsWith(QLatin1String("./")))
            path = path.mid(2);
        const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (parts.contains(QStringLiteral("..")))
            return makeError(QStringLiteral("path traversal ('..') refused"), shown);
        const mode_t type = archive_entry_filetype(entry);
        if (type == AE_IFDIR || path.isEmpty() || path == QLatin1String("."))
            continue;
        if (archive_entry_hardlink(entry) || type == AE_IFLNK)
            return makeError(QStringLiteral("links are refused"), shown);
        if (type != AE_IFREG)
            return makeError(
                QStringLiteral("only regular files are allowed (devices, fifos and sockets are refused)"),
                shown);
        const la_int64_t size = archive_entry_size(entry);
        if (size < 0 || size > limits.maxMemberBytes)
            return makeError(QStringLiteral("member larger than %1 MiB").arg(limits.maxMemberBytes >> 20),
                             shown);
        total += size;
        if (total > limits.maxTotalBytes)
            return makeError(QStringLiteral("archive expands beyond %1 MiB").arg(limits.maxTotalBytes >> 20),
                             name);
        const QString clean = parts.join(QLatin1Char('/'));
        if (const auto first = out.memberNames.constFind(clean); first != out.memberNames.cend()) {
            if (first.value() == raw)
                return makeError(QStringLiteral("member '%1' appears twice").arg(first.value()), name);
            return makeError(
                QStringLiteral("members '%1' and '%2' are the same file '%3'").arg(first.value(), raw, clean),
                name);
        }
        const bool kept = !keep || keep(clean);
        QByteArray data;
        if (kept) {
            keptBytes += size;
            if (limits.maxKeptBytes >= 0 && keptBytes > limits.maxKeptBytes)
                return makeError(QStringLiteral("members kept in memory exceed %1 MiB (at '%2')")
                                     .arg(limits.maxKeptBytes >> 20)
                                     .arg(raw),
                                 name);
            data.reserve(static_cast<qsizetype>(size));
        }
        Sha256 hash;
        qint64 got = 0;
        for (;;) {
            const la_ssize_t n = archive_read_data(a, chunk.data(), static_cast<size_t>(chunk.size()));
            if (n < 0)
                return makeError(QStringLiteral("cannot read: %1").arg(archiveError(a)), shown);
            if (n == 0)
                break;
            got += n;
            if (got > size) // the header's size is the bound; a reader never hands over more
                return makeError(QStringLiteral("member longer than its header says"), shown);
            hash.add(chunk.constData(), static_cast<qsizetype>(n));
            if (kept)
                data.append(chunk.constData(), static_cast<qsizetype>(n));
        }
        if (got != size)
            return makeError(QStringLiteral("truncated member"), shown);
        out.memberNames.insert(clean, raw);
        out.digests.insert(clean, FileDigest{size, hash.result()});
        if (kept)
            out.files.insert(clean, data);
    }
    return out;
}

// libarchive reads the file through this, so the file's own digest is taken from the very bytes
// the archive was read from (one pass, no second read that could see other content).
struct HashingReader {
    QFile file;
    Sha256 hash;
    QByteArray buffer = QByteArray(256 * 1024, Qt::Uninitialized);
    qint64 read = 0;
    bool failed = false;

    static la_ssize_t onRead(archive*, void* self, const void** out) {
        auto* r = static_cast<HashingReader*>(self);
        const qint64 n = r->file.read(r->buffer.data(), r->buffer.size());
        if (n < 0) {
            r->failed = true;
            return -1;
        }
        r->hash.add(r->buffer.constData(), static_cast<qsizetype>(n));
        r->read += n;
        *out = r->buffer.constData();
        return static_cast<la_ssize_t>(n);
    }
};

} // namespace

Result<QMap<QString, QByteArray>> extractTar(const QByteArray& bytes, const QString& name,
                                             const ExtractLimits& limits) {
    ArchivePtr a = newTarReader();
    if (archive_read_open_memory(a.get(), bytes.constData(), static_cast<size_t>(bytes.size())) != ARCHIVE_OK)
        return makeError(QStringLiteral("not a tar archive: %1").arg(archiveError(a.get())), name);
    Result<TarContents> read = readMembers(a.get(), name, limits, {});
    if (!read)
        return read.error();
    return read->files;
}

Result<TarContents> streamTarFile(const QString& path, const QString& name, const ExtractLimits& limits,
                                  const std::function<bool(const QString&)>& keep,
                                  const QByteArray& expectedSha256) {
    HashingReader reader;
    reader.file.setFileName(path);
    if (Status opened = openInputFile(reader.file, name); !opened)
        return opened.error();
    ArchivePtr a = newTarReader();
    if (archive_read_open(a.get(), &reader, nullptr, &HashingReader::onRead, nullptr) != ARCHIVE_OK)
        return makeError(QStringLiteral("not a tar archive: %1").arg(archiveError(a.get())), name);
    Result<TarContents> read = readMembers(a.get(), name, limits, keep);
    if (!expectedSha256.isEmpty()) {
        // What follows the archive's end (padding, or anything appended) is part of the blob too;
        // a blob that is not what its digest names says so first, whatever its archive looked like.
        for (;;) {
            const qint64 n = reader.file.read(reader.buffer.data(), reader.buffer.size());
            if (n < 0)
                return makeError(QStringLiteral("cannot read: %1").arg(reader.file.errorString()), path);
            if (n == 0)
                break;
            reader.hash.add(reader.buffer.constData(), static_cast<qsizetype>(n));
            reader.read += n;
        }
        if (reader.hash.result() != expectedSha256)
            return makeError(QStringLiteral("blob content does not match its digest sha256:%1")
                                 .arg(QString::fromLatin1(expectedSha256.toHex())),
                             path);
    }
    return read;
}

// ---- CTRF ---------------------------------------------------------------------------------------

Result<CtrfReport> parseCtrf(const QByteArray& bytes, const QString& file) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("malformed JSON: %1").arg(err.errorString()), file);
    const QJsonObject results = doc.object().value(QStringLiteral("results")).toObject();
    if (results.isEmpty())
        return makeError(QStringLiteral("not a CTRF report: no results object"), file, 0,
                         QStringLiteral("results"));
    CtrfReport r;
    r.phase = QFileInfo(file).completeBaseName();
    const QJsonObject s = results.value(QStringLiteral("summary")).toObject();
    r.tests = s.value(QStringLiteral("tests")).toInt();
    r.passed = s.value(QStringLiteral("passed")).toInt();
    r.failed = s.value(QStringLiteral("failed")).toInt();
    r.skipped = s.value(QStringLiteral("skipped")).toInt();
    r.pending = s.value(QStringLiteral("pending")).toInt();
    r.other = s.value(QStringLiteral("other")).toInt();
    for (const QJsonValue& v : results.value(QStringLiteral("tests")).toArray()) {
        const QJsonObject t = v.toObject();
        CtrfTest ct;
        ct.name = t.value(QStringLiteral("name")).toString();
        ct.status = t.value(QStringLiteral("status")).toString();
        ct.message = t.value(QStringLiteral("message")).toString();
        ct.durationMs = t.value(QStringLiteral("duration")).toDouble();
        QStringList suite;
        for (const QJsonValue& sv : t.value(QStringLiteral("suite")).toArray())
            suite << sv.toString();
        ct.suite = suite.join(QLatin1Char('/'));
        r.results.push_back(ct);
    }
    return r;
}

// ---- loading ------------------------------------------------------------------------------------

QStringList SummaryBundle::paths() const {
    QStringList out = digests.keys();
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        if (!digests.contains(it.key()))
            out << it.key();
    std::sort(out.begin(), out.end());
    return out;
}

bool checkedContent(const QString& path) {
    static const QSet<QString> named{QStringLiteral("manifest.json"), QStringLiteral("statement.intoto.json"),
                                     QStringLiteral("attestation.intoto.jsonl"),
                                     QStringLiteral("recipe.yaml")};
    return named.contains(path) ||
           (path.startsWith(QLatin1String("ctrf/")) && path.endsWith(QLatin1String(".json")) &&
            path.count(QLatin1Char('/')) == 1);
}

namespace {

constexpr qint64 kMaxBundleFile = bundle_limits::kFile;
constexpr qint64 kMaxBundleTotal = bundle_limits::kTotal;
constexpr qint64 kMaxChecked = bundle_limits::kChecked;

QString checkedTooLarge() {
    return QStringLiteral("the files the checks read (manifest, statement, attestation, recipe, CTRF "
                          "reports) are larger than %1 MiB together")
        .arg(kMaxChecked >> 20);
}

// One file of a summary-bundle directory: hashed in chunks, its bytes kept only when asked.
Status readBundleFile(const QString& abs, const QString& rel, bool keep, SummaryBundle& b) {
    QFile f(abs);
    if (Status opened = openInputFile(f, rel); !opened)
        return opened;
    if (keep) {
        Result<QByteArray> bytes = readLimited(f, kMaxBundleFile, rel);
        if (!bytes)
            return bytes.error();
        b.digests.insert(rel, FileDigest{bytes->size(), sha256(*bytes)});
        b.files.insert(rel, std::move(*bytes));
        return {};
    }
    Sha256 hash;
    QByteArray chunk(256 * 1024, Qt::Uninitialized);
    qint64 size = 0;
    for (;;) {
        const qint64 n = f.read(chunk.data(), chunk.size());
        if (n < 0)
            return makeError(QStringLiteral("cannot read: %1").arg(f.errorString()), abs);
        if (n == 0)
            break;
        size += n;
        if (size > kMaxBundleFile) // grown since it was measured
            return makeError(QStringLiteral("file larger than 64 MiB"), abs);
        hash.add(chunk.constData(), static_cast<qsizetype>(n));
    }
    b.digests.insert(rel, FileDigest{size, hash.result()});
    return {};
}

} // namespace

Result<SummaryBundle> loadSummaryBundle(const QString& dirIn, BundleContent content) {
    QString dir = QFileInfo(dirIn).absoluteFilePath();
    if (QFileInfo(dir + QStringLiteral("/summary-bundle")).isDir())
        dir += QStringLiteral("/summary-bundle");
    if (!QFileInfo::exists(dir + QStringLiteral("/manifest.json")) &&
        !QFileInfo::exists(dir + QStringLiteral("/statement.intoto.json")))
        return makeError(QStringLiteral("not a summary bundle: no manifest.json or statement.intoto.json"),
                         dirIn);
    SummaryBundle b;
    b.source = dir;
    // Every entry is looked at: a link (to a file or a directory), pipe, socket or device is refused
    // by name, never passed over. Sizes are checked before anything is read.
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    const QDir base(dir);
    qint64 checked = 0;
    while (it.hasNext()) {
        const QString abs = it.next();
        const QString rel = base.relativeFilePath(abs);
        if (it.fileInfo().isSymLink())
            return makeError(QStringLiteral("symbolic links are refused in a bundle"), abs);
        if (it.fileInfo().isDir())
            continue;
        if (!isRegularFileNoFollow(abs))
            return makeError(QStringLiteral("only regular files are allowed in a bundle (this is %1)")
                                 .arg(describeFileType(abs)),
                             abs);
        const qint64 size = it.fileInfo().size();
        if (size > kMaxBundleFile)
            return makeError(QStringLiteral("file larger than 64 MiB"), abs);
        b.expandedBytes += size;
        if (b.expandedBytes > kMaxBundleTotal)
            return makeError(QStringLiteral("bundle larger than 512 MiB"), dirIn);
        const bool keep = content == BundleContent::All || checkedContent(rel);
        if (keep && content != BundleContent::All) {
            checked += size;
            if (checked > kMaxChecked)
                return makeError(checkedTooLarge(), dirIn);
        }
        if (Status st = readBundleFile(abs, rel, keep, b); !st)
            return st.error();
    }
    return b;
}

namespace {

constexpr qint64 kMaxBlob = 256ll * 1024 * 1024;

// Where a blob lives, for a digest that can only name a file inside blobs/sha256/.
Result<QString> blobPath(const QString& layout, const QString& digest) {
    // Only "sha256:" + 64 lowercase hex: anything else could name a path outside blobs/ (a
    // hostile index.json with "sha256:../../../dev/zero...") and is refused before the file system.
    static const QRegularExpression re(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    if (!re.match(digest).hasMatch())
        return makeError(
            QStringLiteral("unsupported digest '%1' (sha256:<64 lowercase hex> only)").arg(digest.left(100)),
            layout);
    const QString path = layout + QStringLiteral("/blobs/sha256/") + digest.mid(7);
    if (!QFileInfo::exists(path))
        return makeError(QStringLiteral("missing blob %1").arg(digest), path);
    return path;
}

// A blob's size, once it is known to be a regular file (a pipe or device is refused by name).
Result<qint64> blobSize(const QString& path) {
    QFile f(path);
    if (Status opened = openInputFile(f, QStringLiteral("the blob")); !opened)
        return opened.error();
    if (f.size() > kMaxBlob)
        return makeError(QStringLiteral("blob larger than 256 MiB"), path);
    return f.size();
}

Result<QByteArray> readBlob(const QString& layout, const QString& digest) {
    Result<QString> path = blobPath(layout, digest);
    if (!path)
        return path.error();
    QFile f(*path);
    if (Status opened = openInputFile(f, QStringLiteral("the blob")); !opened)
        return opened.error();
    if (f.size() > kMaxBlob)
        return makeError(QStringLiteral("blob larger than 256 MiB"), *path);
    Result<QByteArray> read = readLimited(f, kMaxBlob, QStringLiteral("the blob"));
    if (!read)
        return read.error();
    const QByteArray bytes = *read;
    if (QStringLiteral("sha256:") + sha256Hex(bytes) != digest)
        return makeError(QStringLiteral("blob content does not match its digest %1").arg(digest), *path);
    return bytes;
}

} // namespace

Result<SummaryBundle> loadOciLayout(const QString& dirIn, BundleContent content) {
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    const QString indexFile = dir + QStringLiteral("/index.json");
    if (!QFileInfo::exists(indexFile))
        return makeError(QStringLiteral("not an OCI image layout: no index.json"), dirIn);
    QFile idx(indexFile);
    if (Status opened = openInputFile(idx, QStringLiteral("index.json")); !opened)
        return opened.error();
    Result<QByteArray> indexBytes = readLimited(idx, limits::kConfigFile, QStringLiteral("index.json"));
    if (!indexBytes)
        return indexBytes.error();
    const QJsonObject index = QJsonDocument::fromJson(*indexBytes).object();
    const QJsonArray manifests = index.value(QStringLiteral("manifests")).toArray();
    if (manifests.isEmpty())
        return makeError(QStringLiteral("index.json lists no manifests"), indexFile, 0,
                         QStringLiteral("manifests"));
    const QString manifestDigest = manifests.first().toObject().value(QStringLiteral("digest")).toString();
    Result<QByteArray> manifestBytes = readBlob(dir, manifestDigest);
    if (!manifestBytes)
        return manifestBytes.error();
    const QJsonObject manifest = QJsonDocument::fromJson(*manifestBytes).object();
    const QJsonArray layers = manifest.value(QStringLiteral("layers")).toArray();
    if (layers.size() != 1)
        return makeError(
            QStringLiteral("expected exactly one layer (the summary bundle), found %1").arg(layers.size()),
            dir + QStringLiteral("/blobs/sha256/") + manifestDigest.mid(7), 0, QStringLiteral("layers"));
    const QJsonObject layer = layers.first().toObject();
    const QString layerDigest = layer.value(QStringLiteral("digest")).toString();
    // The layer is streamed: decompressed, checked and hashed member by member while its own digest
    // is taken from the same bytes; only the files the checks read are kept.
    Result<QString> layerPath = blobPath(dir, layerDigest);
    if (!layerPath)
        return layerPath.error();
    Result<qint64> layerSize = blobSize(*layerPath);
    if (!layerSize)
        return layerSize.error();
    if (layer.contains(QStringLiteral("size")) &&
        layer.value(QStringLiteral("size")).toInteger() != *layerSize)
        return makeError(QStringLiteral("layer size %1 differs from the manifest's %2")
                             .arg(*layerSize)
                             .arg(layer.value(QStringLiteral("size")).toInteger()),
                         dir, 0, QStringLiteral("layers[0].size"));
    const auto keep = [content](const QString& member) {
        return content == BundleContent::All ||
               checkedContent(member.startsWith(QLatin1String("summary-bundle/")) ? member.mid(15) : member);
    };
    Result<TarContents> files = streamTarFile(*layerPath, QStringLiteral("layer %1").arg(layerDigest),
                                              ExtractLimits{10000, kMaxBundleFile, kMaxBundleTotal,
                                                            content == BundleContent::All ? -1 : kMaxChecked},
                                              keep, QByteArray::fromHex(layerDigest.mid(7).toLatin1()));
    if (!files)
        return files.error();
    SummaryBundle b;
    b.source = dir;
    b.ociManifestDigest = manifestDigest;
    // The layer holds the summary-bundle tree at its root (some tools add the directory itself). Both
    // "manifest.json" and "summary-bundle/manifest.json" would be one bundle file: an error naming
    // both, never one silently shadowing the other.
    QHash<QString, QString> from; // bundle file -> the member it came from
    for (auto it = files->digests.cbegin(); it != files->digests.cend(); ++it) {
        QString p = it.key();
        if (p.startsWith(QLatin1String("summary-bundle/")))
            p = p.mid(15);
        if (const auto first = from.constFind(p); first != from.cend())
            return makeError(QStringLiteral("members '%1' and '%2' are both the bundle file '%3'")
                                 .arg(first.value(), it.key(), p),
                             QStringLiteral("layer %1").arg(layerDigest));
        from.insert(p, it.key());
        b.digests.insert(p, it.value());
        b.expandedBytes += it->size;
        if (const auto kept = files->files.constFind(it.key()); kept != files->files.cend())
            b.files.insert(p, kept.value());
    }
    return b;
}

Result<SummaryBundle> loadBundle(const QString& path, BundleContent content) {
    if (QFileInfo::exists(path + QStringLiteral("/index.json")) &&
        QFileInfo(path + QStringLiteral("/blobs")).isDir())
        return loadOciLayout(path, content);
    return loadSummaryBundle(path, content);
}

// ---- checks -------------------------------------------------------------------------------------

QString stepStatusName(StepStatus s) {
    switch (s) {
    case StepStatus::Passed:
        return QStringLiteral("passed");
    case StepStatus::Failed:
        return QStringLiteral("failed");
    case StepStatus::Skipped:
        break;
    }
    return QStringLiteral("skipped");
}

namespace {

Predicate readPredicate(const QJsonObject& statement) {
    Predicate p;
    p.type = statement.value(QStringLiteral("predicateType")).toString();
    const QJsonObject pr = statement.value(QStringLiteral("predicate")).toObject();
    p.raw = pr;
    p.schemaVersion = pr.value(QStringLiteral("schemaVersion")).toString();
    p.attestedAt = pr.value(QStringLiteral("attestedAt")).toString();
    p.aicrVersion = pr.value(QStringLiteral("aicrVersion")).toString();
    p.aicrCommit = pr.value(QStringLiteral("aicrCommit")).toString();
    p.validatorCatalogVersion = pr.value(QStringLiteral("validatorCatalogVersion")).toString();
    const QJsonObject recipe = pr.value(QStringLiteral("recipe")).toObject();
    p.recipeName = recipe.value(QStringLiteral("name")).toString();
    p.recipeDigest = recipe.value(QStringLiteral("digest")).toString();
    const QJsonObject manifest = pr.value(QStringLiteral("manifest")).toObject();
    p.manifestDigest = manifest.value(QStringLiteral("digest")).toString();
    p.manifestFileCount = manifest.contains(QStringLiteral("fileCount"))
                              ? manifest.value(QStringLiteral("fileCount")).toInt()
                              : -1;
    p.profileSelection =
        pr.value(QStringLiteral("profile")).toObject().value(QStringLiteral("selection")).toString();
    const QJsonObject phases = pr.value(QStringLiteral("phases")).toObject();
    for (auto it = phases.begin(); it != phases.end(); ++it) {
        const QJsonObject ph = it.value().toObject();
        PhaseSummary s;
        s.passed = ph.value(QStringLiteral("passed")).toInt();
        s.failed = ph.value(QStringLiteral("failed")).toInt();
        s.skipped = ph.value(QStringLiteral("skipped")).toInt();
        s.ctrfDigest = ph.value(QStringLiteral("ctrfDigest")).toString();
        p.phases.insert(it.key(), s);
    }
    return p;
}

// AICR's RecipeNameFor over a RecipeResult document.
QString recipeNameOf(const yaml::Node& recipe) {
    QStringList parts;
    const yaml::Node* crit = recipe.get("criteria");
    for (const char* d : {"accelerator", "service", "os", "intent", "platform"}) {
        const yaml::Node* v = crit ? crit->get(d) : nullptr;
        const QString s = v && v->isScalar() && !v->isNull() ? v->text().toLower() : QString();
        if (!s.isEmpty() && s != QLatin1String("any"))
            parts << s;
    }
    if (parts.isEmpty())
        parts << QStringLiteral("recipe");
    if (const yaml::Node* meta = recipe.get("metadata"))
        if (const yaml::Node* sp = meta->get("selectedProfile"); sp && sp->isMap()) {
            const yaml::Node* n = sp->get("name");
            const yaml::Node* v = sp->get("value");
            if (n && v)
                parts << n->text().toLower() << v->text().toLower();
        }
    return parts.join(QLatin1Char('-'));
}

// The signed statement must be the bundle's statement, its subject the layout (or the recipe), and the
// signature valid for the signer the pointer claims. Empty on success, else the reason.
QString verifyAttestation(const SummaryBundle& b, const QJsonObject& statement, const Pointer* pointer,
                          const SignatureCheck& check, BundleCheck& c) {
    const QByteArray bytes = b.files.value(QStringLiteral("attestation.intoto.jsonl")).trimmed();
    Result<sigstore::Bundle> parsed =
        sigstore::parseBundle(bytes, QStringLiteral("attestation.intoto.jsonl"));
    if (!parsed)
        return parsed.error().toString();
    if (!parsed->isDsse)
        return QStringLiteral("attestation.intoto.jsonl holds a message signature, not a DSSE attestation");
    const QJsonObject signedStatement = QJsonDocument::fromJson(parsed->payload).object();
    if (signedStatement != statement)
        return QStringLiteral("the signed statement is not statement.intoto.json");
    const QJsonArray subjects = signedStatement.value(QStringLiteral("subject")).toArray();
    if (subjects.isEmpty())
        return QStringLiteral("the signed statement has no subject");
    const QString subject = subjects.first()
                                .toObject()
                                .value(QStringLiteral("digest"))
                                .toObject()
                                .value(QStringLiteral("sha256"))
                                .toString();
    Result<sigstore::Artifact> artifact = sigstore::Artifact::fromDigest(subject);
    if (!artifact)
        return QStringLiteral("the statement's subject has no sha256 digest");
    if (!b.ociManifestDigest.isEmpty() && QStringLiteral("sha256:") + subject != b.ociManifestDigest &&
        !subjects.first()
             .toObject()
             .value(QStringLiteral("name"))
             .toString()
             .startsWith(QLatin1String("recipe:")))
        return QStringLiteral("the statement's subject sha256:%1 is not this layout's manifest %2")
            .arg(subject, b.ociManifestDigest);
    sigstore::Policy policy = check.policy;
    if (!policy.keyMode() && pointer && pointer->isSigned()) {
        const Signer& s = *pointer->attestation()->signer;
        policy = sigstore::Policy{};
        policy.identity = s.identity;
        policy.issuer = s.issuer;
    } else if (!policy.keyMode()) {
        if (policy.identity.isEmpty() && policy.identityRegexp.isEmpty())
            policy.identityRegexp = QStringLiteral(".+");
        if (policy.issuer.isEmpty() && policy.issuerRegexp.isEmpty())
            policy.issuerRegexp = QStringLiteral(".+");
    }
    c.signaturePolicy = policy;
    c.signature = sigstore::verifyBundle(*parsed, b.source + QStringLiteral("/attestation.intoto.jsonl"),
                                         *artifact, *check.root, policy);
    if (!c.signature->verified)
        return QStringLiteral("Sigstore: %1").arg(c.signature->summary());
    return {};
}

} // namespace

namespace {

// A file's size and digest: from its bytes when they are held (a caller may have changed them), else
// as they were taken while loading; nothing when the bundle has no such file.
std::optional<FileDigest> digestOf(const SummaryBundle& b, const QString& path) {
    if (const auto held = b.files.constFind(path); held != b.files.cend())
        return FileDigest{held->size(), sha256(*held)};
    if (const auto d = b.digests.constFind(path); d != b.digests.cend())
        return *d;
    return std::nullopt;
}

void addStep(BundleCheck& c, const QString& name, StepStatus s, const QString& detail) {
    c.steps.push_back({name, s, detail});
}

// The predicate's type and the fields every check below needs; true when it is invalid.
bool checkPredicate(BundleCheck& c, const Predicate& pred, PredicateVersion pv) {
    auto step = [&](const QString& name, StepStatus s, const QString& detail) {
        addStep(c, name, s, detail);
    };
    bool invalid = false;
    if (pv == PredicateVersion::Unknown) {
        step(QStringLiteral("predicate-parse"), StepStatus::Failed,
             QStringLiteral("unknown predicate type '%1'").arg(pred.type));
        invalid = true;
    } else if (pred.recipeName.isEmpty() || pred.manifestDigest.isEmpty()) {
        step(QStringLiteral("predicate-parse"), StepStatus::Failed,
             QStringLiteral("predicate lacks recipe.name or manifest.digest"));
        invalid = true;
    } else {
        step(QStringLiteral("predicate-parse"), StepStatus::Passed,
             QStringLiteral("%1, recipe %2, attested %3 by aicr %4")
                 .arg(pred.type, pred.recipeName, pred.attestedAt, pred.aicrVersion));
    }
    return invalid;
}

// Signature: present or pending; verified offline when a trusted root is given. True when invalid.
bool checkSignature(BundleCheck& c, const SummaryBundle& b, const QJsonObject& statement,
                    const Pointer* pointer, const SignatureCheck* signature) {
    auto step = [&](const QString& name, StepStatus s, const QString& detail) {
        addStep(c, name, s, detail);
    };
    bool invalid = false;
    c.signaturePresent = b.files.contains(QStringLiteral("attestation.intoto.jsonl"));
    if (c.signaturePresent && (!signature || !signature->root)) {
        step(QStringLiteral("signature-verify"), StepStatus::Skipped,
             QStringLiteral("signature not checked: no trusted root (import Sigstore's trusted_root.json)"));
    } else if (c.signaturePresent) {
        const QString problem = verifyAttestation(b, statement, pointer, *signature, c);
        if (problem.isEmpty()) {
            const auto& cert = c.signature->certificate;
            step(QStringLiteral("signature-verify"), StepStatus::Passed,
                 cert ? QStringLiteral("signed by %1 (%2); %3 log entr%4 verified offline")
                            .arg(cert->san, cert->oidcIssuer)
                            .arg(c.signature->logEntries.size())
                            .arg(c.signature->logEntries.size() == 1 ? QStringLiteral("y")
                                                                     : QStringLiteral("ies"))
                      : QStringLiteral("signed with the given key"));
        } else {
            step(QStringLiteral("signature-verify"), StepStatus::Failed, problem);
            invalid = true;
        }
    } else if (pointer && pointer->isSigned()) {
        step(
            QStringLiteral("signature-verify"), StepStatus::Failed,
            QStringLiteral("the pointer claims a signer but the bundle carries no attestation.intoto.jsonl"));
        invalid = true;
    } else {
        step(QStringLiteral("signature-verify"), StepStatus::Skipped,
             QStringLiteral("pending signature (unsigned bundle)"));
    }
    return invalid;
}

// Pointer <-> predicate coherence (when the bundle came with a pointer). True when invalid.
bool checkPointerCoherence(BundleCheck& c, const SummaryBundle& b, const Pointer& p, const Predicate& pred) {
    const Pointer* pointer = &p;
    auto step = [&](const QString& name, StepStatus s, const QString& detail) {
        addStep(c, name, s, detail);
    };
    bool invalid = false;
    if (pointer) {
        QStringList problems;
        if (pointer->recipe != pred.recipeName)
            problems << QStringLiteral("pointer recipe '%1' but predicate recipe '%2'")
                            .arg(pointer->recipe, pred.recipeName);
        if (const Attestation* a = pointer->attestation()) {
            if (a->predicateType != pred.type)
                problems << QStringLiteral("pointer predicateType %1 but statement %2")
                                .arg(a->predicateType, pred.type);
            if (!b.ociManifestDigest.isEmpty() && a->bundleDigest != b.ociManifestDigest)
                problems << QStringLiteral("pointer pins %1 but the layout holds %2")
                                .arg(a->bundleDigest, b.ociManifestDigest);
            if (!a->attestedAtText.isEmpty() && a->attestedAtText != pred.attestedAt)
                problems << QStringLiteral("attestedAt %1 in the pointer, %2 in the predicate")
                                .arg(a->attestedAtText, pred.attestedAt);
        }
        if (pointer->profile != pred.profileSelection &&
            !(pointer->profile.isEmpty() && pred.profileSelection.isEmpty()))
            problems << QStringLiteral("pointer profile '%1' but predicate '%2'")
                            .arg(pointer->profile, pred.profileSelection);
        step(QStringLiteral("pointer-coherence"),
             problems.isEmpty() ? StepStatus::Passed : StepStatus::Failed,
             problems.isEmpty() ? QStringLiteral("pointer and predicate agree")
                                : problems.join(QStringLiteral("; ")));
        invalid = invalid || !problems.isEmpty();
    }
    return invalid;
}

// What differs between the files and manifest.json (every listed file's size and sha256, no
// unlisted file, a CTRF report per phase with the predicate's digest); the CTRF reports go to `c`.
QStringList manifestProblems(BundleCheck& c, const SummaryBundle& b, const Predicate& pred,
                             const QByteArray& manifestBytes, qsizetype& listedCount) {
    QStringList problems;
    const QString actual = QStringLiteral("sha256:") + sha256Hex(manifestBytes);
    if (actual != pred.manifestDigest)
        problems << QStringLiteral("sha256(manifest.json) is %1, the predicate says %2")
                        .arg(actual, pred.manifestDigest);
    const QJsonArray listed =
        QJsonDocument::fromJson(manifestBytes).object().value(QStringLiteral("files")).toArray();
    listedCount = listed.size();
    if (pred.manifestFileCount >= 0 && pred.manifestFileCount != listed.size())
        problems << QStringLiteral("manifest lists %1 files, the predicate says %2")
                        .arg(listed.size())
                        .arg(pred.manifestFileCount);
    QSet<QString> managed{QStringLiteral("manifest.json"), QStringLiteral("statement.intoto.json"),
                          QStringLiteral("attestation.intoto.jsonl")};
    for (const QJsonValue& v : listed) {
        const QJsonObject f = v.toObject();
        const QString path = f.value(QStringLiteral("path")).toString();
        managed.insert(path);
        const std::optional<FileDigest> d = digestOf(b, path);
        if (!d) {
            problems << QStringLiteral("%1: listed but missing").arg(path);
            continue;
        }
        if (f.value(QStringLiteral("size")).toInteger() != d->size)
            problems << QStringLiteral("%1: size %2, manifest says %3")
                            .arg(path)
                            .arg(d->size)
                            .arg(f.value(QStringLiteral("size")).toInteger());
        const QString sum = QStringLiteral("sha256:") + d->sha256Hex();
        if (sum != f.value(QStringLiteral("sha256")).toString())
            problems << QStringLiteral("%1: sha256 differs from the manifest").arg(path);
    }
    for (const QString& path : b.paths())
        if (!managed.contains(path))
            problems << QStringLiteral("%1: not listed in the manifest (unmanaged file)").arg(path);
    for (auto it = pred.phases.cbegin(); it != pred.phases.cend(); ++it) {
        const QString file = QStringLiteral("ctrf/%1.json").arg(it.key());
        if (!b.files.contains(file)) {
            problems << QStringLiteral("%1: phase %2 has no CTRF report").arg(file, it.key());
            continue;
        }
        if (!it->ctrfDigest.isEmpty() &&
            QStringLiteral("sha256:") + sha256Hex(b.files[file]) != it->ctrfDigest)
            problems << QStringLiteral("%1: digest differs from the predicate's ctrfDigest").arg(file);
        Result<CtrfReport> report = parseCtrf(b.files[file], file);
        if (report)
            c.ctrf.insert(it.key(), *report);
        else
            problems << report.error().toString();
    }
    return problems;
}

// Manifest: the predicate's digest of manifest.json and every file it lists. True when invalid.
bool checkManifest(BundleCheck& c, const SummaryBundle& b, const Predicate& pred) {
    const QByteArray manifestBytes = b.files.value(QStringLiteral("manifest.json"));
    if (manifestBytes.isEmpty()) {
        addStep(c, QStringLiteral("manifest-hash-check"), StepStatus::Failed,
                QStringLiteral("manifest.json is missing"));
        return true;
    }
    qsizetype listed = 0;
    const QStringList problems = manifestProblems(c, b, pred, manifestBytes, listed);
    addStep(c, QStringLiteral("manifest-hash-check"),
            problems.isEmpty() ? StepStatus::Passed : StepStatus::Failed,
            problems.isEmpty() ? QStringLiteral("%1 files match the manifest; CTRF digests match").arg(listed)
                               : problems.join(QStringLiteral("; ")));
    return !problems.isEmpty();
}

// Recipe identity binding: recipe.yaml resolves to the predicate's recipe and digest. True when invalid.
bool checkRecipeBinding(BundleCheck& c, const SummaryBundle& b, const Predicate& pred, PredicateVersion pv) {
    auto step = [&](const QString& name, StepStatus s, const QString& detail) {
        addStep(c, name, s, detail);
    };
    bool invalid = false;
    const QByteArray recipeBytes = b.files.value(QStringLiteral("recipe.yaml"));
    if (recipeBytes.isEmpty()) {
        step(QStringLiteral("recipe-binding"), StepStatus::Failed, QStringLiteral("recipe.yaml is missing"));
        invalid = true;
    } else {
        QStringList problems;
        Result<yaml::Node> doc = yaml::parse(recipeBytes, QStringLiteral("recipe.yaml"));
        if (!doc) {
            problems << doc.error().toString();
        } else {
            const QString name = recipeNameOf(*doc);
            if (name != pred.recipeName)
                problems << QStringLiteral("recipe.yaml resolves to '%1', the predicate names '%2'")
                                .arg(name, pred.recipeName);
            const catalog::PredicateVersion v = pv == PredicateVersion::V3   ? catalog::PredicateVersion::V3
                                                : pv == PredicateVersion::V2 ? catalog::PredicateVersion::V2
                                                                             : catalog::PredicateVersion::V1;
            Result<QString> digest =
                catalog::evidenceRecipeDigest(recipeBytes, QStringLiteral("recipe.yaml"), v);
            if (!digest)
                problems << digest.error().toString();
            else if (*digest != pred.recipeDigest)
                problems << QStringLiteral("recipe digest %1, the predicate says %2")
                                .arg(digest->left(12), pred.recipeDigest.left(12));
        }
        step(QStringLiteral("recipe-binding"), problems.isEmpty() ? StepStatus::Passed : StepStatus::Failed,
             problems.isEmpty() ? QStringLiteral("recipe.yaml is %1 with digest %2")
                                      .arg(pred.recipeName, pred.recipeDigest.left(12))
                                : problems.join(QStringLiteral("; ")));
        invalid = invalid || !problems.isEmpty();
    }
    return invalid;
}

} // namespace

BundleCheck checkBundle(const SummaryBundle& b, const Pointer* pointer, const SignatureCheck* signature) {
    BundleCheck c;
    auto step = [&](const QString& name, StepStatus s, const QString& detail) {
        c.steps.push_back({name, s, detail});
    };
    bool invalid = false, incomplete = false;

    // Statement and predicate.
    const QByteArray statementBytes = b.files.value(QStringLiteral("statement.intoto.json"));
    QJsonParseError perr{};
    const QJsonDocument sdoc = QJsonDocument::fromJson(statementBytes, &perr);
    if (statementBytes.isEmpty() || perr.error != QJsonParseError::NoError || !sdoc.isObject()) {
        step(QStringLiteral("predicate-parse"), StepStatus::Failed,
             statementBytes.isEmpty()
                 ? QStringLiteral("statement.intoto.json is missing")
                 : QStringLiteral("statement.intoto.json is not JSON: %1").arg(perr.errorString()));
        c.exitCode = 2;
        return c;
    }
    const Predicate pred = readPredicate(sdoc.object());
    c.predicate = pred;
    const PredicateVersion pv = predicateVersionOf(pred.type);
    // Each check below adds its step; each runs whatever the ones before it found.
    invalid = checkPredicate(c, pred, pv);
    invalid = checkSignature(c, b, sdoc.object(), pointer, signature) || invalid;
    if (pointer)
        invalid = checkPointerCoherence(c, b, *pointer, pred) || invalid;
    invalid = checkManifest(c, b, pred) || invalid;
    invalid = checkRecipeBinding(c, b, pred, pv) || invalid;

    int failedTests = 0;
    for (auto it = pred.phases.cbegin(); it != pred.phases.cend(); ++it)
        failedTests += it->failed;
    if (invalid)
        c.exitCode = 2;
    else if (incomplete)
        c.exitCode = 3;
    else
        c.exitCode = failedTests > 0 ? 1 : 0;
    rateCompleteness(c);
    return c;
}

void rateCompleteness(BundleCheck& check) {
    if (check.exitCode != 0 && check.exitCode != 1)
        return; // invalid (or already incomplete) says more
    QStringList checks;
    for (auto it = check.ctrf.cbegin(); it != check.ctrf.cend(); ++it)
        for (const CtrfTest& t : it->results)
            if (t.status == QLatin1String("other") || t.status == QLatin1String("pending"))
                checks << QStringLiteral("%1/%2 (%3)").arg(it.key(), t.name, t.status);
    bool predicateSays = false;
    if (check.predicate) {
        predicateSays = check.predicate->raw.value(QStringLiteral("result"))
                            .toString()
                            .startsWith(QLatin1String("incomplete"));
        if (checks.isEmpty())
            for (const QJsonValue& v :
                 check.predicate->raw.value(QStringLiteral("incompleteChecks")).toArray())
                checks << QStringLiteral("%1/%2 (%3)")
                              .arg(v.toObject().value(QStringLiteral("phase")).toString(),
                                   v.toObject().value(QStringLiteral("name")).toString(),
                                   v.toObject().value(QStringLiteral("cause")).toString());
    }
    if (checks.isEmpty() && !predicateSays) {
        check.steps.push_back({QStringLiteral("completeness"), StepStatus::Passed,
                               QStringLiteral("every check ran to a verdict")});
        return;
    }
    // A check that could not run or finish is neither a pass nor a failure: the bundle is
    // incomplete, never "valid, with failed phases".
    check.steps.push_back(
        {QStringLiteral("completeness"), StepStatus::Failed,
         QStringLiteral("incomplete (cluster fault): %1 could not run or finish: %2")
             .arg(counted(qint64(checks.size()), QStringLiteral("check"), QStringLiteral("checks")))
             .arg(checks.join(QStringLiteral(", ")))});
    check.incompleteChecks = checks;
    check.exitCode = 3;
}

QJsonObject BundleCheck::toJson() const {
    QJsonArray s;
    for (const CheckStep& st : steps)
        s.append(QJsonObject{{QStringLiteral("step"), st.name},
                             {QStringLiteral("status"), stepStatusName(st.status)},
                             {QStringLiteral("detail"), st.detail}});
    QJsonObject phases;
    if (predicate)
        for (auto it = predicate->phases.cbegin(); it != predicate->phases.cend(); ++it)
            phases.insert(it.key(), QJsonObject{{QStringLiteral("passed"), it->passed},
                                                {QStringLiteral("failed"), it->failed},
                                                {QStringLiteral("skipped"), it->skipped}});
    return QJsonObject{{QStringLiteral("steps"), s},
                       {QStringLiteral("exit"), exitCode},
                       {QStringLiteral("pending"), !signaturePresent},
                       {QStringLiteral("recipeName"), predicate ? predicate->recipeName : QString()},
                       {QStringLiteral("predicateType"), predicate ? predicate->type : QString()},
                       {QStringLiteral("phases"), phases}};
}

QString BundleCheck::toText() const {
    QString out;
    for (const CheckStep& st : steps)
        out += QStringLiteral("%1  %2  %3\n")
                   .arg(stepStatusName(st.status), -8)
                   .arg(st.name, -20)
                   .arg(st.detail);
    static const char* const verdicts[] = {"valid", "valid, with failed phases", "invalid", "incomplete"};
    out += QStringLiteral("result: %1 (exit %2)\n")
               .arg(QLatin1String(verdicts[exitCode < 0 || exitCode > 3 ? 3 : exitCode]))
               .arg(exitCode);
    return out;
}

} // namespace pb::evidence
