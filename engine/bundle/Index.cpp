#include "bundle/Index.h"
#include "bundle/TreeDigest.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "receipts/Canonical.h"
#include "receipts/Records.h"
#include "yaml/Yaml.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <map>

namespace pb::bundle {

namespace {

constexpr const char* kChecksumsName = "checksums.txt";
constexpr const char* kAttestation = "attestation/bundle-attestation.sigstore.json";
constexpr const char* kApiVersion = "proofbench.dev/v1alpha1";

struct DiskFile {
    QString path; // relative
    QByteArray bytes;
    bool executable = false;
    QString sha256; // hex of bytes, computed once when read
};

bool excluded(const QString& rel) {
    return rel == QLatin1String(kChecksumsName) ||
           rel.startsWith(QLatin1String(kIndexDir) + QLatin1Char('/'));
}

// Every regular file below `dir` (bounded, no symlinks, no special files), sorted by path.
Result<std::vector<DiskFile>> readTree(const QString& dir, const IndexLimits& limits, bool includeIndex,
                                       const std::atomic_bool* cancel) {
    const QFileInfo info(dir);
    if (!info.isDir())
        return makeError(QStringLiteral("not a directory"), dir);
    const QDir root(info.absoluteFilePath());
    std::vector<DiskFile> out;
    qint64 total = 0;
    QDirIterator it(root.path(), QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo fi(path);
        const QString rel = root.relativeFilePath(path);
        if (fi.isSymLink())
            return makeError(QStringLiteral("a symbolic link in a bundle is refused"), path);
        if (rel.count(QLatin1Char('/')) + 1 > limits.maxDepth)
            return makeError(QStringLiteral("deeper than %1 levels").arg(limits.maxDepth), path);
        if (fi.isDir())
            continue;
        if (!fi.isFile())
            return makeError(QStringLiteral("not a regular file (pipe, socket or device) in a bundle"), path);
        if (!includeIndex && excluded(rel))
            continue;
        paths << rel;
        if (paths.size() > limits.maxFiles)
            return makeError(QStringLiteral("more than %1 files").arg(limits.maxFiles), root.path());
    }
    std::sort(paths.begin(), paths.end(),
              [](const QString& a, const QString& b) { return a < b; }); // as Generate.cpp orders
    for (const QString& rel : paths) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
        QFile f(root.filePath(rel));
        if (Status s = openInputFile(f); !s)
            return s.error();
        Result<QByteArray> bytes = readLimited(f, limits.maxFileBytes, QStringLiteral("a bundle file"));
        if (!bytes)
            return bytes.error();
        total += bytes->size();
        if (total > limits.maxTotalBytes)
            return makeError(QStringLiteral("the bundle is larger than %1 bytes").arg(limits.maxTotalBytes),
                             root.path());
        const QString sha = sha256Hex(*bytes);
        out.push_back(DiskFile{rel, std::move(*bytes),
                               (QFileInfo(root.filePath(rel)).permissions() & QFile::ExeOwner) != 0, sha});
    }
    return out;
}

QString treeDigestOf(const std::vector<DiskFile>& files) {
    std::vector<std::pair<QString, QString>> listed;
    listed.reserve(files.size());
    for (const DiskFile& f : files)
        listed.emplace_back(f.path, f.sha256);
    return treeDigestOfFiles(std::move(listed)); // bundle/TreeDigest.h
}

// YAML documents of a file, split on "---" lines, with their byte ranges kept exactly.
std::vector<QByteArray> splitDocuments(const QByteArray& bytes) {
    std::vector<QByteArray> docs;
    QByteArray current;
    for (const QByteArray& line : bytes.split('\n')) {
        const QByteArray t = line.trimmed();
        if (t == "---" || t.startsWith("--- ")) {
            docs.push_back(current);
            current.clear();
            continue;
        }
        current += line;
        current += '\n';
    }
    docs.push_back(current);
    return docs;
}

bool hasContent(const QByteArray& doc) {
    for (const QByteArray& line : doc.split('\n')) {
        const QByteArray t = line.trimmed();
        if (!t.isEmpty() && !t.startsWith('#'))
            return true;
    }
    return false;
}

QString safeName(QString s) {
    static const QRegularExpression bad(QStringLiteral("[^A-Za-z0-9._-]+"));
    s.replace(bad, QStringLiteral("-"));
    while (s.startsWith(QLatin1Char('-')) || s.startsWith(QLatin1Char('.')))
        s.remove(0, 1);
    return s.left(80);
}

QString roleOf(const QString& path, const QJsonObject& object) {
    const QString name = QFileInfo(path).fileName();
    if (path == QLatin1String("recipe.yaml"))
        return QStringLiteral("recipe");
    if (object.value(QStringLiteral("kind")).toString() == QLatin1String("Application"))
        return path.contains(QLatin1Char('/')) ? QStringLiteral("component-application")
                                               : QStringLiteral("platform-root");
    if (name == QLatin1String("values.yaml") || name == QLatin1String("cluster-values.yaml"))
        return QStringLiteral("values");
    if (name == QLatin1String("Chart.yaml"))
        return QStringLiteral("chart");
    if (name == QLatin1String("upstream.env"))
        return QStringLiteral("chart-coordinates");
    if (path.contains(QLatin1String("/templates/")) || path.contains(QLatin1String("/manifests/")))
        return QStringLiteral("manifest");
    if (name.endsWith(QLatin1String(".sh")))
        return QStringLiteral("script");
    if (name.endsWith(QLatin1String(".md")))
        return QStringLiteral("document");
    return QStringLiteral("file");
}

QJsonValue syncWaveOf(const QJsonObject& object) {
    const QJsonValue w = object.value(QStringLiteral("metadata"))
                             .toObject()
                             .value(QStringLiteral("annotations"))
                             .toObject()
                             .value(QStringLiteral("argocd.argoproj.io/sync-wave"));
    bool ok = false;
    const int wave = w.toString().toInt(&ok);
    if (w.isString() && ok)
        return wave;
    if (w.isDouble())
        return w.toInt();
    return QJsonValue();
}

QByteArray checksumsOf(const std::map<QString, QByteArray>& files) {
    QByteArray out;
    for (const auto& [path, bytes] : files)
        out += sha256Hex(bytes).toLatin1() + "  " + path.toUtf8() + '\n';
    return out;
}

// An existing checksums.txt (AICR ships one) must agree with the files it lists.
Status checkExistingChecksums(const QDir& root, const std::vector<DiskFile>& files) {
    if (!QFileInfo(root.filePath(QLatin1String(kChecksumsName))).isFile())
        return {};
    std::map<QString, QString> bySha;
    for (const DiskFile& f : files)
        bySha[f.path] = f.sha256;
    QFile cf(root.filePath(QLatin1String(kChecksumsName)));
    if (Status s = openInputFile(cf); !s)
        return s.error();
    Result<QByteArray> listing = readLimited(cf, limits::kDocumentFile, QStringLiteral("checksums.txt"));
    if (!listing)
        return listing.error();
    int lineNo = 0;
    for (const QByteArray& raw : listing->split('\n')) {
        ++lineNo;
        const QString line = QString::fromUtf8(raw).trimmed();
        const qsizetype sp = line.indexOf(QLatin1Char(' '));
        if (line.isEmpty() || sp != 64)
            continue;
        const QString path =
            line.mid(sp).trimmed().remove(0, line.mid(sp).trimmed().startsWith(QLatin1Char('*')) ? 1 : 0);
        if (excluded(path))
            continue;
        auto f = bySha.find(path);
        if (f != bySha.end() && f->second != line.left(64))
            return makeError(
                QStringLiteral(
                    "%1 does not match its row in checksums.txt (line %2): the bundle changed after it "
                    "was written; regenerate it or remove checksums.txt")
                    .arg(path)
                    .arg(lineNo),
                root.filePath(QLatin1String(kChecksumsName)), lineNo);
    }
    return {};
}

// "argocd" when the bundle has app-of-apps.yaml, "helm" when it has deploy.sh, else empty.
QString deployerOf(const std::vector<DiskFile>& files) {
    bool helm = false, argo = false;
    for (const DiskFile& f : files) {
        helm = helm || f.path == QLatin1String("deploy.sh");
        argo = argo || f.path == QLatin1String("app-of-apps.yaml");
    }
    return argo ? QStringLiteral("argocd") : helm ? QStringLiteral("helm") : QString();
}

// Criteria from the recipe the bundle was made from, and that recipe's sha256.
Status readRecipeCriteria(const QDir& root, const std::vector<DiskFile>& files, QJsonObject& criteria,
                          QString& recipeSha) {
    for (const DiskFile& f : files)
        if (f.path == QLatin1String("recipe.yaml")) {
            recipeSha = f.sha256;
            Result<yaml::Node> recipe = yaml::parse(f.bytes, root.filePath(f.path));
            if (!recipe)
                return recipe.error();
            if (recipe->isMap())
                criteria = yaml::toJson(*recipe).toObject().value(QStringLiteral("criteria")).toObject();
        }
    return {};
}

// The object's identity (apiVersion, kind, name, namespace, sync wave) when the document parses
// as a Kubernetes object; empty otherwise. Helm templates are not YAML until rendered: an object
// that does not parse is kept by its bytes alone.
QJsonObject objectIdentity(const QByteArray& doc, const QString& path) {
    Result<yaml::Node> parsed = yaml::parse(doc, path);
    if (!parsed || !parsed->isMap())
        return {};
    const QJsonObject o = yaml::toJson(*parsed).toObject();
    const QJsonObject meta = o.value(QStringLiteral("metadata")).toObject();
    if (!o.contains(QStringLiteral("kind")))
        return {};
    return QJsonObject{{QStringLiteral("apiVersion"), o.value(QStringLiteral("apiVersion"))},
                       {QStringLiteral("kind"), o.value(QStringLiteral("kind"))},
                       {QStringLiteral("name"), meta.value(QStringLiteral("name"))},
                       {QStringLiteral("namespace"), meta.value(QStringLiteral("namespace"))},
                       {QStringLiteral("syncWave"), syncWaveOf(o)}};
}

// A file's non-empty YAML documents (none for recipe.yaml and non-YAML files).
Result<std::vector<QByteArray>> documentsOf(const DiskFile& f, const QDir& root, const IndexLimits& limits) {
    std::vector<QByteArray> docs;
    const bool yamlFile = f.path.endsWith(QLatin1String(".yaml")) || f.path.endsWith(QLatin1String(".yml"));
    if (yamlFile && f.path != QLatin1String("recipe.yaml")) {
        for (QByteArray& d : splitDocuments(f.bytes))
            if (hasContent(d))
                docs.push_back(std::move(d));
        if (static_cast<int>(docs.size()) > limits.maxDocumentsPerFile)
            return makeError(QStringLiteral("more than %1 YAML documents").arg(limits.maxDocumentsPerFile),
                             root.filePath(f.path));
    }
    return docs;
}

// One payload per rendered object of the file (each YAML document, or the file whole), written to
// indexFiles and listed in members.
Status addPayloads(const DiskFile& f, const QDir& root, const IndexLimits& limits,
                   std::map<QString, QByteArray>& indexFiles, QJsonArray& members) {
    const QString& fileSha = f.sha256;
    const QJsonObject renderedFile{
        {QStringLiteral("path"), f.path},
        {QStringLiteral("sha256"), fileSha},
        {QStringLiteral("bytes"), static_cast<qint64>(f.bytes.size())},
        {QStringLiteral("mode"), f.executable ? QStringLiteral("755") : QStringLiteral("644")}};
    Result<std::vector<QByteArray>> docsOr = documentsOf(f, root, limits);
    if (!docsOr)
        return docsOr.error();
    std::vector<QByteArray>& docs = *docsOr;
    const bool whole = docs.empty();
    if (whole)
        docs.push_back(f.bytes);
    for (size_t i = 0; i < docs.size(); ++i) {
        const QJsonObject object = whole ? QJsonObject() : objectIdentity(docs[i], f.path);
        const QString role = roleOf(f.path, object);
        QString component = f.path;
        if (!whole && docs.size() > 1)
            component += QStringLiteral("#%1").arg(i);
        const QJsonValue wave = object.value(QStringLiteral("syncWave"));
        const QJsonObject payload{
            {QStringLiteral("apiVersion"), QLatin1String(kApiVersion)},
            {QStringLiteral("kind"), QStringLiteral("BundleObjectPayload")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), component}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("component"), component},
                         {QStringLiteral("role"), role},
                         {QStringLiteral("syncWave"), wave.isUndefined() ? QJsonValue() : wave},
                         {QStringLiteral("object"), object.isEmpty() ? QJsonValue() : QJsonValue(object)},
                         {QStringLiteral("document"),
                          QJsonObject{{QStringLiteral("index"), static_cast<int>(i)},
                                      {QStringLiteral("of"), static_cast<int>(docs.size())},
                                      {QStringLiteral("sha256"), sha256Hex(docs[i])},
                                      {QStringLiteral("bytes"), static_cast<qint64>(docs[i].size())}}},
                         {QStringLiteral("renderedFile"), renderedFile}}},
            {QStringLiteral("status"),
             QJsonObject{{QStringLiteral("result"), QStringLiteral("compiled-offline")}}}};
        const QByteArray text = receipts::canonicalJson(payload) + '\n';
        const QString sha = sha256Hex(text);
        QString base = safeName(component);
        if (base.isEmpty())
            base = QStringLiteral("object");
        const QString payloadPath = QStringLiteral("payloads/%1-%2.json").arg(base, sha);
        if (indexFiles.count(payloadPath))
            return makeError(QStringLiteral("two objects give the same payload %1").arg(payloadPath),
                             root.filePath(f.path));
        indexFiles[payloadPath] = text;
        members.append(QJsonObject{{QStringLiteral("component"), component},
                                   {QStringLiteral("role"), role},
                                   {QStringLiteral("syncWave"), wave.isUndefined() ? QJsonValue() : wave},
                                   {QStringLiteral("payloadSha256"), sha},
                                   {QStringLiteral("payloadPath"), payloadPath}});
    }
    return {};
}

