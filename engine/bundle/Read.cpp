#include "bundle/Read.h"
#include "bundle/TreeDigest.h"

#include "catalog/Digest.h"
#include "core/Files.h"
#include "core/Hash.h"
#include "yaml/Yaml.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>
#include <tuple>

namespace pb::bundle::model {

namespace {

// ---- reading the tree ---------------------------------------------------------------------------

Result<FileMap> readTree(const QString& dir, const ReadOptions& options, qint64* total) {
    const QFileInfo rootInfo(dir);
    if (!rootInfo.exists())
        return makeError(QStringLiteral("no such folder"), dir);
    if (rootInfo.isSymLink())
        return makeError(QStringLiteral("is a symbolic link; give the bundle folder itself"), dir);
    if (!rootInfo.isDir())
        return makeError(QStringLiteral("is %1, not a bundle folder").arg(describeFileType(dir)), dir);
    const QString root = QDir(rootInfo.absoluteFilePath()).canonicalPath();
    const ReadLimits& lim = options.limits;

    // First pass: every entry's type and size, so limits refuse before anything is read.
    struct Entry {
        QString rel, abs;
        qint64 size;
    };
    std::vector<Entry> entries;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    *total = 0;
    while (it.hasNext()) {
        const QString abs = it.next();
        const QFileInfo fi = it.fileInfo();
        const QString rel = QDir(root).relativeFilePath(abs);
        if (options.cancel && options.cancel->load())
            return makeError(QStringLiteral("cancelled"), dir);
        if (rel.count(QLatin1Char('/')) + 1 > lim.maxDepth)
            return makeError(QStringLiteral("is nested %1 folders deep; a bundle may be at most %2 deep")
                                 .arg(rel.count(QLatin1Char('/')) + 1)
                                 .arg(lim.maxDepth),
                             rel);
        if (fi.isSymLink()) {
            const QString target = fi.symLinkTarget();
            const QString canonical = QFileInfo(target).canonicalFilePath();
            const bool inside =
                !canonical.isEmpty() && (canonical == root || canonical.startsWith(root + QLatin1Char('/')));
            return makeError(
                inside ? QStringLiteral("is a symbolic link (to %1); a bundle is read as regular files only")
                             .arg(target)
                       : QStringLiteral("is a symbolic link pointing outside the bundle (to %1); refused")
                             .arg(target),
                rel);
        }
        if (fi.isDir())
            continue;
        if (!isRegularFileNoFollow(abs))
            return makeError(QStringLiteral("is %1, not a regular file; refused").arg(describeFileType(abs)),
                             rel);
        if (static_cast<int>(entries.size()) >= lim.maxFiles)
            return makeError(
                QStringLiteral("the bundle has more than %1 files (the limit); refused").arg(lim.maxFiles),
                dir);
        if (fi.size() > lim.maxFileBytes)
            return makeError(QStringLiteral("is %1 bytes, over the limit of %2 bytes for a bundle file")
                                 .arg(fi.size())
                                 .arg(lim.maxFileBytes),
                             rel);
        *total += fi.size();
        if (*total > lim.maxTotalBytes)
            return makeError(
                QStringLiteral(
                    "the bundle's files add up to more than %1 bytes (the limit); refused at this file")
                    .arg(lim.maxTotalBytes),
                rel);
        entries.push_back({rel, abs, fi.size()});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.rel < b.rel; });
    FileMap files;
    int done = 0;
    for (const Entry& e : entries) {
        if (options.cancel && options.cancel->load())
            return makeError(QStringLiteral("cancelled"), dir);
        auto bytes = readFileLimited(e.abs, lim.maxFileBytes, e.rel);
        if (!bytes) {
            Error err = bytes.error();
            err.file = e.rel;
            return err;
        }
        files.emplace(e.rel, std::move(*bytes));
        if (options.progress)
            options.progress(++done, static_cast<int>(entries.size()));
    }
    return files;
}

// ---- helpers -----------------------------------------------------------------------------------

const QRegularExpression& folderPattern() {
    static const QRegularExpression re(QStringLiteral("^(\\d{3})-(.+)$"));
    return re;
}

QString topFolder(const QString& path) {
    const qsizetype slash = path.indexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

int folderNumber(const QString& folder) {
    const auto m = folderPattern().match(folder);
    return m.hasMatch() ? m.captured(1).toInt() : INT_MAX;
}

bool hasTemplate(const QString& s) {
    return s.contains(QLatin1String("{{"));
}

// Splits a YAML stream at document markers ("---" alone on a line); leading comment-only parts are dropped.
std::vector<QByteArray> yamlDocuments(const QByteArray& bytes) {
    std::vector<QByteArray> docs;
    QByteArray cur;
    for (const QByteArray& line : bytes.split('\n')) {
        if (line.trimmed() == "---" || line.startsWith("--- ")) {
            docs.push_back(cur);
            cur.clear();
            continue;
        }
        cur += line;
        cur += '\n';
    }
    docs.push_back(cur);
    std::vector<QByteArray> out;
    for (QByteArray& d : docs) {
        bool content = false;
        for (const QByteArray& line : d.split('\n')) {
            const QByteArray t = line.trimmed();
            if (!t.isEmpty() && !t.startsWith('#')) {
                content = true;
                break;
            }
        }
        if (content)
            out.push_back(std::move(d));
    }
    return out;
}

Result<QJsonValue> parseYaml(const QByteArray& bytes, const QString& file) {
    auto node = yaml::parse(bytes, file);
    if (!node)
        return node.error();
    return yaml::toJson(*node);
}

// A values file: a mapping (or empty).
Result<QJsonObject> parseValues(const QByteArray& bytes, const QString& file) {
    auto v = parseYaml(bytes, file);
    if (!v)
        return v.error();
    if (v->isNull() || v->isUndefined())
        return QJsonObject();
    if (!v->isObject())
        return makeError(QStringLiteral("a values file must be a mapping of keys to values"), file);
    return v->toObject();
}

// Every object in a (possibly multi-document) YAML file.
Result<std::vector<QJsonObject>> parseObjects(const QByteArray& bytes, const QString& file) {
    std::vector<QJsonObject> out;
    for (const QByteArray& doc : yamlDocuments(bytes)) {
        auto v = parseYaml(doc, file);
        if (!v)
            return v.error();
        if (v->isObject())
            out.push_back(v->toObject());
        else if (!v->isNull())
            return makeError(QStringLiteral("a document here must be a Kubernetes object (a mapping)"), file);
    }
    return out;
}

QJsonValue at(const QJsonObject& o, const QString& dotted) {
    QJsonValue v = o;
    for (const QString& k : dotted.split(QLatin1Char('.'))) {
        if (!v.isObject())
            return {};
        v = v.toObject().value(k);
    }
    return v;
}

QString scalarText(const QJsonValue& v) {
    if (v.isString())
        return v.toString();
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d == static_cast<double>(static_cast<qint64>(d)))
            return QString::number(static_cast<qint64>(d));
        return QString::number(d);
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

Field fieldAt(const QJsonObject& o, const QString& dotted) {
    const QString t = scalarText(at(o, dotted));
    return Field{t, hasTemplate(t)};
}

Field literal(const QString& text) {
    return Field{text, hasTemplate(text)};
}

void collectTemplated(const QJsonValue& v, const QString& path, QStringList& out) {
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            collectTemplated(it.value(), path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key(), out);
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            collectTemplated(a.at(i), path + QStringLiteral("[%1]").arg(i), out);
    } else if (v.isString() && hasTemplate(v.toString())) {
        out << path;
    }
}

std::optional<int> waveOf(const QString& text) {
    bool ok = false;
    const int w = text.trimmed().toInt(&ok);
    if (ok && !hasTemplate(text))
        return w;
    return std::nullopt;
}

// Shell assignments of upstream.env: KEY='value', KEY="value" or KEY=value.
std::map<QString, QString> envAssignments(const QByteArray& bytes) {
    std::map<QString, QString> out;
    static const QRegularExpression re(QStringLiteral("^\\s*(?:export\\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$"));
    for (const QString& line : QString::fromUtf8(bytes).split(QLatin1Char('\n'))) {
        if (line.trimmed().startsWith(QLatin1Char('#')))
            continue;
        const auto m = re.match(line);
        if (!m.hasMatch())
            continue;
        QString v = m.captured(2).trimmed();
        if (v.size() >= 2 && ((v.startsWith(QLatin1Char('\'')) && v.endsWith(QLatin1Char('\''))) ||
                              (v.startsWith(QLatin1Char('"')) && v.endsWith(QLatin1Char('"')))))
            v = v.mid(1, v.size() - 2);
        out[m.captured(1)] = v;
    }
    return out;
}

// The `helm upgrade --install` line of install.sh (joined across trailing backslashes): release,
// chart argument, namespace and the -f files in order.
struct InstallCommand {
    QString release, chart, ns;
    QStringList valueFiles;
    bool found = false;
};

InstallCommand installCommand(const QByteArray& bytes) {
    InstallCommand cmd;
    QString joined;
    bool inCommand = false;
    for (const QString& raw : QString::fromUtf8(bytes).split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (!inCommand && line.startsWith(QLatin1String("helm upgrade --install")))
            inCommand = true;
        if (!inCommand)
            continue;
        QString part = line;
        const bool more = part.endsWith(QLatin1Char('\\'));
        if (more)
            part.chop(1);
        joined += part + QLatin1Char(' ');
        if (!more)
            break;
    }
    if (joined.isEmpty())
        return cmd;
    cmd.found = true;
    const QStringList tokens = joined.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList positional;
    for (qsizetype i = 3; i < tokens.size(); ++i) {
        const QString& t = tokens.at(i);
        if (t == QLatin1String("--namespace") || t == QLatin1String("-n")) {
            cmd.ns = tokens.value(++i);
        } else if (t == QLatin1String("-f") || t == QLatin1String("--values")) {
            cmd.valueFiles << tokens.value(++i);
        } else if (t == QLatin1String("--version") || t == QLatin1String("--repo") ||
                   t == QLatin1String("--timeout")) {
            ++i;
        } else if (t.startsWith(QLatin1Char('-')) || t.startsWith(QLatin1Char('$'))) {
            continue;
        } else {
            positional << t;
        }
    }
    cmd.release = positional.value(0);
    cmd.chart = positional.value(1);
    auto unquote = [](QString s) {
        if (s.size() >= 2 && (s.startsWith(QLatin1Char('"')) || s.startsWith(QLatin1Char('\''))))
            s = s.mid(1, s.size() - 2);
        return s;
    };
    cmd.release = unquote(cmd.release);
    cmd.chart = unquote(cmd.chart);
    cmd.ns = unquote(cmd.ns);
    for (QString& f : cmd.valueFiles)
        f = unquote(f);
    return cmd;
}

QString normalizePath(QString p) {
    while (p.startsWith(QLatin1String("./")))
        p = p.mid(2);
    return QDir::cleanPath(p);
}

// ---- the reader ----------------------------------------------------------------------------------

class Reader {
  public:
    Reader(const QString& name, const FileMap& files) : m_files(files) {
        m_bundle.root = name;
        for (const auto& [path, bytes] : files) {
            BundleFile f;
            f.path = path;
            f.size = bytes.size();
            f.sha256 = sha256Hex(bytes);
            m_bundle.totalBytes += f.size;
            m_bundle.files.push_back(std::move(f));
        }
    }

