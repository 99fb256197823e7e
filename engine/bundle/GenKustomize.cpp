#include "bundle/GenKustomize.h"

#include "core/Files.h"
#include "yaml/GoYaml.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QFileInfo>

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

} // namespace pb::bundle
