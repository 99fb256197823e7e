#include "release/Verify.h"
#include "core/Plural.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "sigstore/Bundle.h"
#include "sigstore/Crypto.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>

namespace pb::release {

QString assetStatusName(AssetStatus s) {
    switch (s) {
    case AssetStatus::Verified:
        return QStringLiteral("verified");
    case AssetStatus::Listed:
        return QStringLiteral("listed, not signed");
    case AssetStatus::DigestOnly:
        return QStringLiteral("digest only");
    case AssetStatus::Failed:
        break;
    }
    return QStringLiteral("failed");
}

QJsonObject ReleaseAsset::toJson() const {
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("status"), assetStatusName(status)},
                  {QStringLiteral("reason"), reason}};
    if (!expectedSha256.isEmpty())
        o.insert(QStringLiteral("expectedSha256"), expectedSha256);
    if (!foundSha256.isEmpty())
        o.insert(QStringLiteral("foundSha256"), foundSha256);
    if (!bundle.isEmpty())
        o.insert(QStringLiteral("bundle"), bundle);
    if (signature) {
        QJsonObject s = signature->toJson();
        s.remove(QStringLiteral("statement"));
        o.insert(QStringLiteral("signature"), s);
    }
    return o;
}

namespace {

constexpr char kChecksums[] = "aicr_checksums.txt";
constexpr char kAttestedSubjects[] = "attested-subject-checksums.txt";
constexpr char kBinaryBundle[] = "aicr-attestation.sigstore.json";
constexpr char kCatalogBundle[] = "recipe-catalog.sigstore.json";
constexpr int kMaxDirEntries = 10000;

QString shortHex(const QString& hex) {
    return hex.left(12);
}

// One Sigstore bundle of the release: read, parsed, its statement decoded, verified.
struct SignedAsset {
    QString file;    // bundle file name in DIR
    QString subject; // the statement subject this bundle is expected to sign
    QByteArray bytes;
    std::optional<sigstore::Bundle> bundle;
    std::optional<Statement> statement;
    QString problem; // why it could not be verified (read, parse); empty when verified below
    std::optional<sigstore::VerificationResult> result;
    bool verified() const { return result && result->verified && problem.isEmpty(); }
    QString failure() const {
        return !problem.isEmpty() ? problem : result ? result->summary() : QStringLiteral("not verified");
    }
    QString digest() const { return statement ? statement->subjectDigest(subject) : QString(); }
};

// Reads and parses; the signature itself is checked by verifyAll (in parallel).
void load(SignedAsset& s, const QString& path) {
    auto bytes = readFileLimited(path, limits::kDocumentFile, QStringLiteral("the Sigstore bundle"));
    if (!bytes) {
        s.problem = bytes.error().toString();
        return;
    }
    s.bytes = std::move(*bytes);
    auto b = sigstore::parseBundle(s.bytes, s.file);
    if (!b) {
        s.problem = b.error().toString();
        return;
    }
    if (!b->isDsse) {
        s.problem = QStringLiteral("%1: not a DSSE attestation (a release bundle signs an in-toto statement)")
                        .arg(s.file);
        return;
    }
    auto st = parseStatement(b->payload, s.file);
    if (!st) {
        s.problem = st.error().toString();
        return;
    }
    s.bundle = std::move(*b);
    s.statement = std::move(*st);
    if (s.subject.isEmpty() && s.statement->subjects.size() == 1)
        s.subject = s.statement->subjects.front().first;
    if (s.digest().isEmpty())
        s.problem = QStringLiteral("%1: the statement has no subject named '%2'").arg(s.file, s.subject);
}

void verifyAll(std::vector<SignedAsset*>& all, const sigstore::TrustedRoot& root,
               const sigstore::Policy& policy) {
    const QThread* caller = QThread::currentThread();
    QtConcurrent::blockingMap(all, [&](SignedAsset* s) {
        if (s->bundle && s->problem.isEmpty()) {
            auto artifact = sigstore::Artifact::fromDigest(s->digest());
            if (!artifact)
                s->problem = artifact.error().toString();
            else
                s->result = sigstore::verifyBundle(*s->bundle, s->file, *artifact, root, policy);
        }
        // OpenSSL's per-thread state of a pool worker is given back now, not when Qt ends the thread.
        sigstore::crypto::releasePoolThreadState(caller);
    });
}

ReleaseAsset signedRowBase(const SignedAsset& s, const QString& name, const QString& kind) {
    ReleaseAsset a;
    a.name = name;
    a.kind = kind;
    a.bundle = s.file;
    a.expectedSha256 = s.digest();
    a.signature = s.result;
    return a;
}

// A release tarball, read and opened (the binary it holds and its own copy of the provenance).
struct Tarball {
    QString name;
    QString sha256;
    std::optional<TarballContents> contents;
    QString problem;
    SignedAsset own{QLatin1String(kBinaryBundle), QStringLiteral("aicr"), {}, {}, {}, {}, {}};
};

// The tarball's own aicr-attestation.sigstore.json, parsed (verified with the others).
void loadOwnProvenance(Tarball& t) {
    if (t.contents->attestation.isEmpty())
        return;
    t.own.file = t.name + QStringLiteral(":aicr-attestation.sigstore.json");
    t.own.bytes = t.contents->attestation;
    auto b = sigstore::parseBundle(t.own.bytes, t.own.file);
    auto st = b && b->isDsse
                  ? parseStatement(b->payload, t.own.file)
                  : Result<Statement>(makeError(QStringLiteral("not a DSSE attestation"), t.own.file));
    if (!b)
        t.own.problem = b.error().toString();
    else if (!st)
        t.own.problem = st.error().toString();
    else {
        t.own.bundle = std::move(*b);
        t.own.statement = std::move(*st);
    }
}

// The verification of one folder, step by step; each step fills its rows.
class FolderCheck {
  public:
    explicit FolderCheck(const FolderRequest& r) : m_r(r), m_dir(r.dir) {}
    FolderResult run();