    Result<DeployBundle> read(Deployer d) {
        m_bundle.deployer = d;
        commonFiles();
        Status s;
        switch (d) {
        case Deployer::Helm:
            s = readHelm();
            break;
        case Deployer::ArgoCD:
            s = readArgo();
            break;
        case Deployer::ArgoCDHelm:
            s = readArgoHelm();
            break;
        case Deployer::Flux:
            s = readFlux();
            break;
        case Deployer::Helmfile:
            s = readHelmfile();
            break;
        }
        if (!s)
            return s.error();
        for (size_t i = 0; i < m_bundle.components.size(); ++i)
            m_bundle.components[i].order = static_cast<int>(i);
        std::vector<std::pair<QString, QString>> listed;
        for (BundleFile& f : m_bundle.files) {
            if (f.role.isEmpty()) {
                f.role = QStringLiteral("unknown");
                m_bundle.unknownFiles << f.path;
            }
            listed.emplace_back(f.path, f.sha256);
        }
        m_bundle.treeDigest = treeDigestOfFiles(std::move(listed)); // bundle/TreeDigest.h
        return std::move(m_bundle);
    }

  private:
    bool has(const QString& p) const { return m_files.count(p) > 0; }
    const QByteArray& bytes(const QString& p) const { return m_files.at(p); }
    BundleFile* file(const QString& p) {
        for (BundleFile& f : m_bundle.files)
            if (f.path == p)
                return &f;
        return nullptr;
    }
    void setRole(const QString& p, const QString& role, const QString& component = {}) {
        if (BundleFile* f = file(p)) {
            if (f->role.isEmpty())
                f->role = role;
            if (f->component.isEmpty())
                f->component = component;
        }
    }
    QStringList under(const QString& prefix) const {
        QStringList out;
        for (auto it = m_files.lower_bound(prefix); it != m_files.end() && it->first.startsWith(prefix); ++it)
            out << it->first;
        return out;
    }
    QStringList folders() const {
        QStringList out;
        for (const auto& [path, b] : m_files) {
            const QString top = topFolder(path);
            if (folderPattern().match(top).hasMatch() && !out.contains(top))
                out << top;
        }
        std::sort(out.begin(), out.end(), [](const QString& a, const QString& b) {
            return std::pair(folderNumber(a), a) < std::pair(folderNumber(b), b);
        });
        return out;
    }

