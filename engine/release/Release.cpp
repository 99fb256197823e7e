#include "release/Release.h"

#include "core/Hash.h"
#include "evidence/Bundle.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtEndian>

#include <memory>

namespace pb::release {

namespace {

const QRegularExpression& versionPattern() {
    static const QRegularExpression re(
        QStringLiteral("^v?(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}(?:-[0-9A-Za-z.-]{1,64})?)$"));
    return re;
}

bool isHex64(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^[0-9a-fA-F]{64}$"));
    return re.match(s).hasMatch();
}

bool safeName(const QString& name) {
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String("..") || name.size() > 255)
        return false;
    for (QChar c : name)
        if (c == QLatin1Char('/') || c == QLatin1Char('\\') || c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    return true;
}

QByteArray u64be(qint64 n) {
    QByteArray b(8, '\0');
    qToBigEndian<quint64>(static_cast<quint64>(n), b.data());
    return b;
}

QString fileOf(const QString& uri) {
    return uri.startsWith(QLatin1String("file://")) ? uri.mid(7) : uri;
}

} // namespace

Result<QString> normalizeVersion(const QString& text) {
    const QRegularExpressionMatch m = versionPattern().match(text.trimmed());
    if (!m.hasMatch())
        return makeError(QStringLiteral("'%1' is not a release version (expected vX.Y.Z, e.g. v0.19.0)")
                             .arg(text.left(80)),
                         {}, 0, QStringLiteral("--version"));
    return QStringLiteral("v") + m.captured(1);
}

QString tagIdentity(const QString& version) {
    return QStringLiteral("https://github.com/NVIDIA/aicr/.github/workflows/on-tag.yaml@refs/tags/") +
           version;
}

QString versionFromFolderName(const QString& name) {
    static const QRegularExpression re(
        QStringLiteral("(?:^|[^0-9A-Za-z.])v?(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}(?:-[0-9A-Za-z.]{1,64})?)$"));
    const QRegularExpressionMatch m = re.match(name);
    return m.hasMatch() ? QStringLiteral("v") + m.captured(1) : QString();
}

Result<std::vector<ChecksumRow>> parseChecksums(const QByteArray& bytes, const QString& file) {
    std::vector<ChecksumRow> rows;
    const QList<QByteArray> lines = bytes.split('\n');
    if (lines.size() > kMaxChecksumLines + 1)
        return makeError(
            QStringLiteral("more than %1 lines; not a release checksum list").arg(kMaxChecksumLines), file);
    int lineNo = 0;
    for (QByteArray line : lines) {
        ++lineNo;
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        const QString text = QString::fromUtf8(line);
        // sha256sum: 64 hex, a space, then ' ' (text) or '*' (binary), then the name.
        if (text.size() < 67 || text.at(64) != QLatin1Char(' ') ||
            (text.at(65) != QLatin1Char(' ') && text.at(65) != QLatin1Char('*')))
            return makeError(
                QStringLiteral("expected 'SHA256  NAME' (64 hex digits, two spaces, a file name)"), file,
                lineNo);
        const QString hex = text.left(64);
        if (!isHex64(hex))
            return makeError(QStringLiteral("'%1' is not a sha256 digest (64 hex digits)").arg(hex), file,
                             lineNo);
        const QString name = text.mid(66);
        if (!safeName(name))
            return makeError(
                QStringLiteral("'%1' is not a plain file name (no path, no '..', no control characters)")
                    .arg(name.left(80)),
                file, lineNo);
        if (const ChecksumRow* seen = findRow(rows, name))
            return makeError(
                QStringLiteral("'%1' is listed twice (first on line %2)").arg(name).arg(seen->line), file,
                lineNo);
        rows.push_back({name, hex.toLower(), lineNo});
    }
    if (rows.empty())
        return makeError(QStringLiteral("the checksum list has no rows"), file);
    return rows;
}

const ChecksumRow* findRow(const std::vector<ChecksumRow>& rows, const QString& name) {
    for (const ChecksumRow& r : rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

QString recipeCatalogSubject(const QByteArray& registry, const QByteArray& validators) {
    Sha256 h;
    h.add(u64be(registry.size()));
    h.add(registry);
    h.add(u64be(validators.size()));
    h.add(validators);
    return QString::fromLatin1(h.result().toHex());
}

QString Statement::subjectDigest(const QString& name) const {
    for (const auto& [n, d] : subjects)
        if (n == name)
            return d;
    return {};
}

Result<Statement> parseStatement(const QByteArray& payload, const QString& file) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("the signed payload is not an in-toto statement (JSON object): %1")
                             .arg(pe.errorString()),
                         file, 0, QStringLiteral("dsseEnvelope.payload"));
    const QJsonObject o = doc.object();
    Statement s;
    s.type = o.value(QStringLiteral("_type")).toString();
    s.predicateType = o.value(QStringLiteral("predicateType")).toString();
    if (!s.type.startsWith(QLatin1String("https://in-toto.io/Statement/")))
        return makeError(QStringLiteral("not an in-toto statement ('%1')").arg(s.type.left(80)), file, 0,
                         QStringLiteral("payload._type"));
    const QJsonArray subjects = o.value(QStringLiteral("subject")).toArray();
    if (subjects.isEmpty() || subjects.size() > 10000)
        return makeError(QStringLiteral("the statement names no subject"), file, 0,
                         QStringLiteral("payload.subject"));
    for (qsizetype i = 0; i < subjects.size(); ++i) {
        const QJsonObject sub = subjects.at(i).toObject();
        const QString digest =
            sub.value(QStringLiteral("digest")).toObject().value(QStringLiteral("sha256")).toString();
        if (!isHex64(digest))
            return makeError(QStringLiteral("the subject has no sha256 digest"), file, 0,
                             QStringLiteral("payload.subject[%1].digest.sha256").arg(i));
        s.subjects.emplace_back(sub.value(QStringLiteral("name")).toString(), digest.toLower());
    }
    const QJsonObject predicate = o.value(QStringLiteral("predicate")).toObject();
    const QJsonObject build = predicate.value(QStringLiteral("buildDefinition")).toObject();
    s.buildType = build.value(QStringLiteral("buildType")).toString();
    s.ref =
        build.value(QStringLiteral("externalParameters")).toObject().value(QStringLiteral("ref")).toString();
    s.toolVersion = build.value(QStringLiteral("internalParameters"))
                        .toObject()
                        .value(QStringLiteral("toolVersion"))
                        .toString();
    const QJsonArray deps = build.value(QStringLiteral("resolvedDependencies")).toArray();
    for (qsizetype i = 0; i < deps.size() && i < 10000; ++i) {
        const QJsonObject d = deps.at(i).toObject();
        const QJsonObject digest = d.value(QStringLiteral("digest")).toObject();
        Dependency dep{d.value(QStringLiteral("uri")).toString(),
                       digest.value(QStringLiteral("sha256")).toString().toLower(),
                       digest.value(QStringLiteral("gitCommit")).toString()};
        if (!dep.sha256.isEmpty() && !isHex64(dep.sha256))
            return makeError(
                QStringLiteral("not a sha256 digest"), file, 0,
                QStringLiteral("payload.predicate.buildDefinition.resolvedDependencies[%1].digest.sha256")
                    .arg(i));
        s.resolvedDependencies.push_back(std::move(dep));
    }
    const QJsonObject run = predicate.value(QStringLiteral("runDetails")).toObject();
    s.builderId = run.value(QStringLiteral("builder")).toObject().value(QStringLiteral("id")).toString();
    s.invocationId =
        run.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("invocationId")).toString();
    return s;
}

