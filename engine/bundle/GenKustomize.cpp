#include "bundle/GenKustomize.h"

#include "core/Files.h"
#include "git/Repository.h"
#include "yaml/GoYaml.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>

#include <optional>

namespace pb::bundle {

namespace {

// Splits a multi-document YAML stream at "---" lines.
QList<QByteArray> documents(const QByteArray& bytes) {
    QList<QByteArray> docs;
    QByteArray cur;
    for (const QByteArray& line : bytes.split('\n')) {
        if (line == "---" || line.startsWith("--- ")) {
            docs << cur;
            cur.clear();
            continue;
        }
        cur += line + '\n';
    }
    docs << cur;
    return docs;
}

} // namespace

Result<QByteArray> kustomizeBuildLocal(const QString& dirPath) {
    const QDir dir(dirPath);
    QString kfile;
    for (const char* name : {"kustomization.yaml", "kustomization.yml", "Kustomization"})
        if (QFileInfo(dir.filePath(QString::fromLatin1(name))).isFile()) {
            kfile = dir.filePath(QString::fromLatin1(name));
            break;
        }
    if (kfile.isEmpty())
        return makeError(QStringLiteral("no kustomization.yaml"), dirPath);
    Result<QByteArray> kbytes = readFileLimited(kfile, limits::kConfigFile, QStringLiteral("kustomization"));
    if (!kbytes)
        return kbytes.error();
    Result<yaml::Node> k = yaml::parse(*kbytes, kfile);
    if (!k)
        return k.error();
    if (!k->isMap())
        return makeError(QStringLiteral("kustomization is not a mapping"), kfile);
    for (const yaml::MapEntry& e : k->entries) {
        const std::string& key = e.key.scalar;
        if (key != "apiVersion" && key != "kind" && key != "resources")
            return makeError(
                QStringLiteral("only local resources are supported by bundle generate's kustomize build"),
                kfile, e.key.line, QString::fromStdString(key));
    }
    QByteArray out;
    const yaml::Node* resources = k->get("resources");
    if (!resources || !resources->isSeq())
        return out;
    const QString root = QFileInfo(dirPath).canonicalFilePath();
    for (const yaml::Node& r : resources->items) {
        const QString rel = r.text();
        const QString path = QFileInfo(dir.filePath(rel)).canonicalFilePath();
        if (rel.contains(QLatin1String("://")) || path.isEmpty() ||
            !path.startsWith(root + QLatin1Char('/')) || !isRegularFileNoFollow(path))
            return makeError(
                QStringLiteral("resource '%1' is not a file inside the kustomization's folder").arg(rel),
                kfile, r.line, QStringLiteral("resources"));
        Result<QByteArray> bytes =
            readFileLimited(path, limits::kDocumentFile, QStringLiteral("kustomize resource"));
        if (!bytes)
            return bytes.error();
        for (const QByteArray& doc : documents(*bytes)) {
            Result<yaml::Node> n = yaml::parse(doc, path);
            if (!n)
                return n.error();
            if (n->isNull())
                continue;
            yaml::GoEncodeOptions o;
            o.indent = 2;
            o.sortKeys = true;
            o.mode = yaml::StyleMode::PreserveStyles;
            if (!out.isEmpty())
                out += "---\n";
            out += yaml::goEncode(*n, o);
        }
    }
    return out;
}

namespace {

bool isRemote(const QString& repository) {
    static const QRegularExpression remote(
        QStringLiteral("^(?:(?:https?|ssh|git)://|[A-Za-z0-9._-]+@[A-Za-z0-9._-]+:)"),
        QRegularExpression::CaseInsensitiveOption);
    return remote.match(repository).hasMatch();
}

} // namespace

Result<KustomizeBuilt> kustomizeBuildSource(const KustomizeSource& source, const QString& baseDir,
                                            const std::atomic_bool* cancel) {
    const QString where =
        source.repository.isEmpty()
            ? source.path
            : QStringLiteral("%1//%2%3")
                  .arg(source.repository, source.path,
                       source.ref.isEmpty() ? QString() : QStringLiteral("?ref=") + source.ref);
    if (source.path.isEmpty())
        return makeError(QStringLiteral("a Kustomize component needs a path (the kustomization's folder)"),
                         where, 0, QStringLiteral("path"));
    if (source.repository.isEmpty()) {
        if (!source.ref.isEmpty())
            return makeError(QStringLiteral("a ref (tag) is only meaningful with a Git repository"), where, 0,
                             QStringLiteral("tag"));
        const QString dir =
            QDir::isAbsolutePath(source.path) ? source.path : QDir(baseDir).filePath(source.path);
        Result<QByteArray> built = kustomizeBuildLocal(dir);
        if (!built)
            return built.error();
        return KustomizeBuilt{*built, QString()};
    }
    const QStringList parts = source.path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.contains(QStringLiteral("..")) || QDir::isAbsolutePath(source.path))
        return makeError(QStringLiteral("the path must stay inside the repository"), where, 0,
                         QStringLiteral("path"));

    // The repository: opened where it is (a path or file:// URL), else cloned bare into a
    // temporary folder for the length of the build.
    std::optional<QTemporaryDir> cloneDir; // made only for a remote source
    Result<git::Repository> repo = makeError(QStringLiteral("no repository"));
    const QUrl url(source.repository);
    if (url.isLocalFile()) {
        repo = git::Repository::open(url.toLocalFile());
    } else if (isRemote(source.repository)) {
        cloneDir.emplace();
        if (!cloneDir->isValid())
            return makeError(QStringLiteral("cannot make a temporary folder to clone into"), where);
        repo = git::Repository::cloneBare(source.repository, cloneDir->filePath(QStringLiteral("repo.git")),
                                          cancel);
    } else {
        repo = git::Repository::open(QDir::isAbsolutePath(source.repository)
                                         ? source.repository
                                         : QDir(baseDir).filePath(source.repository));
    }
    if (!repo)
        return makeError(repo.error().message, where, 0, QStringLiteral("source"));
    Result<git::ResolvedRef> ref = repo->resolve(source.ref.isEmpty() ? QStringLiteral("HEAD") : source.ref);
    if (!ref)
        return makeError(ref.error().message, where, 0, QStringLiteral("tag"));
    git::ReadLimits limits;
    limits.maxFiles = 2000;
    limits.maxTotalBytes = 64ll * 1024 * 1024;
    limits.cancel = cancel;
    Result<std::vector<git::TreeFile>> files =
        repo->readFiles(ref->commit, parts.join(QLatin1Char('/')), limits);
    if (!files)
        return makeError(files.error().message, where, 0, QStringLiteral("path"));
    QTemporaryDir tree;
    if (!tree.isValid())
        return makeError(QStringLiteral("cannot make a temporary folder for the kustomization"), where);
    for (const git::TreeFile& f : *files) {
        const QString target = tree.filePath(f.path);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()))
            return makeError(QStringLiteral("cannot write the kustomization's files"), target);
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly) || out.write(f.bytes) != f.bytes.size())
            return makeError(QStringLiteral("cannot write the kustomization's files"), target);
    }
    Result<QByteArray> built = kustomizeBuildLocal(tree.path());
    if (!built)
        return makeError(QStringLiteral("%1 (at commit %2)").arg(built.error().message, ref->commit.left(12)),
                         where, 0, built.error().field);
    return KustomizeBuilt{*built, ref->commit};
}

} // namespace pb::bundle