    void commonFiles() {
        if (has(QStringLiteral("recipe.yaml"))) {
            const QString p = QStringLiteral("recipe.yaml");
            setRole(p, QStringLiteral("recipe"));
            m_bundle.recipePath = p;
            m_bundle.recipeSha256 = sha256Hex(bytes(p));
            auto digest = catalog::evidenceRecipeDigest(bytes(p), p, catalog::PredicateVersion::V3);
            if (digest)
                m_bundle.recipeEvidenceDigest = *digest;
            else
                m_bundle.warnings
                    << QStringLiteral("recipe.yaml: no evidence digest: %1").arg(digest.error().toString());
            if (auto v = parseYaml(bytes(p), p); v && v->isObject())
                m_bundle.recipeName = scalarText(at(v->toObject(), QStringLiteral("metadata.name")));
        }
        if (has(QStringLiteral("checksums.txt")))
            setRole(QStringLiteral("checksums.txt"), QStringLiteral("checksums"));
        for (const QString& p : under(QStringLiteral("attestation/")))
            setRole(p, QStringLiteral("attestation"));
        // `bundle index` writes its digest index beside the bundle's files: known, not "unknown".
        for (const QString& p : under(QStringLiteral("digest-index/")))
            setRole(p, QStringLiteral("digest-index"));
        if (has(QStringLiteral("README.md")))
            setRole(QStringLiteral("README.md"), QStringLiteral("readme"));
    }

    // Manifests of a wrapper chart folder, and its Chart.yaml coordinates.
    void folderChart(Component& c, const QString& folder) {
        for (const QString& p : under(folder + QStringLiteral("/templates/"))) {
            c.manifests << p;
            setRole(p, QStringLiteral("manifest"), c.name);
        }
        const QString chartYaml = folder + QStringLiteral("/Chart.yaml");
        if (has(chartYaml)) {
            setRole(chartYaml, QStringLiteral("chart"), c.name);
            if (auto v = parseYaml(bytes(chartYaml), chartYaml); v && v->isObject()) {
                if (c.chart.isEmpty())
                    c.chart = literal(scalarText(v->toObject().value(QStringLiteral("name"))));
                if (c.version.isEmpty())
                    c.version = literal(scalarText(v->toObject().value(QStringLiteral("version"))));
            } else if (!v) {
                m_bundle.warnings << v.error().toString();
            }
        }
        const QString readme = folder + QStringLiteral("/README.md");
        if (has(readme))
            setRole(readme, QStringLiteral("readme"), c.name);
    }

    Status applyValueFile(Component& c, const QString& path, const QString& role) {
        if (!has(path)) {
            c.notes << QStringLiteral("values file %1 is referenced but not in the bundle").arg(path);
            c.valuesComplete = false;
            return {};
        }
        setRole(path, role, c.name);
        auto v = parseValues(bytes(path), path);
        if (!v)
            return v.error();
        c.valueFiles << path;
        c.values = mergeValues(c.values, *v);
        return {};
    }

