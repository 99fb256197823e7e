#include "bundle/DeploymentBundle.h"
#include "bundle/TreeDigest.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "sigstore/Keys.h"
#include "sigstore/Sign.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QThread>
#include <QtConcurrent>

#include <map>
#include <optional>

namespace pb::deploy {

namespace {

bool isBookkeeping(const QString& rel) {
    return rel == QLatin1String(kChecksums) || rel == QLatin1String(kBundleAttestation) ||
           rel == QLatin1String(kBinaryAttestation);
}

QString hashFile(const QString& path, qint64* size) {
    QFile f(path);
    if (!openInputFile(f))
        return {};
    Sha256 h;
    QByteArray buf(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    for (;;) {
        const qint64 n = f.read(buf.data(), buf.size());
        if (n < 0)
            return {};
        if (n == 0)
            break;
        h.add(buf.constData(), n);
        total += n;
    }
    *size = total;
    return QString::fromLatin1(h.result().toHex());
}

std::map<QString, QString> parseChecksums(const QByteArray& text, QStringList* problems) {
    std::map<QString, QString> out;
    static const QRegularExpression line(QStringLiteral("^([0-9a-f]{64})  (.+)$"));
    int n = 0;
    for (const QByteArray& raw : text.split('\n')) {
        ++n;
        if (raw.isEmpty())
            continue;
        const auto m = line.match(QString::fromUtf8(raw));
        if (!m.hasMatch()) {
            *problems << QStringLiteral("checksums.txt:%1: not '<sha256>  <path>'").arg(n);
            continue;
        }
        const QString path = m.captured(2);
        if (path.startsWith(QLatin1Char('/')) || path.split(QLatin1Char('/')).contains(QStringLiteral("..")))
            *problems << QStringLiteral("checksums.txt:%1: path '%2' leaves the bundle").arg(n).arg(path);
        else
            out[path] = m.captured(1);
    }
    return out;
}

QStringList componentFolders(const QString& dir) {
    QStringList out;
    static const QRegularExpression re(QStringLiteral("^\\d{3}-"));
    for (const QString& d : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (re.match(d).hasMatch())
            out << d;
    return out;
}

} // namespace

Result<std::vector<FileDigest>> hashTree(const QString& dirIn, const Progress& progress,
                                         std::atomic_bool* cancel) {
    const QString dir = QFileInfo(dirIn).absoluteFilePath();
    if (!QFileInfo(dir).isDir())
        return makeError(QStringLiteral("not a directory"), dirIn);
    std::vector<FileDigest> files;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    const QDir base(dir);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        const QString rel = base.relativeFilePath(info.filePath());
        if (info.isSymLink())
            return makeError(QStringLiteral("a symbolic link is not allowed in a bundle"), rel);
        if (info.isDir())
            continue;
        if (!info.isFile())
            return makeError(QStringLiteral("only regular files are allowed in a bundle"), rel);
        if (isBookkeeping(rel))
            continue;
        files.push_back(FileDigest{rel, {}, 0});
    }
    std::sort(files.begin(), files.end(),
              [](const FileDigest& a, const FileDigest& b) { return a.path < b.path; });
    std::atomic_int done{0};
    std::atomic_bool failed{false};
    QMutex progressLock;
    const int total = int(files.size());
    QThread* const caller = QThread::currentThread();
    QtConcurrent::blockingMap(files, [&](FileDigest& f) {
        if ((cancel && cancel->load()) || failed.load())
            return;
        f.sha256Hex = hashFile(dir + QLatin1Char('/') + f.path, &f.size);
        sigstore::crypto::releasePoolThreadState(caller);
        if (f.sha256Hex.isEmpty())
            failed = true;
        const int n = ++done;
        if (progress && (n % 64 == 0 || n == total)) {
            QMutexLocker lock(&progressLock);
            progress(n, total);
        }
    });
    if (cancel && cancel->load())
        return makeError(QStringLiteral("cancelled"), dirIn);
    for (const FileDigest& f : files)
        if (f.sha256Hex.isEmpty())
            return makeError(QStringLiteral("cannot read the file"), f.path);
    return files;
}

QByteArray checksumsText(const std::vector<FileDigest>& files) {
    QByteArray out;
    out.reserve(qsizetype(files.size()) * 100);
    for (const FileDigest& f : files) {
        out += f.sha256Hex.toLatin1();
        out += "  ";
        out += f.path.toUtf8();
        out += '\n';
    }
    return out;
}

Result<SignReport> signDeploymentBundle(const QString& dir, EVP_PKEY* key, const Progress& progress,
                                        std::atomic_bool* cancel, const FileWriter& writer) {
    auto files = hashTree(dir, progress, cancel);
    if (!files)
        return files.error();
    const QByteArray checksums = checksumsText(*files);
    const QString checksumsHex = sha256Hex(checksums);
    // SLSA provenance v1 as `aicr bundle --attest` writes it, with this tool as the builder.
    QJsonArray deps;
    QString recipeCriteria;
    for (const FileDigest& f : *files)
        if (f.path == QLatin1String("recipe.yaml"))
            deps.append(QJsonObject{
                {QStringLiteral("uri"), QStringLiteral("file://recipe.yaml")},
                {QStringLiteral("digest"), QJsonObject{{QStringLiteral("sha256"), f.sha256Hex}}}});
    QJsonArray components;
    for (const QString& c : componentFolders(dir))
        components.append(c.mid(4));
    const QString version = QCoreApplication::applicationVersion().isEmpty()
                                ? QStringLiteral("dev")
                                : QCoreApplication::applicationVersion();
    const QJsonObject predicate{
        {QStringLiteral("buildDefinition"),
         QJsonObject{{QStringLiteral("buildType"), QStringLiteral("https://aicr.run/bundle/v1")},
                     {QStringLiteral("externalParameters"),
                      QJsonObject{{QStringLiteral("recipeSource"), QStringLiteral("external")}}},
                     {QStringLiteral("internalParameters"),
                      QJsonObject{{QStringLiteral("components"), components},
                                  {QStringLiteral("outputDir"), QFileInfo(dir).fileName()},
                                  {QStringLiteral("toolVersion"), QStringLiteral("proofbench ") + version}}},
                     {QStringLiteral("resolvedDependencies"), deps}}},
        {QStringLiteral("runDetails"),
         QJsonObject{
             {QStringLiteral("builder"),
              QJsonObject{{QStringLiteral("id"), QStringLiteral("pkg:generic/proofbench@") + version}}},
             {QStringLiteral("metadata"),
              QJsonObject{
                  {QStringLiteral("invocationId"), QStringLiteral("urn:sha256:") + checksumsHex},
                  {QStringLiteral("startedOn"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}}}}}};
    const QByteArray statement =
        sigstore::inTotoStatement({sigstore::Subject{QLatin1String(kChecksums), checksumsHex}},
                                  QStringLiteral("https://slsa.dev/provenance/v1"), predicate);
    auto bundle = sigstore::attest(key, statement);
    if (!bundle)
        return bundle.error();
    const FileWriter write = writer ? writer : atomicFileWriter();
    if (Status s = write(dir + QLatin1Char('/') + QLatin1String(kChecksums), checksums, FileAccess::Normal);
        !s)
        return s.error();
    if (Status s = write(dir + QLatin1Char('/') + QLatin1String(kBundleAttestation), *bundle + '\n',
                         FileAccess::Normal);
        !s)
        return s.error();
    std::vector<std::pair<QString, QString>> listed;
    listed.reserve(files->size());
    for (const FileDigest& f : *files)
        listed.emplace_back(f.path, f.sha256Hex);
    return SignReport{int(files->size()), checksumsHex, sigstore::keyFingerprint(key),
                      bundle::treeDigestOfFiles(std::move(listed))};
}

QString fileStateName(FileState s) {
    switch (s) {
    case FileState::Ok:
        return QStringLiteral("ok");
    case FileState::Changed:
        return QStringLiteral("changed");
    case FileState::Missing:
        return QStringLiteral("missing");
    case FileState::Unexpected:
        break;
    }
    return QStringLiteral("unexpected");
}

QString trustLevelName(TrustLevel t) {
    switch (t) {
    case TrustLevel::Verified:
        return QStringLiteral("verified");
    case TrustLevel::Attested:
        return QStringLiteral("attested");
    case TrustLevel::Unverified:
        return QStringLiteral("unverified");
    case TrustLevel::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

std::optional<TrustLevel> parseTrustLevel(const QString& name) {
    if (name == QLatin1String("max") || name == QLatin1String("verified"))
        return TrustLevel::Verified;
    if (name == QLatin1String("attested"))
        return TrustLevel::Attested;
    if (name == QLatin1String("unverified"))
        return TrustLevel::Unverified;
    if (name == QLatin1String("unknown"))
        return TrustLevel::Unknown;
    return std::nullopt;
}

namespace {

// v.files: every listed and every present file, in path order, with its state.
void compareFiles(const std::map<QString, QString>& listed, const std::map<QString, QString>& onDisk,
                  DeploymentVerification& v) {
    for (const auto& [path, hex] : listed) {
        const auto it = onDisk.find(path);
        if (it == onDisk.end())
            v.files.push_back(FileCheck{path, FileState::Missing, hex, {}});
        else
            v.files.push_back(
                FileCheck{path, it->second == hex ? FileState::Ok : FileState::Changed, hex, it->second});
    }
    for (const auto& [path, hex] : onDisk)
        if (!listed.count(path))
            v.files.push_back(FileCheck{path, FileState::Unexpected, {}, hex});
    std::sort(v.files.begin(), v.files.end(),
              [](const FileCheck& a, const FileCheck& b) { return a.path < b.path; });
}

// 1. Closed-world inventory: checksums.txt's bytes when it lists exactly the files present.
// Every file is opened non-blocking and must be a regular file (core/Files.h): a named pipe in
// place of checksums.txt or an attestation is an error naming it, never a hang.
std::optional<QByteArray> checkInventory(const QString& dir, const Progress& progress,
                                         std::atomic_bool* cancel, DeploymentVerification& v) {
    const QString checksumsFile = dir + QLatin1Char('/') + QLatin1String(kChecksums);
    if (!QFileInfo::exists(checksumsFile) && !QFileInfo(checksumsFile).isSymLink()) {
        v.inventoryDetail = QStringLiteral("checksums.txt is missing: the bundle was never sealed");
        return std::nullopt;
    }
    Result<QByteArray> checksumsRead =
        readFileLimited(checksumsFile, limits::kDocumentFile, QStringLiteral("checksums.txt"));
    if (!checksumsRead) {
        v.inventoryDetail = checksumsRead.error().toString();
        return std::nullopt;
    }
    const QByteArray checksums = *checksumsRead;
    QStringList problems;
    const std::map<QString, QString> listed = parseChecksums(checksums, &problems);
    auto present = hashTree(dir, progress, cancel);
    if (!present) {
        v.inventoryDetail = present.error().toString();
        return std::nullopt;
    }
    std::map<QString, QString> onDisk;
    for (const FileDigest& f : *present)
        onDisk[f.path] = f.sha256Hex;
    compareFiles(listed, onDisk, v);
    QMap<FileState, int> counts;
    for (const FileCheck& f : v.files)
        ++counts[f.state];
    v.inventoryOk = problems.isEmpty() && counts.value(FileState::Changed) == 0 &&
                    counts.value(FileState::Missing) == 0 && counts.value(FileState::Unexpected) == 0;
    v.inventoryDetail = v.inventoryOk
                            ? QStringLiteral("%1 files match checksums.txt").arg(counts.value(FileState::Ok))
                            : (problems + QStringList{QStringLiteral("%1 changed, %2 missing, %3 unexpected")
                                                          .arg(counts.value(FileState::Changed))
                                                          .arg(counts.value(FileState::Missing))
                                                          .arg(counts.value(FileState::Unexpected))})
                                  .join(QStringLiteral("; "));
    if (!v.inventoryOk)
        return std::nullopt;
    return checksums;
}

// The sha256 of the aicr binary the bundle attestation's provenance names, or empty.
QString attestedBinaryDigest(const QJsonObject& statement) {
    QString binaryDigest;
    const QJsonArray deps = statement.value(QStringLiteral("predicate"))
                                .toObject()
                                .value(QStringLiteral("buildDefinition"))
                                .toObject()
                                .value(QStringLiteral("resolvedDependencies"))
                                .toArray();
    for (const QJsonValue& d : deps) {
        const QString uri = d.toObject().value(QStringLiteral("uri")).toString();
        if (uri.startsWith(QLatin1String("file://")) && uri.endsWith(QLatin1String("/aicr")))
            binaryDigest = d.toObject()
                               .value(QStringLiteral("digest"))
                               .toObject()
                               .value(QStringLiteral("sha256"))
                               .toString();
    }
    return binaryDigest;
}

// 3. The aicr binary's own provenance, pinned to NVIDIA's release workflow.
void checkBinaryAttestation(const QString& dir, const VerifyOptions& options, DeploymentVerification& v) {
    QFile bf(dir + QLatin1Char('/') + QLatin1String(kBinaryAttestation));
    if (!openInputFile(bf, QStringLiteral("the binary attestation"))) {
        v.level = TrustLevel::Attested;
        v.attestationDetail = QStringLiteral(
            "bundle attestation verified; no binary attestation, so the creator is not proven");
        return;
    }
    auto artifact = sigstore::Artifact::fromDigest(attestedBinaryDigest(v.bundleAttestation->statement));
    if (!artifact || !options.root) {
        v.level = TrustLevel::Attested;
        v.attestationDetail =
            !options.root
                ? QStringLiteral("bundle attestation verified; the binary attestation needs a trusted root")
                : QStringLiteral(
                      "bundle attestation verified; it names no aicr binary to match the binary attestation");
        return;
    }
    sigstore::Policy nvidia;
    nvidia.identityRegexp =
        QStringLiteral("^https://github\\.com/NVIDIA/aicr/\\.github/workflows/on-tag\\.yaml@refs/tags/.+$");
    nvidia.issuer = QStringLiteral("https://token.actions.githubusercontent.com");
    const QByteArray binaryBytes =
        readLimited(bf, limits::kDocumentFile, QStringLiteral("the binary attestation")).valueOr({});
    v.binaryAttestation = sigstore::verifyBundle(binaryBytes, QLatin1String(kBinaryAttestation), *artifact,
                                                 *options.root, nvidia);
    if (!v.binaryAttestation->verified) {
        v.attestationDetail = QStringLiteral("binary attestation: %1").arg(v.binaryAttestation->summary());
        return;
    }
    v.level = TrustLevel::Verified;
    v.attestationDetail = QStringLiteral("bundle and binary attestations verified");
}

} // namespace

DeploymentVerification verifyDeploymentBundle(const QString& dir, const VerifyOptions& options,
                                              const Progress& progress, std::atomic_bool* cancel) {
    DeploymentVerification v;
    const std::optional<QByteArray> checksums = checkInventory(dir, progress, cancel, v);
    if (!checksums)
        return v; // unknown: nothing else can be trusted

    // 2. The bundle attestation over checksums.txt.
    QFile af(dir + QLatin1Char('/') + QLatin1String(kBundleAttestation));
    if (!openInputFile(af, QStringLiteral("the bundle attestation"))) {
        v.level = TrustLevel::Unverified;
        v.attestationDetail =
            QStringLiteral("no bundle attestation: the inventory is all that can be checked");
        return v;
    }
    sigstore::TrustedRoot empty;
    const sigstore::TrustedRoot& root = options.root ? *options.root : empty;
    const QByteArray attestationBytes =
        readLimited(af, limits::kDocumentFile, QStringLiteral("the bundle attestation")).valueOr({});
    v.bundleAttestation =
        sigstore::verifyBundle(attestationBytes, QLatin1String(kBundleAttestation),
                               sigstore::Artifact::fromBytes(*checksums), root, options.policy);
    if (!v.bundleAttestation->verified) {
        v.attestationDetail = QStringLiteral("bundle attestation: %1").arg(v.bundleAttestation->summary());
        return v; // an attestation that fails makes the bundle unknown
    }
    if (v.bundleAttestation->predicateType != QLatin1String("https://slsa.dev/provenance/v1")) {
        v.attestationDetail = QStringLiteral("bundle attestation: predicate '%1' is not SLSA provenance v1")
                                  .arg(v.bundleAttestation->predicateType);
        return v;
    }
    checkBinaryAttestation(dir, options, v);
    return v;
}

QJsonObject DeploymentVerification::toJson() const {
    QJsonArray fileList;
    for (const FileCheck& f : files) {
        QJsonObject o{{QStringLiteral("path"), f.path}, {QStringLiteral("state"), fileStateName(f.state)}};
        if (!f.expected.isEmpty())
            o.insert(QStringLiteral("expected"), f.expected);
        if (!f.found.isEmpty())
            o.insert(QStringLiteral("found"), f.found);
        fileList.append(o);
    }
    QJsonObject o{{QStringLiteral("trustLevel"), trustLevelName(level)},
                  {QStringLiteral("inventory"), QJsonObject{{QStringLiteral("ok"), inventoryOk},
                                                            {QStringLiteral("detail"), inventoryDetail}}},
                  {QStringLiteral("attestation"), attestationDetail},
                  {QStringLiteral("files"), fileList}};
    if (bundleAttestation) {
        QJsonObject a = bundleAttestation->toJson();
        a.remove(QStringLiteral("statement"));
        o.insert(QStringLiteral("bundleAttestation"), a);
    }
    if (binaryAttestation) {
        QJsonObject a = binaryAttestation->toJson();
        a.remove(QStringLiteral("statement"));
        o.insert(QStringLiteral("binaryAttestation"), a);
    }
    return o;
}

QString DeploymentVerification::toText() const {
    QString out = QStringLiteral("trust level: %1\n").arg(trustLevelName(level));
    out += QStringLiteral("inventory: %1\n").arg(inventoryDetail);
    for (const FileCheck& f : files)
        if (f.state != FileState::Ok)
            out += QStringLiteral("  %1  %2\n").arg(fileStateName(f.state), -10).arg(f.path);
    if (!attestationDetail.isEmpty())
        out += QStringLiteral("attestation: %1\n").arg(attestationDetail);
    if (bundleAttestation)
        for (const sigstore::Step& s : bundleAttestation->steps)
            out += QStringLiteral("  %1 %2: %3\n")
                       .arg(s.state == sigstore::StepState::Passed   ? QStringLiteral("[ok]  ")
                            : s.state == sigstore::StepState::Failed ? QStringLiteral("[FAIL]")
                                                                     : QStringLiteral("[skip]"),
                            s.name, s.detail);
    return out;
}

} // namespace pb::deploy