  private:
    bool has(const QString& name) const { return m_r.files.contains(name); }
    // A name that is in the folder but not as a regular file (a symbolic link, FIFO, device or
    // directory): why it is refused, by name and kind; empty when it is a regular file or absent.
    QString notRegular(const QString& name) const {
        if (has(name))
            return {};
        const QString kind = describeFileType(m_dir.filePath(name));
        if (kind == QLatin1String("missing"))
            return {};
        return QStringLiteral("%1 is %2, not a regular file: refused").arg(name, kind);
    }
    bool cancelled() const { return m_r.cancel && m_r.cancel->load(); }
    void progress(int step, const QString& what) const {
        if (m_r.progress)
            m_r.progress(step, kVerifySteps, what);
    }
    void readChecksumLists();
    void loadBundles();
    bool openTarballs(); // false when cancelled
    QString releaseMismatch(const SignedAsset& s) const;
    void binaryRow();
    void sbomRows();
    void catalogRow();
    void tarballRow(const Tarball& t);
    void listedRows();
    void recordInputs();

    const FolderRequest& m_r;
    const QDir m_dir;
    FolderResult m_out;
    std::optional<std::vector<ChecksumRow>> m_checksums;
    ReleaseAsset m_listRow{QLatin1String(kChecksums),
                           QStringLiteral("checksum list"),
                           AssetStatus::Verified,
                           {},
                           {},
                           {},
                           {},
                           {}};
    QByteArray m_checksumBytes;
    std::optional<std::vector<ChecksumRow>> m_attested;
    QString m_attestedProblem;
    SignedAsset m_binary{QLatin1String(kBinaryBundle), QStringLiteral("aicr"), {}, {}, {}, {}, {}};
    SignedAsset m_catalog{
        QLatin1String(kCatalogBundle), QStringLiteral("recipe-catalog"), {}, {}, {}, {}, {}};
    std::vector<SignedAsset> m_sboms;
    std::vector<Tarball> m_tarballs;
    std::vector<SignedAsset*> m_toVerify;
    QSet<QString> m_covered; // checksum-list names given a row of their own
};

void FolderCheck::readChecksumLists() {
    if (const QString refused = notRegular(QLatin1String(kChecksums)); !refused.isEmpty()) {
        m_listRow.status = AssetStatus::Failed;
        m_listRow.reason = refused;
    } else if (!has(QLatin1String(kChecksums))) {
        m_listRow.status = AssetStatus::Failed;
        m_listRow.reason =
            QStringLiteral("not in the folder: every AICR release publishes its checksum list");
    } else if (auto bytes = readFileLimited(m_dir.filePath(QLatin1String(kChecksums)), limits::kSmallFile,
                                            QStringLiteral("the checksum list"));
               !bytes) {
        m_listRow.status = AssetStatus::Failed;
        m_listRow.reason = bytes.error().toString();
    } else {
        m_checksumBytes = *bytes;
        m_listRow.foundSha256 = sha256Hex(m_checksumBytes);
        auto rows = parseChecksums(m_checksumBytes, QLatin1String(kChecksums));
        if (!rows) {
            m_listRow.status = AssetStatus::Failed;
            m_listRow.reason = rows.error().toString();
        } else {
            m_checksums = std::move(*rows);
        }
    }
    if (has(QLatin1String(kAttestedSubjects))) {
        auto bytes = readFileLimited(m_dir.filePath(QLatin1String(kAttestedSubjects)), limits::kSmallFile,
                                     QStringLiteral("the attested subjects"));
        auto rows = bytes ? parseChecksums(*bytes, QLatin1String(kAttestedSubjects))
                          : Result<std::vector<ChecksumRow>>(bytes.error());
        if (rows)
            m_attested = std::move(*rows);
        else
            m_attestedProblem = rows.error().toString();
    }
}

void FolderCheck::loadBundles() {
    for (const QString& f : std::as_const(m_r.files))
        if (f.endsWith(QLatin1String(".sbom.json.sigstore.json")))
            m_sboms.push_back(SignedAsset{f, f.chopped(int(qstrlen(".sigstore.json"))), {}, {}, {}, {}, {}});
    for (SignedAsset* s : {&m_binary, &m_catalog}) {
        if (!has(s->file)) {
            const QString refused = notRegular(s->file);
            s->problem = refused.isEmpty() ? QStringLiteral("%1 is not in the folder").arg(s->file) : refused;
            continue;
        }
        load(*s, m_dir.filePath(s->file));
        m_toVerify.push_back(s);
    }
    for (SignedAsset& s : m_sboms) {
        load(s, m_dir.filePath(s.file));
        m_toVerify.push_back(&s);
    }
}

bool FolderCheck::openTarballs() {
    for (const QString& f : std::as_const(m_r.files)) {
        if (!f.endsWith(QLatin1String(".tar.gz")))
            continue;
        if (cancelled())
            return false;
        Tarball t;
        t.name = f;
        progress(1, QStringLiteral("opening %1").arg(f));
        auto bytes = readFileLimited(m_dir.filePath(f), kMaxTarball, QStringLiteral("the release tarball"));
        if (!bytes) {
            t.problem = bytes.error().toString();
        } else {
            t.sha256 = sha256Hex(*bytes);
            auto contents = readTarball(*bytes, f);
            if (!contents) {
                t.problem = contents.error().toString();
            } else {
                t.contents = std::move(*contents);
                loadOwnProvenance(t);
            }
        }
        m_tarballs.push_back(std::move(t));
    }
    for (Tarball& t : m_tarballs)
        if (t.own.bundle)
            m_toVerify.push_back(&t.own);
    return true;
}

// The statement must be the release's own: the binary provenance names the tag, the catalog's
// predicate the tool version.
QString FolderCheck::releaseMismatch(const SignedAsset& s) const {
    if (!s.statement)
        return {};
    if (!s.statement->ref.isEmpty() && s.statement->ref != QStringLiteral("refs/tags/") + m_r.version)
        return QStringLiteral("the provenance is for %1, not refs/tags/%2")
            .arg(s.statement->ref, m_r.version);
    if (!s.statement->toolVersion.isEmpty() && QStringLiteral("v") + s.statement->toolVersion != m_r.version)
        return QStringLiteral("the predicate's toolVersion is %1, not %2")
            .arg(s.statement->toolVersion, m_r.version.mid(1));
    return {};
}

void FolderCheck::binaryRow() {
    ReleaseAsset a = signedRowBase(m_binary, QStringLiteral("aicr"), QStringLiteral("binary"));
    if (!m_binary.verified()) {
        a.status = AssetStatus::Failed;
        a.reason = QStringLiteral("binary provenance not verified: ") + m_binary.failure();
    } else if (QString why = releaseMismatch(m_binary); !why.isEmpty()) {
        a.status = AssetStatus::Failed;
        a.reason = why;
    } else {
        QString holder;
        for (const Tarball& t : m_tarballs)
            if (t.contents && sha256Hex(t.contents->binary) == a.expectedSha256)
                holder = t.name;
        if (!holder.isEmpty()) {
            a.status = AssetStatus::Verified;
            a.foundSha256 = a.expectedSha256;
            a.reason = QStringLiteral(
                           "signature verified; the aicr binary in %1 is the provenance subject sha256:%2")
                           .arg(holder, shortHex(a.expectedSha256));
        } else {
            a.status = AssetStatus::DigestOnly;
            a.reason = QStringLiteral(
                           "signature verified over sha256:%1; no tarball in the folder holds that binary")
                           .arg(shortHex(a.expectedSha256));
        }
    }
    m_out.assets.push_back(std::move(a));
}

void FolderCheck::sbomRows() {
    for (const SignedAsset& s : m_sboms) {
        ReleaseAsset a = signedRowBase(s, s.subject, QStringLiteral("SBOM"));
        m_covered.insert(s.subject);
        const ChecksumRow* row = m_checksums ? findRow(*m_checksums, s.subject) : nullptr;
        if (!s.verified()) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("signature not verified: ") + s.failure();
        } else if (QString why = releaseMismatch(s); !why.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = why;
        } else if (row && row->sha256 != a.expectedSha256) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("%1 line %2 lists sha256:%3, the signed subject is sha256:%4")
                           .arg(QLatin1String(kChecksums))
                           .arg(row->line)
                           .arg(row->sha256, a.expectedSha256);
            m_listRow.status = AssetStatus::Failed;
            m_listRow.reason =
                QStringLiteral("line %1 (%2) does not match its signature").arg(row->line).arg(s.subject);
        } else if (const QString refused = notRegular(s.subject); !refused.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = refused;
        } else if (has(s.subject)) {
            auto bytes = readFileLimited(m_dir.filePath(s.subject), kMaxTarball, QStringLiteral("the SBOM"));
            a.foundSha256 = bytes ? sha256Hex(*bytes) : QString();
            a.status = a.foundSha256 == a.expectedSha256 ? AssetStatus::Verified : AssetStatus::Failed;
            a.reason = !bytes ? bytes.error().toString()
                       : a.status == AssetStatus::Verified
                           ? QStringLiteral("signature verified; the file matches the signed subject")
                           : QStringLiteral("the file is sha256:%1, the signed subject is sha256:%2")
                                 .arg(a.foundSha256, a.expectedSha256);
        } else {
            a.status = AssetStatus::DigestOnly;
            a.reason = QStringLiteral("signature verified over sha256:%1%2; the file is not in the folder")
                           .arg(shortHex(a.expectedSha256),
                                row ? QStringLiteral(" (its checksum-list row agrees)") : QString());
        }
        m_out.assets.push_back(std::move(a));
    }
}