    // helm: NNN-<name>/ folders with install.sh, upstream.env (upstream chart) or Chart.yaml (wrapper).
    Status readHelm() {
        for (const QString& p : {QStringLiteral("deploy.sh"), QStringLiteral("undeploy.sh")})
            if (has(p))
                setRole(p, p.startsWith(QLatin1String("deploy")) ? QStringLiteral("deploy-script")
                                                                 : QStringLiteral("undeploy-script"));
        for (const QString& folder : folders()) {
            Component c;
            c.folder = folder;
            c.name = folderPattern().match(folder).captured(2);
            c.objectKind = QStringLiteral("helm release");
            const QString install = folder + QStringLiteral("/install.sh");
            InstallCommand cmd;
            if (has(install)) {
                setRole(install, QStringLiteral("install-script"), c.name);
                cmd = installCommand(bytes(install));
                c.objectFile = install;
                if (cmd.found) {
                    c.release = literal(cmd.release);
                    if (!cmd.release.isEmpty() && !cmd.release.startsWith(QLatin1Char('$')))
                        c.name = cmd.release;
                    c.namespace_ = literal(cmd.ns);
                } else {
                    c.notes << QStringLiteral("%1 has no `helm upgrade --install` command").arg(install);
                }
            } else {
                c.notes << QStringLiteral("%1 is missing").arg(install);
            }
            const QString env = folder + QStringLiteral("/upstream.env");
            if (has(env)) {
                setRole(env, QStringLiteral("upstream-env"), c.name);
                const auto a = envAssignments(bytes(env));
                c.source = QStringLiteral("upstream-chart");
                auto get = [&](const char* k) {
                    auto it = a.find(QString::fromLatin1(k));
                    return it == a.end() ? QString() : it->second;
                };
                c.chart = literal(get("CHART"));
                c.repository = literal(get("REPO"));
                c.version = literal(get("VERSION"));
                if (c.repository.isEmpty() && c.chart.text.startsWith(QLatin1String("oci://"))) {
                    const qsizetype slash = c.chart.text.lastIndexOf(QLatin1Char('/'));
                    c.repository = literal(c.chart.text.left(slash));
                    c.chart = literal(c.chart.text.mid(slash + 1));
                }
            } else {
                c.source = QStringLiteral("local-chart");
            }
            folderChart(c, folder);
            QStringList files = cmd.valueFiles;
            if (files.isEmpty())
                files = {QStringLiteral("values.yaml"), QStringLiteral("cluster-values.yaml")};
            for (const QString& f : files) {
                const QString p = folder + QLatin1Char('/') + normalizePath(f);
                if (!has(p) && !cmd.valueFiles.contains(f))
                    continue;
                if (Status s =
                        applyValueFile(c, p,
                                       f.contains(QLatin1String("cluster")) ? QStringLiteral("cluster-values")
                                                                            : QStringLiteral("values"));
                    !s)
                    return s;
            }
            c.object =
                QJsonObject{{QStringLiteral("release"), c.release.text},
                            {QStringLiteral("chart"), c.chart.text},
                            {QStringLiteral("repository"), c.repository.text},
                            {QStringLiteral("version"), c.version.text},
                            {QStringLiteral("namespace"), c.namespace_.text},
                            {QStringLiteral("valueFiles"), QJsonArray::fromStringList(cmd.valueFiles)}};
            m_bundle.components.push_back(std::move(c));
        }
        return {};
    }

    // The chart coordinates and values of an Application (argocd and argocd-helm).
    Status readApplication(Component& c, const QJsonObject& app, const QString& file) {
        c.objectKind = QStringLiteral("Application");
        c.objectFile = file;
        c.object = app;
        collectTemplated(app, QString(), c.templatedFields);
        c.release = fieldAt(app, QStringLiteral("metadata.name"));
        c.syncWaveText = scalarText(at(app, QStringLiteral("metadata.annotations"))
                                        .toObject()
                                        .value(QStringLiteral("argocd.argoproj.io/sync-wave")));
        c.syncWave = waveOf(c.syncWaveText);
        c.namespace_ = fieldAt(app, QStringLiteral("spec.destination.namespace"));
        QJsonArray sources;
        const QJsonObject spec = app.value(QStringLiteral("spec")).toObject();
        if (spec.value(QStringLiteral("source")).isObject())
            sources.append(spec.value(QStringLiteral("source")));
        for (const QJsonValue& s : spec.value(QStringLiteral("sources")).toArray())
            sources.append(s);
        QJsonObject main;
        for (const QJsonValue& s : sources) {
            const QJsonObject so = s.toObject();
            if (so.contains(QStringLiteral("chart")) ||
                (main.isEmpty() && so.contains(QStringLiteral("path"))))
                main = so;
        }
        if (main.isEmpty() && !sources.isEmpty())
            main = sources.first().toObject();
        c.repository = fieldAt(main, QStringLiteral("repoURL"));
        if (main.contains(QStringLiteral("chart"))) {
            c.source = QStringLiteral("upstream-chart");
            c.chart = fieldAt(main, QStringLiteral("chart"));
            c.version = fieldAt(main, QStringLiteral("targetRevision"));
        } else {
            // A path source: the version is the wrapper chart's (Chart.yaml), not the Git revision.
            c.notes << QStringLiteral("deployed from %1 at revision %2")
                           .arg(c.repository.display(),
                                fieldAt(main, QStringLiteral("targetRevision")).display());
            c.source = QStringLiteral("path");
            const QString path = normalizePath(scalarText(main.value(QStringLiteral("path"))));
            if (!path.isEmpty() && !hasTemplate(path))
                c.folder = path;
        }
        const QJsonObject helm = main.value(QStringLiteral("helm")).toObject();
        for (const QJsonValue& vf : helm.value(QStringLiteral("valueFiles")).toArray()) {
            QString p = vf.toString();
            if (p.startsWith(QLatin1String("$values/")))
                p = p.mid(8);
            if (Status s = applyValueFile(c, normalizePath(p), QStringLiteral("values")); !s)
                return s;
        }
        if (helm.value(QStringLiteral("valuesObject")).isObject())
            c.values = mergeValues(c.values, helm.value(QStringLiteral("valuesObject")).toObject());
        const QString inlineValues = helm.value(QStringLiteral("values")).toString();
        if (!inlineValues.isEmpty()) {
            if (hasTemplate(inlineValues)) {
                c.valuesTemplated = true;
                c.valuesTemplate = inlineValues;
            } else {
                auto v =
                    parseValues(inlineValues.toUtf8(), file + QStringLiteral(" (spec.source.helm.values)"));
                if (!v)
                    return v.error();
                c.values = mergeValues(c.values, *v);
            }
        }
        return {};
    }