// platform-index.json's document, its spec.platformDigest set (and out.platformDigest).
QJsonObject platformIndex(DigestIndex& out, const QJsonObject& source, const QJsonObject& criteria,
                          const QJsonArray& members) {
    QJsonObject index{
        {QStringLiteral("apiVersion"), QLatin1String(kApiVersion)},
        {QStringLiteral("kind"), QStringLiteral("AICRPlatformDigestIndex")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"),
                      QStringLiteral("bundle-%1-digest-index").arg(out.treeDigest.left(12))}}},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("source"), source},
                                             {QStringLiteral("criteria"), criteria},
                                             {QStringLiteral("transports"), QJsonArray()},
                                             {QStringLiteral("members"), members},
                                             {QStringLiteral("boundary"),
                                              QJsonObject{{QStringLiteral("configPlaneOnly"), true},
                                                          {QStringLiteral("published"), false},
                                                          {QStringLiteral("secretValuesIncluded"), false}}}}},
        {QStringLiteral("status"),
         QJsonObject{{QStringLiteral("result"), QStringLiteral("compiled-offline")}}}};
    out.platformDigest = receipts::platformDigest(index);
    QJsonObject spec = index.value(QStringLiteral("spec")).toObject();
    spec.insert(QStringLiteral("platformDigest"), out.platformDigest);
    index.insert(QStringLiteral("spec"), spec);
    return index;
}