void FolderCheck::catalogRow() {
    ReleaseAsset a =
        signedRowBase(m_catalog, QStringLiteral("recipe-catalog"), QStringLiteral("recipe catalog"));
    QStringList attestedProblems;
    if (m_catalog.statement && m_attested)
        attestedProblems =
            checkAttestedSubjects(*m_catalog.statement, *m_attested, QLatin1String(kAttestedSubjects));
    if (!m_attestedProblem.isEmpty())
        attestedProblems << m_attestedProblem;
    if (!m_catalog.verified()) {
        a.status = AssetStatus::Failed;
        a.reason = QStringLiteral("signature not verified: ") + m_catalog.failure();
    } else if (QString why = releaseMismatch(m_catalog); !why.isEmpty()) {
        a.status = AssetStatus::Failed;
        a.reason = why;
    } else if (!attestedProblems.isEmpty()) {
        a.status = AssetStatus::Failed;
        a.reason = attestedProblems.join(QStringLiteral("; "));
    } else if (!m_r.catalogProblem.isEmpty()) {
        a.status = AssetStatus::Failed;
        a.reason = m_r.catalogProblem;
    } else if (m_r.catalogFiles) {
        const CatalogMatch m = matchCatalog(*m_catalog.statement, *m_r.catalogFiles);
        a.foundSha256 = m.subject;
        a.status = m.matches() ? AssetStatus::Verified : AssetStatus::Failed;
        a.reason =
            m.matches()
                ? QStringLiteral(
                      "signature verified; registry.yaml and validators/catalog.yaml of %1 reproduce the "
                      "signed subject (the overlays are not covered)")
                      .arg(m_r.catalogFiles->source)
                : m.reason();
    } else {
        a.status = AssetStatus::DigestOnly;
        a.reason = QStringLiteral("signature verified over sha256:%1; no catalog given (--catalog-version "
                                  "LABEL, or registry.yaml and "
                                  "validators/catalog.yaml in the folder)")
                       .arg(shortHex(a.expectedSha256));
    }
    // A signature that verified (for this release) is worth keeping whatever catalog was compared.
    if (m_catalog.verified() && releaseMismatch(m_catalog).isEmpty() && attestedProblems.isEmpty()) {
        CatalogSignature sig;
        sig.subjectSha256 = m_catalog.digest();
        for (const Dependency& d : m_catalog.statement->resolvedDependencies) {
            if (d.uri == QLatin1String("file://registry.yaml"))
                sig.registrySha256 = d.sha256;
            else if (d.uri == QLatin1String("file://validators/catalog.yaml"))
                sig.validatorsSha256 = d.sha256;
        }
        sig.bundle = m_catalog.bytes;
        sig.verification = m_catalog.result->toJson();
        sig.trustedRootSha256 = m_catalog.result->trustedRootSha256;
        m_out.catalogSignature = std::move(sig);
    }
    m_out.assets.push_back(std::move(a));
}