    // argocd: NNN-<name>/application.yaml per component, app-of-apps.yaml at the root.
    Status readArgo() {
        if (has(QStringLiteral("app-of-apps.yaml"))) {
            const QString p = QStringLiteral("app-of-apps.yaml");
            setRole(p, QStringLiteral("app-of-apps"));
            if (auto v = parseObjects(bytes(p), p); !v)
                return v.error();
        }
        for (const QString& folder : folders()) {
            const QString appFile = folder + QStringLiteral("/application.yaml");
            Component c;
            c.folder = folder;
            c.name = folderPattern().match(folder).captured(2);
            if (!has(appFile)) {
                c.notes << QStringLiteral("%1 is missing").arg(appFile);
            } else {
                setRole(appFile, QStringLiteral("application"), c.name);
                auto objs = parseObjects(bytes(appFile), appFile);
                if (!objs)
                    return objs.error();
                if (objs->size() != 1 ||
                    objs->front().value(QStringLiteral("kind")).toString() != QLatin1String("Application"))
                    return makeError(
                        QStringLiteral(
                            "expected one Argo CD Application (kind: Application), found %1 document(s)")
                            .arg(objs->size()),
                        appFile, 0, QStringLiteral("kind"));
                if (Status s = readApplication(c, objs->front(), appFile); !s)
                    return s;
                if (!c.release.templated && !c.release.isEmpty())
                    c.name = c.release.text;
                c.folder = folder;
            }
            if (c.source != QLatin1String("upstream-chart")) {
                const QString values = folder + QStringLiteral("/values.yaml");
                if (has(values) && !c.valueFiles.contains(values))
                    if (Status s = applyValueFile(c, values, QStringLiteral("values")); !s)
                        return s;
            } else if (has(folder + QStringLiteral("/values.yaml"))) {
                setRole(folder + QStringLiteral("/values.yaml"), QStringLiteral("values"), c.name);
            }
            folderChart(c, folder);
            m_bundle.components.push_back(std::move(c));
        }
        return {};
    }

    // argocd-helm: the bundle is a Helm chart; templates/<name>.yaml are Application templates.
    Status readArgoHelm() {
        for (const QString& p : {QStringLiteral("Chart.yaml")})
            if (has(p))
                setRole(p, QStringLiteral("chart"));
        if (has(QStringLiteral("values.schema.json")))
            setRole(QStringLiteral("values.schema.json"), QStringLiteral("values-schema"));
        QJsonObject bundleValues;
        if (has(QStringLiteral("values.yaml"))) {
            setRole(QStringLiteral("values.yaml"), QStringLiteral("bundle-values"));
            auto v = parseValues(bytes(QStringLiteral("values.yaml")), QStringLiteral("values.yaml"));
            if (!v)
                return v.error();
            bundleValues = *v;
        }
        static const QRegularExpression filesGet(QStringLiteral("\\.Files\\.Get\\s+\"([^\"]+)\""));
        static const QRegularExpression valuesKey(QStringLiteral("index\\s+\\.Values\\s+\"([^\"]+)\""));
        const QStringList folderList = folders();
        for (const QString& p : under(QStringLiteral("templates/"))) {
            if (p.count(QLatin1Char('/')) != 1 ||
                !(p.endsWith(QLatin1String(".yaml")) || p.endsWith(QLatin1String(".yml"))))
                continue;
            const QString raw = QString::fromUtf8(bytes(p));
            QString stem = QFileInfo(p).completeBaseName();
            // The parent (app-of-apps) Application: named by .Values.appName.
            static const QRegularExpression parentName(
                QStringLiteral("\\n  name:[^\\n]*\\.Values\\.appName"));
            if (parentName.match(raw).hasMatch()) {
                setRole(p, QStringLiteral("app-of-apps"));
                continue;
            }
            auto parsed = parseYaml(inertTemplate(bytes(p)), p);
            if (!parsed || !parsed->isObject()) {
                setRole(p, QStringLiteral("application-template"));
                m_bundle.warnings << QStringLiteral("%1: an Application template whose literal fields could "
                                                    "not be read (%2); kept as written")
                                         .arg(p, parsed ? QStringLiteral("not a mapping")
                                                        : parsed.error().message);
                continue;
            }
            const QJsonObject app = parsed->toObject();
            if (app.value(QStringLiteral("kind")).toString() != QLatin1String("Application")) {
                continue; // left for the unknown list
            }
            // The parent (app-of-apps) Application: named by .Values.appName.
            if (scalarText(at(app, QStringLiteral("metadata.name")))
                    .contains(QLatin1String(".Values.appName"))) {
                setRole(p, QStringLiteral("app-of-apps"));
                continue;
            }
            Component c;
            c.name = stem;
            setRole(p, QStringLiteral("application-template"), c.name);
            if (Status s = readApplication(c, app, p); !s)
                return s;
            // Literal inputs the template names: a static values file and a key of the bundle values.
            if (c.valuesTemplated) {
                QJsonObject merged;
                QStringList from;
                const auto fm = filesGet.match(raw);
                if (fm.hasMatch()) {
                    const QString staticFile = fm.captured(1);
                    if (has(staticFile)) {
                        setRole(staticFile, QStringLiteral("static-values"), c.name);
                        auto v = parseValues(bytes(staticFile), staticFile);
                        if (!v)
                            return v.error();
                        merged = *v;
                        c.valueFiles << staticFile;
                        from << staticFile;
                    } else {
                        c.notes << QStringLiteral("the template reads %1, which is not in the bundle")
                                       .arg(staticFile);
                    }
                }
                const auto km = valuesKey.match(raw);
                if (km.hasMatch()) {
                    const QString key = km.captured(1);
                    merged = mergeValues(merged, bundleValues.value(key).toObject());
                    from << QStringLiteral("values.yaml key '%1'").arg(key);
                }
                c.values = merged;
                c.notes << QStringLiteral("values are a Helm template (not rendered); shown: %1 merged as "
                                          "the template names them")
                               .arg(from.isEmpty() ? QStringLiteral("nothing")
                                                   : from.join(QStringLiteral(" then ")));
            }
            QString folder = c.folder;
            if (folder.isEmpty())
                for (const QString& f : folderList)
                    if (folderPattern().match(f).captured(2) == stem)
                        folder = f;
            c.folder = folder;
            if (!folder.isEmpty()) {
                folderChart(c, folder);
                const QString values = folder + QStringLiteral("/values.yaml");
                if (has(values))
                    setRole(values, QStringLiteral("values"), c.name);
            }
            m_bundle.components.push_back(std::move(c));
        }
        std::stable_sort(m_bundle.components.begin(), m_bundle.components.end(),
                         [](const Component& a, const Component& b) {
                             return std::tuple(a.syncWave.value_or(INT_MAX), folderNumber(a.folder), a.name) <
                                    std::tuple(b.syncWave.value_or(INT_MAX), folderNumber(b.folder), b.name);
                         });
        return {};
    }