QByteArray indexReadme(const DigestIndex& out) {
    return QStringLiteral("# Digest index of this bundle\n\n"
                          "Platform digest: `%1`\n\n"
                          "One digest over the bundle's inputs (`spec.source`: generator, deployer, tree "
                          "digest and, when the bundle was "
                          "generated here, the catalog and recipe digests and options), the recipe's "
                          "criteria and %2 payloads: one per "
                          "rendered object (each YAML document of the bundle's YAML files, each other file "
                          "whole, and recipe.yaml).\n\n"
                          "Every payload records the sha256 of the file it comes from, so a changed byte "
                          "anywhere in the bundle "
                          "changes a payload and the platform digest. `checksums.txt` here lists this "
                          "folder's files; the one at the "
                          "bundle's top lists every file of the bundle. Check both offline with `proofbench "
                          "records check <bundle>`.\n\n"
                          "Written by `proofbench bundle index`; compiled offline, nothing published.\n")
        .arg(out.platformDigest)
        .arg(out.members)
        .toUtf8();
}

// out.files: the index folder's files and the bundle-wide inventory (every bundle file plus the index).
void collectIndexFiles(DigestIndex& out, const std::vector<DiskFile>& files,
                       const std::map<QString, QByteArray>& indexFiles) {
    std::map<QString, QByteArray> all;
    for (const DiskFile& f : files)
        all[f.path] = f.bytes;
    for (const auto& [path, bytes] : indexFiles) {
        const QString rel = QLatin1String(kIndexDir) + QLatin1Char('/') + path;
        all[rel] = bytes;
        out.files.push_back(IndexFile{rel, bytes});
    }
    out.files.push_back(IndexFile{QLatin1String(kChecksumsName), checksumsOf(all)});
    std::sort(out.files.begin(), out.files.end(),
              [](const IndexFile& a, const IndexFile& b) { return a.path < b.path; });
}

} // namespace