void FolderCheck::tarballRow(const Tarball& t) {
    m_covered.insert(t.name);
    ReleaseAsset a{t.name, QStringLiteral("tarball"), AssetStatus::Verified, {}, {}, t.sha256, {}, {}};
    const ChecksumRow* row = m_checksums ? findRow(*m_checksums, t.name) : nullptr;
    a.expectedSha256 = row ? row->sha256 : QString();
    if (!t.sha256.isEmpty() && !row) {
        a.status = AssetStatus::Failed;
        a.reason = QStringLiteral("not listed in %1").arg(QLatin1String(kChecksums));
    } else if (!t.sha256.isEmpty() && row->sha256 != t.sha256) {
        a.status = AssetStatus::Failed;
        a.reason = QStringLiteral("the file is sha256:%1, %2 line %3 lists sha256:%4")
                       .arg(t.sha256, QLatin1String(kChecksums))
                       .arg(row->line)
                       .arg(row->sha256);
    } else if (!t.problem.isEmpty()) {
        a.status = AssetStatus::Failed;
        a.reason = t.problem;
    } else {
        const QString binarySha = sha256Hex(t.contents->binary);
        if (t.own.bundle) {
            a.bundle = t.own.file;
            a.signature = t.own.result;
            const QString subject = t.own.digest();
            if (!t.own.verified()) {
                a.status = AssetStatus::Failed;
                a.reason =
                    QStringLiteral("its aicr-attestation.sigstore.json does not verify: ") + t.own.failure();
            } else if (subject != binarySha) {
                a.status = AssetStatus::Failed;
                a.reason = QStringLiteral("its aicr binary is sha256:%1, its provenance covers sha256:%2")
                               .arg(binarySha, subject);
            } else {
                a.reason =
                    QStringLiteral("matches %1; its aicr binary (%2) matches its own verified provenance")
                        .arg(QLatin1String(kChecksums), t.contents->binaryPath);
            }
        } else if (m_binary.verified() && binarySha == m_binary.digest()) {
            a.reason = QStringLiteral("matches %1; its aicr binary (%2) is the release provenance's subject")
                           .arg(QLatin1String(kChecksums), t.contents->binaryPath);
        } else {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("its aicr binary is sha256:%1, which no verified provenance covers "
                                      "(the release's %2 covers "
                                      "sha256:%3)")
                           .arg(binarySha, QLatin1String(kBinaryBundle),
                                m_binary.digest().isEmpty() ? QStringLiteral("nothing") : m_binary.digest());
        }
    }
    m_out.assets.push_back(std::move(a));
}