    // The values of a ConfigMap a HelmRelease's valuesFrom names, when the bundle carries it in
    // the release's folder (data."values.yaml", as the flux deployer writes it); nullopt when not.
    Result<std::optional<QJsonObject>> bundledConfigMapValues(const QString& folder, const QString& kind,
                                                              const QString& name, const QString& component) {
        if (kind != QLatin1String("ConfigMap") || folder.isEmpty())
            return std::optional<QJsonObject>();
        for (const QString& f : under(folder + QLatin1Char('/'))) {
            if (!f.endsWith(QLatin1String(".yaml")) || f.endsWith(QLatin1String("/helmrelease.yaml")))
                continue;
            auto objs = parseObjects(bytes(f), f);
            if (!objs)
                continue; // not a ConfigMap of values; left to the manifest list
            for (const QJsonObject& o : *objs) {
                if (o.value(QStringLiteral("kind")).toString() != QLatin1String("ConfigMap") ||
                    scalarText(at(o, QStringLiteral("metadata.name"))) != name)
                    continue;
                setRole(f, QStringLiteral("values"), component);
                const QString text =
                    scalarText(at(o, QStringLiteral("data")).toObject().value(QStringLiteral("values.yaml")));
                if (text.trimmed().isEmpty())
                    return std::optional<QJsonObject>(QJsonObject());
                auto v = parseValues(text.toUtf8(), f + QStringLiteral(" (data.values.yaml)"));
                if (!v)
                    return v.error();
                return std::optional<QJsonObject>(*v);
            }
        }
        return std::optional<QJsonObject>();
    }

    // flux: <name>/helmrelease.yaml per component, kustomization.yaml listing them, sources/.
    Status readFlux() {
        std::map<QString, QString> repoUrls; // HelmRepository name -> url
        QStringList order;
        for (const QString& p : under(QStringLiteral("sources/"))) {
            setRole(p, QStringLiteral("source"));
            auto objs = parseObjects(bytes(p), p);
            if (!objs)
                return objs.error();
            for (const QJsonObject& o : *objs)
                if (o.value(QStringLiteral("kind")).toString() == QLatin1String("HelmRepository"))
                    repoUrls[scalarText(at(o, QStringLiteral("metadata.name")))] =
                        scalarText(at(o, QStringLiteral("spec.url")));
        }
        if (has(QStringLiteral("kustomization.yaml"))) {
            const QString p = QStringLiteral("kustomization.yaml");
            setRole(p, QStringLiteral("kustomization"));
            auto objs = parseObjects(bytes(p), p);
            if (!objs)
                return objs.error();
            for (const QJsonObject& o : *objs)
                for (const QJsonValue& r : o.value(QStringLiteral("resources")).toArray()) {
                    const QString rp = normalizePath(r.toString());
                    if (!has(rp))
                        m_bundle.warnings
                            << QStringLiteral("kustomization.yaml lists %1, which is not in the bundle")
                                   .arg(rp);
                    order << rp;
                }
        }
        for (const auto& [path, b] : m_files)
            if (path.endsWith(QLatin1String("/helmrelease.yaml")) && !order.contains(path))
                order << path;
        for (const QString& p : order) {
            if (!has(p) || p.startsWith(QLatin1String("sources/")))
                continue;
            auto objs = parseObjects(bytes(p), p);
            if (!objs)
                return objs.error();
            bool any = false;
            for (const QJsonObject& o : *objs) {
                if (o.value(QStringLiteral("kind")).toString() != QLatin1String("HelmRelease"))
                    continue;
                any = true;
                Component c;
                c.objectKind = QStringLiteral("HelmRelease");
                c.objectFile = p;
                c.object = o;
                c.release = fieldAt(o, QStringLiteral("metadata.name"));
                c.name = c.release.text;
                c.folder = topFolder(p);
                c.source = QStringLiteral("upstream-chart");
                Field target = fieldAt(o, QStringLiteral("spec.targetNamespace"));
                c.namespace_ = target.isEmpty() ? fieldAt(o, QStringLiteral("metadata.namespace")) : target;
                c.chart = fieldAt(o, QStringLiteral("spec.chart.spec.chart"));
                c.version = fieldAt(o, QStringLiteral("spec.chart.spec.version"));
                const QString srcKind = scalarText(at(o, QStringLiteral("spec.chart.spec.sourceRef.kind")));
                const QString srcName = scalarText(at(o, QStringLiteral("spec.chart.spec.sourceRef.name")));
                auto url = repoUrls.find(srcName);
                if (url != repoUrls.end()) {
                    c.repository = literal(url->second);
                } else {
                    c.repository = literal(QStringLiteral("%1/%2").arg(srcKind, srcName));
                    c.notes
                        << QStringLiteral(
                               "source %1 %2 is not in the bundle; the repository is named by the reference")
                               .arg(srcKind, srcName);
                }
                if (srcKind == QLatin1String("GitRepository"))
                    c.source = QStringLiteral("local-chart");
                for (const QJsonValue& d : at(o, QStringLiteral("spec.dependsOn")).toArray())
                    c.dependsOn << scalarText(d.toObject().value(QStringLiteral("name")));
                // Flux merges spec.valuesFrom in order, then spec.values over them. A ConfigMap the
                // bundle carries itself (configmap-values.yaml beside the release) is read; any
                // other lives in the cluster, so the values are then incomplete.
                for (const QJsonValue& from : at(o, QStringLiteral("spec.valuesFrom")).toArray()) {
                    const QJsonObject fo = from.toObject();
                    Result<std::optional<QJsonObject>> cm =
                        bundledConfigMapValues(c.folder, scalarText(fo.value(QStringLiteral("kind"))),
                                               scalarText(fo.value(QStringLiteral("name"))), c.name);
                    if (!cm)
                        return cm.error();
                    if (!*cm) {
                        c.notes << QStringLiteral(
                                       "spec.valuesFrom %1 %2 is read from the cluster at install time "
                                       "(not in the bundle)")
                                       .arg(scalarText(fo.value(QStringLiteral("kind"))),
                                            scalarText(fo.value(QStringLiteral("name"))));
                        c.valuesComplete = false;
                        continue;
                    }
                    c.values = mergeValues(c.values, **cm);
                    c.valueFiles << c.folder + QStringLiteral("/configmap-values.yaml (ConfigMap %1)")
                                                   .arg(scalarText(fo.value(QStringLiteral("name"))));
                }
                if (at(o, QStringLiteral("spec.values")).isObject()) {
                    c.values = mergeValues(c.values, at(o, QStringLiteral("spec.values")).toObject());
                    c.valueFiles << p + QStringLiteral(" (spec.values)");
                }
                setRole(p, QStringLiteral("helmrelease"), c.name);
                const QString chartYaml = c.folder + QStringLiteral("/Chart.yaml");
                for (const QString& f : under(c.folder + QLatin1Char('/'))) {
                    if (f == p || f == chartYaml || !f.endsWith(QLatin1String(".yaml")))
                        continue;
                    if (BundleFile* bf = file(f); bf && !bf->role.isEmpty())
                        continue; // the release's ConfigMap of values, read above
                    setRole(f, QStringLiteral("manifest"), c.name);
                    c.manifests << f;
                }
                if (has(chartYaml))
                    setRole(chartYaml, QStringLiteral("chart"), c.name);
                m_bundle.components.push_back(std::move(c));
            }
            if (!any)
                continue; // a resource that is not a HelmRelease stays unknown unless a role was set
        }
        return {};
    }