Result<QString> treeDigestOnDisk(const QString& dir, const IndexLimits& limits) {
    Result<std::vector<DiskFile>> files = readTree(dir, limits, false, nullptr);
    if (!files)
        return files.error();
    return treeDigestOf(*files);
}

Result<DigestIndex> buildIndex(const QString& dir, const QJsonObject& sourceIn, const IndexLimits& limits,
                               const IndexProgressFn& progress, const std::atomic_bool* cancel) {
    const QDir root(QFileInfo(dir).absoluteFilePath());
    if (QFileInfo(root.filePath(QLatin1String(kAttestation))).exists())
        return makeError(
            QStringLiteral("the bundle is sealed (%1): its checksums.txt is signed and indexing rewrites it; "
                           "index a bundle before sealing it (bundle index, then bundle sign)")
                .arg(QLatin1String(kAttestation)),
            dir);
    Result<std::vector<DiskFile>> read = readTree(dir, limits, false, cancel);
    if (!read)
        return read.error();
    const std::vector<DiskFile>& files = *read;
    if (files.empty())
        return makeError(QStringLiteral("no files to index"), dir);
    if (Status s = checkExistingChecksums(root, files); !s)
        return s.error();

    DigestIndex out;
    out.treeDigest = treeDigestOf(files);
    out.bundleFiles = static_cast<int>(files.size());
    out.deployer = deployerOf(files);
    QJsonObject criteria;
    QString recipeSha;
    if (Status s = readRecipeCriteria(root, files, criteria, recipeSha); !s)
        return s.error();

    QJsonObject source = sourceIn;
    source.insert(QStringLiteral("generator"), QStringLiteral("proofbench bundle index"));
    source.insert(QStringLiteral("deployer"),
                  out.deployer.isEmpty() ? QStringLiteral("unknown") : out.deployer);
    source.insert(QStringLiteral("treeDigest"), QStringLiteral("sha256:") + out.treeDigest);
    source.insert(QStringLiteral("files"), out.bundleFiles);
    source.insert(QStringLiteral("recipeSha256"), recipeSha.isEmpty() ? QJsonValue() : QJsonValue(recipeSha));

    std::map<QString, QByteArray> indexFiles; // relative to digest-index/
    QJsonArray members;
    int done = 0;
    for (const DiskFile& f : files) {
        if (cancel && cancel->load())
            return makeError(QStringLiteral("cancelled"));
        if (progress)
            progress(++done, static_cast<int>(files.size()), f.path);
        if (Status s = addPayloads(f, root, limits, indexFiles, members); !s)
            return s.error();
    }
    out.members = static_cast<int>(members.size());
    out.index = platformIndex(out, source, criteria, members);

    indexFiles[QStringLiteral("platform-index.json")] =
        QJsonDocument(out.index).toJson(QJsonDocument::Indented);
    indexFiles[QStringLiteral("README.md")] = indexReadme(out);
    indexFiles[QLatin1String(kChecksumsName)] = checksumsOf(indexFiles);
    collectIndexFiles(out, files, indexFiles);
    return out;
}
} // namespace pb::bundle