// Every other asset the checksum list names, and the list's own row.
void FolderCheck::listedRows() {
    if (!m_checksums)
        return;
    for (const ChecksumRow& row : *m_checksums) {
        if (m_covered.contains(row.name))
            continue;
        ReleaseAsset a{row.name,
                       row.name.contains(QLatin1String(".sbom.")) ? QStringLiteral("SBOM")
                                                                  : QStringLiteral("asset"),
                       AssetStatus::DigestOnly,
                       {},
                       row.sha256,
                       {},
                       {},
                       {}};
        if (const QString refused = notRegular(row.name); !refused.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = refused;
        } else if (!has(row.name)) {
            a.reason = QStringLiteral("not in the folder; %1 line %2 lists sha256:%3")
                           .arg(QLatin1String(kChecksums))
                           .arg(row.line)
                           .arg(shortHex(row.sha256));
        } else if (auto bytes =
                       readFileLimited(m_dir.filePath(row.name), kMaxTarball, QStringLiteral("the asset"));
                   !bytes) {
            a.status = AssetStatus::Failed;
            a.reason = bytes.error().toString();
        } else {
            a.foundSha256 = sha256Hex(*bytes);
            a.status = a.foundSha256 == row.sha256 ? AssetStatus::Listed : AssetStatus::Failed;
            a.reason = a.status == AssetStatus::Listed
                           ? QStringLiteral("matches %1 line %2, and the list is not signed: listed, not "
                                            "verified")
                                 .arg(QLatin1String(kChecksums))
                                 .arg(row.line)
                           : QStringLiteral("the file is sha256:%1, %2 line %3 lists sha256:%4")
                                 .arg(a.foundSha256, QLatin1String(kChecksums))
                                 .arg(row.line)
                                 .arg(row.sha256);
        }
        m_out.assets.push_back(std::move(a));
    }
    if (m_listRow.status == AssetStatus::Verified) {
        int signedRows = 0;
        for (const SignedAsset& s : m_sboms)
            if (s.verified() && findRow(*m_checksums, s.subject))
                ++signedRows;
        m_listRow.reason =
            QStringLiteral(
                "%1 rows; the list is not signed itself, %2 of its rows match a verified signature")
                .arg(m_checksums->size())
                .arg(signedRows);
        // Consistent with the signatures it can be checked against, but not signed: never "verified".
        m_listRow.status = signedRows == 0 ? AssetStatus::DigestOnly : AssetStatus::Listed;
    }
}