    // helmfile: helmfile.yaml (releases, or helmfiles: one sub-helmfile per level).
    Status readHelmfile() {
        const QString rootFile = QStringLiteral("helmfile.yaml");
        setRole(rootFile, QStringLiteral("helmfile"));
        auto root = parseValues(bytes(rootFile), rootFile);
        if (!root)
            return root.error();
        std::vector<std::pair<QString, std::optional<int>>> levels; // file, level
        const QJsonArray subs = root->value(QStringLiteral("helmfiles")).toArray();
        if (!subs.isEmpty()) {
            int level = 0;
            for (const QJsonValue& s : subs) {
                const QString p = normalizePath(
                    s.isObject() ? s.toObject().value(QStringLiteral("path")).toString() : s.toString());
                if (!has(p))
                    return makeError(
                        QStringLiteral("helmfile.yaml lists %1, which is not in the bundle").arg(p), rootFile,
                        0, QStringLiteral("helmfiles[%1].path").arg(level));
                levels.emplace_back(p, level++);
            }
        }
        if (root->contains(QStringLiteral("releases")) || levels.empty())
            levels.insert(levels.begin(), {rootFile, std::nullopt});
        for (const auto& [p, level] : levels) {
            setRole(p, QStringLiteral("helmfile"));
            auto doc = parseValues(bytes(p), p);
            if (!doc)
                return doc.error();
            std::map<QString, std::pair<QString, bool>> repos; // name -> url, oci
            for (const QJsonValue& r : doc->value(QStringLiteral("repositories")).toArray()) {
                const QJsonObject ro = r.toObject();
                repos[ro.value(QStringLiteral("name")).toString()] = {
                    scalarText(ro.value(QStringLiteral("url"))), ro.value(QStringLiteral("oci")).toBool()};
            }
            const QJsonArray releases = doc->value(QStringLiteral("releases")).toArray();
            for (qsizetype i = 0; i < releases.size(); ++i) {
                const QJsonObject r = releases.at(i).toObject();
                Component c;
                c.objectKind = QStringLiteral("release");
                c.objectFile = p;
                c.object = r;
                c.release = fieldAt(r, QStringLiteral("name"));
                c.name = c.release.text;
                if (c.name.isEmpty())
                    return makeError(QStringLiteral("a release needs a name"), p, 0,
                                     QStringLiteral("releases[%1].name").arg(i));
                c.namespace_ = fieldAt(r, QStringLiteral("namespace"));
                c.version = fieldAt(r, QStringLiteral("version"));
                c.syncWave = level;
                if (level)
                    c.syncWaveText = QString::number(*level);
                const QString chart = scalarText(r.value(QStringLiteral("chart")));
                if (chart.startsWith(QLatin1String("./")) || chart.startsWith(QLatin1Char('/')) ||
                    chart.startsWith(QLatin1String("../"))) {
                    c.source = QStringLiteral("local-chart");
                    c.folder = normalizePath(chart);
                    c.chart = literal(chart);
                    folderChart(c, c.folder);
                } else {
                    c.source = QStringLiteral("upstream-chart");
                    const qsizetype slash = chart.indexOf(QLatin1Char('/'));
                    const QString repoName = slash < 0 ? QString() : chart.left(slash);
                    auto it = repos.find(repoName);
                    if (it != repos.end()) {
                        c.chart = literal(chart.mid(slash + 1));
                        c.repository =
                            literal(it->second.second && !it->second.first.startsWith(QLatin1String("oci://"))
                                        ? QStringLiteral("oci://") + it->second.first
                                        : it->second.first);
                    } else {
                        c.chart = literal(chart);
                    }
                }
                for (const QJsonValue& v : r.value(QStringLiteral("values")).toArray()) {
                    if (v.isString()) {
                        const QString vp = normalizePath(v.toString());
                        if (c.folder.isEmpty())
                            c.folder = topFolder(vp);
                        if (Status s = applyValueFile(c, vp,
                                                      vp.endsWith(QLatin1String("cluster-values.yaml"))
                                                          ? QStringLiteral("cluster-values")
                                                          : QStringLiteral("values"));
                            !s)
                            return s;
                    } else if (v.isObject()) {
                        c.values = mergeValues(c.values, v.toObject());
                    }
                }
                for (const QJsonValue& n : r.value(QStringLiteral("needs")).toArray())
                    c.dependsOn << n.toString();
                // The helm deployer's files the folders keep (helmfile runs none of them, and reads
                // cluster-values.yaml only when a release lists it).
                if (!c.folder.isEmpty()) {
                    setRole(c.folder + QStringLiteral("/install.sh"), QStringLiteral("install-script"),
                            c.name);
                    setRole(c.folder + QStringLiteral("/upstream.env"), QStringLiteral("upstream-env"),
                            c.name);
                    setRole(c.folder + QStringLiteral("/cluster-values.yaml"),
                            QStringLiteral("cluster-values"), c.name);
                }
                m_bundle.components.push_back(std::move(c));
            }
        }
        return {};
    }