CatalogMatch matchCatalog(const Statement& statement, const CatalogFiles& files,
                          const std::vector<ChecksumRow>* attestedSubjects) {
    CatalogMatch m;
    m.subject = recipeCatalogSubject(files.registry, files.validators);
    m.signedSubject = statement.subjectDigest(QStringLiteral("recipe-catalog"));
    m.registrySha256 = sha256Hex(files.registry);
    m.validatorsSha256 = sha256Hex(files.validators);
    if (m.signedSubject.isEmpty()) {
        m.problems << QStringLiteral("the statement has no 'recipe-catalog' subject");
        return m;
    }
    // Which file differs: from the predicate's resolvedDependencies (the signed per-file digests).
    bool registryNamed = false, validatorsNamed = false;
    for (const Dependency& d : statement.resolvedDependencies) {
        const QString path = fileOf(d.uri);
        const bool isRegistry = path == QLatin1String(kRegistryPath),
                   isValidators = path == QLatin1String(kValidatorsPath);
        if (!isRegistry && !isValidators)
            continue;
        (isRegistry ? registryNamed : validatorsNamed) = true;
        const QString& mine = isRegistry ? m.registrySha256 : m.validatorsSha256;
        if (d.sha256 != mine) {
            m.differing << path;
            m.problems << QStringLiteral("%1 differs: %2 has sha256:%3, the signature covers sha256:%4")
                              .arg(path, files.source, mine,
                                   d.sha256.isEmpty() ? QStringLiteral("(no digest)") : d.sha256);
        }
    }
    if (!registryNamed)
        m.problems << QStringLiteral("the predicate's resolvedDependencies do not name file://registry.yaml");
    if (!validatorsNamed)
        m.problems << QStringLiteral(
            "the predicate's resolvedDependencies do not name file://validators/catalog.yaml");
    if (m.subject != m.signedSubject) {
        if (m.differing.isEmpty() && registryNamed && validatorsNamed)
            m.problems << QStringLiteral("the recomputed subject sha256:%1 is not the signed sha256:%2, "
                                         "although both files match the "
                                         "predicate's digests (the statement is inconsistent)")
                              .arg(m.subject, m.signedSubject);
        else
            m.problems << QStringLiteral("the recomputed subject sha256:%1 is not the signed sha256:%2")
                              .arg(m.subject, m.signedSubject);
    }
    if (attestedSubjects)
        m.problems << checkAttestedSubjects(statement, *attestedSubjects,
                                            QStringLiteral("attested-subject-checksums.txt"));
    return m;
}