void FolderCheck::recordInputs() {
    if (!m_checksumBytes.isEmpty())
        m_out.inputs.emplace_back(m_dir.filePath(QLatin1String(kChecksums)), m_checksumBytes);
    for (const SignedAsset* s : m_toVerify)
        if (!s->bytes.isEmpty())
            m_out.inputs.emplace_back(s->file.contains(QLatin1Char(':')) ? s->file : m_dir.filePath(s->file),
                                      s->bytes);
}

FolderResult FolderCheck::run() {
    progress(0, QStringLiteral("reading the checksum lists and bundles"));
    readChecksumLists();
    loadBundles();
    if (!openTarballs() || cancelled()) {
        m_out.cancelled = true;
        return m_out;
    }
    progress(2, QStringLiteral("verifying %1")
                    .arg(counted(qint64(m_toVerify.size()), QStringLiteral("Sigstore bundle"),
                                 QStringLiteral("Sigstore bundles"))));
    verifyAll(m_toVerify, *m_r.root, m_r.policy);
    if (cancelled()) {
        m_out.cancelled = true;
        return m_out;
    }
    progress(3, QStringLiteral("comparing assets"));
    if (!m_toVerify.empty() && m_toVerify.front()->result)
        m_out.trustedRootSha256 = m_toVerify.front()->result->trustedRootSha256;
    binaryRow();
    sbomRows();
    catalogRow();
    for (const Tarball& t : m_tarballs)
        tarballRow(t);
    listedRows();
    m_out.assets.insert(m_out.assets.begin(), std::move(m_listRow));
    recordInputs();
    m_out.cancelled = cancelled();
    return m_out;
}

} // namespace