    const FileMap& m_files;
    DeployBundle m_bundle;
};

} // namespace

QByteArray inertTemplate(const QByteArray& text) {
    static const QRegularExpression keyValue(
        QStringLiteral("^(\\s*(?:-\\s+)?[^\\s:'\"{#][^:'\"{]*:\\s+)(.*)$"));
    static const QRegularExpression listItem(QStringLiteral("^(\\s*-\\s+)(.*)$"));
    static const QRegularExpression blockStart(QStringLiteral(":\\s*[|>][-+]?\\s*$"));
    QByteArray out;
    int blockIndent = -1;
    for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        qsizetype indent = 0;
        while (indent < line.size() && line.at(indent) == QLatin1Char(' '))
            ++indent;
        if (blockIndent >= 0) {
            if (trimmed.isEmpty() || indent > blockIndent) {
                out += line.toUtf8() + '\n';
                continue;
            }
            blockIndent = -1;
        }
        if (trimmed.startsWith(QLatin1String("{{")) && trimmed.endsWith(QLatin1String("}}")))
            continue; // a line that is only a template action
        QString kept = line;
        if (trimmed.contains(QLatin1String("{{"))) {
            auto m = keyValue.match(line);
            if (!m.hasMatch())
                m = listItem.match(line);
            if (!m.hasMatch())
                continue;
            const QString value = m.captured(2);
            const bool quoted = (value.startsWith(QLatin1Char('\'')) && value.endsWith(QLatin1Char('\''))) ||
                                (value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')));
            if (!quoted) {
                QString v = value;
                v.replace(QLatin1Char('\''), QLatin1String("''"));
                kept = m.captured(1) + QLatin1Char('\'') + v + QLatin1Char('\'');
            }
        }
        if (blockStart.match(trimmed).hasMatch())
            blockIndent = static_cast<int>(indent);
        out += kept.toUtf8() + '\n';
    }
    return out;
}

Result<Deployer> detectDeployer(const QString& name, const FileMap& files) {
    auto has = [&](const QString& p) { return files.count(p) > 0; };
    if (has(QStringLiteral("helmfile.yaml")))
        return Deployer::Helmfile;
    for (const auto& [path, bytes] : files)
        if (path.startsWith(QLatin1String("templates/")) && path.count(QLatin1Char('/')) == 1 &&
            bytes.contains("argoproj.io/") && bytes.contains("{{"))
            return Deployer::ArgoCDHelm;
    for (const auto& [path, bytes] : files)
        if (path.endsWith(QLatin1String("helmrelease.yaml")) ||
            (path.count(QLatin1Char('/')) <= 1 && bytes.contains("kind: HelmRelease")))
            return Deployer::Flux;
    if (has(QStringLiteral("app-of-apps.yaml")))
        return Deployer::ArgoCD;
    for (const auto& [path, bytes] : files) {
        const QString top = topFolder(path);
        if (!folderPattern().match(top).hasMatch())
            continue;
        if (path == top + QStringLiteral("/application.yaml"))
            return Deployer::ArgoCD;
        if (path == top + QStringLiteral("/install.sh") || path == top + QStringLiteral("/upstream.env"))
            return Deployer::Helm;
    }
    if (has(QStringLiteral("deploy.sh")))
        return Deployer::Helm;
    return makeError(QStringLiteral("not a deployment bundle of a known deployer: found no helmfile.yaml "
                                    "(helmfile), no templates/ of Argo CD "
                                    "Application templates (argocd-helm), no HelmRelease (flux), no "
                                    "app-of-apps.yaml or NNN-<name>/application.yaml "
                                    "(argocd) and no NNN-<name>/install.sh or upstream.env (helm); give "
                                    "--deployer to read it as one"),
                     name);
}

Result<DeployBundle> readBundleFiles(const QString& name, const FileMap& files, const ReadOptions& options) {
    Deployer d;
    if (options.deployer) {
        d = *options.deployer;
    } else {
        auto detected = detectDeployer(name, files);
        if (!detected)
            return detected.error();
        d = *detected;
    }
    if (d == Deployer::Helmfile && !files.count(QStringLiteral("helmfile.yaml")))
        return makeError(QStringLiteral("a helmfile bundle needs helmfile.yaml at its root"), name);
    Reader reader(name, files);
    return reader.read(d);
}

Result<ReadBundle> readBundle(const QString& dir, const ReadOptions& options) {
    qint64 total = 0;
    auto files = readTree(dir, options, &total);
    if (!files) {
        Error e = files.error();
        if (e.file != dir && !e.file.isEmpty())
            e.file = QDir(dir).filePath(e.file);
        return e;
    }
    auto b = readBundleFiles(QDir::cleanPath(dir), *files, options);
    if (!b) {
        Error e = b.error();
        if (e.file != QDir::cleanPath(dir) && !e.file.isEmpty())
            e.file = QDir(dir).filePath(e.file);
        return e;
    }
    return ReadBundle{std::move(*b), std::move(*files)};
}

} // namespace pb::bundle::model