QStringList checkAttestedSubjects(const Statement& statement, const std::vector<ChecksumRow>& rows,
                                  const QString& file) {
    QStringList problems;
    for (const Dependency& d : statement.resolvedDependencies) {
        const QString path = fileOf(d.uri);
        // The list names files by their last component: "registry.yaml", "catalog.yaml".
        const QString base = path.section(QLatin1Char('/'), -1);
        const ChecksumRow* row = findRow(rows, base);
        if (!row || d.sha256.isEmpty())
            continue;
        if (row->sha256 != d.sha256)
            problems << QStringLiteral("%1 line %2: %3 is sha256:%4, the signed predicate says sha256:%5")
                            .arg(file)
                            .arg(row->line)
                            .arg(base, row->sha256, d.sha256);
    }
    return problems;
}

Result<TarballContents> readTarball(const QByteArray& tarGz, const QString& file) {
    // The project's one hardened tar reader (absolute paths, "..", links, devices and the size
    // limits are refused there); a release tarball then holds one `aicr` near the top.
    Result<QMap<QString, QByteArray>> members =
        evidence::extractTar(tarGz, file, evidence::ExtractLimits{kMaxTarEntries, kMaxBinary, kMaxTarball});
    if (!members)
        return members.error();
    TarballContents out;
    out.entries = int(members->size());
    for (auto it = members->cbegin(); it != members->cend(); ++it) {
        const QStringList parts = it.key().split(QLatin1Char('/'));
        const QString& base = parts.last();
        if (parts.size() > 2 ||
            (base != QLatin1String("aicr") && base != QLatin1String("aicr-attestation.sigstore.json")))
            continue;
        const QString shown = QStringLiteral("%1 (entry '%2')").arg(file, it.key());
        const bool binary = base == QLatin1String("aicr");
        if (binary ? !out.binaryPath.isEmpty() : !out.attestation.isEmpty())
            return makeError(QStringLiteral("refused: two entries named '%1'").arg(base), shown);
        if (!binary && it.value().size() > kMaxCatalogFile)
            return makeError(QStringLiteral("refused: %1 bytes, more than the %2 allowed")
                                 .arg(it.value().size())
                                 .arg(kMaxCatalogFile),
                             shown);
        if (binary) {
            out.binary = it.value();
            out.binaryPath = it.key();
        } else {
            out.attestation = it.value();
        }
    }
    if (out.binaryPath.isEmpty())
        return makeError(QStringLiteral("no 'aicr' binary in the tarball"), file);
    return out;
}

} // namespace pb::release