Result<QStringList> listReleaseFolder(const QString& dir) {
    const QFileInfo fi(dir);
    if (!fi.exists())
        return makeError(QStringLiteral("no such directory"), dir);
    if (!fi.isDir())
        return makeError(QStringLiteral("not a directory (give the folder of release assets)"), dir);
    const QStringList files = QDir(dir).entryList(QDir::Files | QDir::NoSymLinks | QDir::Hidden, QDir::Name);
    if (files.size() > kMaxDirEntries)
        return makeError(QStringLiteral("more than %1 files; not a release folder").arg(kMaxDirEntries), dir);
    return files;
}

CatalogInput catalogFromFolder(const QString& dir, const QString& catalogDir) {
    CatalogInput in;
    QStringList roots;
    if (!catalogDir.isEmpty())
        roots << catalogDir;
    else
        roots << dir << QDir(dir).filePath(QStringLiteral("recipes"));
    for (const QString& root : roots) {
        const QString reg = QDir(root).filePath(QLatin1String(kRegistryPath));
        const QString val = QDir(root).filePath(QLatin1String(kValidatorsPath));
        if (!QFileInfo::exists(reg) && !QFileInfo::exists(val))
            continue;
        auto a = readFileLimited(reg, kMaxCatalogFile, QStringLiteral("the component registry"));
        auto b = readFileLimited(val, kMaxCatalogFile, QStringLiteral("the validator catalog"));
        if (!a || !b) {
            in.problem = (!a ? a.error() : b.error()).toString();
            return in;
        }
        in.files = CatalogFiles{std::move(*a), std::move(*b), QDir::cleanPath(root)};
        return in;
    }
    if (!catalogDir.isEmpty())
        in.problem = QStringLiteral("%1: no registry.yaml or validators/catalog.yaml").arg(catalogDir);
    return in;
}

FolderResult verifyFolder(const FolderRequest& request) {
    return FolderCheck(request).run();
}

} // namespace pb::release
