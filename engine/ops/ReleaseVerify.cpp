#include "ops/ReleaseVerify.h"
#include "sigstore/Crypto.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "ops/TrustedRoots.h"
#include "sigstore/Bundle.h"
#include "store/CatalogStore.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>

namespace pb::ops {

QString assetStatusName(AssetStatus s) {
    switch (s) {
    case AssetStatus::Verified:
        return QStringLiteral("verified");
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

int ReleaseVerifyOutcome::count(AssetStatus s) const {
    return int(std::count_if(assets.begin(), assets.end(), [s](const ReleaseAsset& a) { return a.status == s; }));
}

QString ReleaseVerifyOutcome::summary() const {
    return QStringLiteral("AICR %1: %2 verified, %3 digest only, %4 failed")
        .arg(version)
        .arg(count(AssetStatus::Verified))
        .arg(count(AssetStatus::DigestOnly))
        .arg(count(AssetStatus::Failed));
}

QJsonObject ReleaseVerifyOutcome::toJson() const {
    QJsonArray rows;
    for (const ReleaseAsset& a : assets)
        rows.append(a.toJson());
    QJsonObject o{{QStringLiteral("version"), version},
                  {QStringLiteral("dir"), dir},
                  {QStringLiteral("policy"), policy.toJson()},
                  {QStringLiteral("trustedRootSha256"), trustedRootSha256},
                  {QStringLiteral("assets"), rows},
                  {QStringLiteral("verified"), count(AssetStatus::Verified)},
                  {QStringLiteral("digestOnly"), count(AssetStatus::DigestOnly)},
                  {QStringLiteral("failed"), count(AssetStatus::Failed)},
                  {QStringLiteral("ok"), ok()},
                  {QStringLiteral("boundCatalogVersions"), QJsonArray::fromStringList(boundVersions)},
                  {QStringLiteral("catalogScope"), store::releaseScopeNote()}};
    if (!catalogSource.isEmpty())
        o.insert(QStringLiteral("catalogSource"), catalogSource);
    if (receiptSeq)
        o.insert(QStringLiteral("receipt"), receiptSeq);
    return o;
}

QString ReleaseVerifyOutcome::toText() const {
    QString text = QStringLiteral("AICR release %1 in %2\nsigner: %3\nissuer: %4\n\n")
                       .arg(version, dir, policy.identity.isEmpty() ? policy.identityRegexp + QStringLiteral(" (regexp)") : policy.identity,
                            policy.issuer.isEmpty() ? policy.issuerRegexp + QStringLiteral(" (regexp)") : policy.issuer);
    int width = 0;
    for (const ReleaseAsset& a : assets)
        width = std::max(width, int(a.name.size()));
    width = std::min(width, 48);
    for (const ReleaseAsset& a : assets)
        text += QStringLiteral("%1  %2  %3\n").arg(assetStatusName(a.status), -11).arg(a.name, -width).arg(a.reason);
    text += QLatin1Char('\n');
    if (!boundVersions.isEmpty())
        text += QStringLiteral("catalog versions bound (registry and validator catalog signed by AICR %1): %2\n")
                    .arg(version, boundVersions.join(QStringLiteral(", ")));
    text += store::releaseScopeNote() + QLatin1Char('\n');
    text += summary() + QLatin1Char('\n');
    return text;
}

sigstore::Policy releasePolicy(const ReleaseVerifyRequest& r, const QString& version) {
    sigstore::Policy p;
    p.identity = r.identity;
    p.identityRegexp = r.identityRegexp;
    if (p.identity.isEmpty() && p.identityRegexp.isEmpty())
        p.identity = release::tagIdentity(version);
    p.issuer = r.issuer;
    p.issuerRegexp = r.issuerRegexp;
    if (p.issuer.isEmpty() && p.issuerRegexp.isEmpty())
        p.issuer = QLatin1String(release::kIssuer);
    return p;
}

namespace {

constexpr char kChecksums[] = "aicr_checksums.txt";
constexpr char kAttestedSubjects[] = "attested-subject-checksums.txt";
constexpr char kBinaryBundle[] = "aicr-attestation.sigstore.json";
constexpr char kCatalogBundle[] = "recipe-catalog.sigstore.json";
constexpr int kMaxDirEntries = 10000;

QString shortHex(const QString& hex) { return hex.left(12); }

// One Sigstore bundle of the release: read, parsed, its statement decoded, verified.
struct SignedAsset {
    QString file;      // bundle file name in DIR
    QString subject;   // the statement subject this bundle is expected to sign
    QByteArray bytes;
    std::optional<sigstore::Bundle> bundle;
    std::optional<release::Statement> statement;
    QString problem;   // why it could not be verified (read, parse); empty when verified below
    std::optional<sigstore::VerificationResult> result;
    bool verified() const { return result && result->verified && problem.isEmpty(); }
    QString failure() const { return !problem.isEmpty() ? problem : result ? result->summary() : QStringLiteral("not verified"); }
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
        s.problem = QStringLiteral("%1: not a DSSE attestation (a release bundle signs an in-toto statement)").arg(s.file);
        return;
    }
    auto st = release::parseStatement(b->payload, s.file);
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

void verifyAll(std::vector<SignedAsset*>& all, const sigstore::TrustedRoot& root, const sigstore::Policy& policy) {
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

struct Listing {
    QStringList files; // regular files directly in DIR
    bool has(const QString& name) const { return files.contains(name); }
};

Result<Listing> listDir(const QString& dir) {
    const QFileInfo fi(dir);
    if (!fi.exists())
        return makeError(QStringLiteral("no such directory"), dir);
    if (!fi.isDir())
        return makeError(QStringLiteral("not a directory (give the folder of release assets)"), dir);
    Listing l;
    l.files = QDir(dir).entryList(QDir::Files | QDir::NoSymLinks | QDir::Hidden, QDir::Name);
    if (l.files.size() > kMaxDirEntries)
        return makeError(QStringLiteral("more than %1 files; not a release folder").arg(kMaxDirEntries), dir);
    return l;
}

struct CatalogInput {
    std::optional<release::CatalogFiles> files;
    QString problem; // a source named but unreadable
};

CatalogInput catalogFrom(const Context& ctx, const ReleaseVerifyRequest& r, const QString& dir) {
    CatalogInput in;
    if (!r.catalogVersion.isEmpty())
        return in; // read by the caller (an unknown label is an error, not a verdict)
    QStringList roots;
    if (!r.catalogDir.isEmpty())
        roots << r.catalogDir;
    else
        roots << dir << QDir(dir).filePath(QStringLiteral("recipes"));
    for (const QString& root : roots) {
        const QString reg = QDir(root).filePath(QLatin1String(release::kRegistryPath));
        const QString val = QDir(root).filePath(QLatin1String(release::kValidatorsPath));
        if (!QFileInfo::exists(reg) && !QFileInfo::exists(val))
            continue;
        auto a = readFileLimited(reg, release::kMaxCatalogFile, QStringLiteral("the component registry"));
        auto b = readFileLimited(val, release::kMaxCatalogFile, QStringLiteral("the validator catalog"));
        if (!a || !b) {
            in.problem = (!a ? a.error() : b.error()).toString();
            return in;
        }
        in.files = release::CatalogFiles{std::move(*a), std::move(*b), QDir::cleanPath(root)};
        return in;
    }
    if (!r.catalogDir.isEmpty())
        in.problem = QStringLiteral("%1: no registry.yaml or validators/catalog.yaml").arg(r.catalogDir);
    (void)ctx;
    return in;
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

} // namespace

Result<ReleaseVerifyOutcome> verifyRelease(const Context& ctx, const ReleaseVerifyRequest& request) {
    auto version = release::normalizeVersion(request.version);
    if (!version)
        return version.error();
    auto listing = listDir(request.dir);
    if (!listing)
        return listing.error();
    const QDir dir(request.dir);
    ReleaseVerifyOutcome out;
    out.version = *version;
    out.dir = request.dir;
    out.policy = releasePolicy(request, *version);

    auto root = resolveTrustedRoot(ctx, request.trustedRootPath, request.trustedRootId);
    if (!root)
        return root.error();
    if (!*root)
        return makeError(QStringLiteral("no trusted root: give one (--trusted-root FILE, Sigstore's trusted_root.json) or import one as the "
                                        "default (proofbench verify --import-trusted-root FILE)"),
                         ctx.db().path());
    const sigstore::TrustedRoot& trust = **root;

    std::optional<release::CatalogFiles> catalogFiles;
    QString catalogProblem;
    if (!request.catalogVersion.isEmpty()) {
        store::CatalogStore catalogs(ctx.db());
        auto v = catalogs.version(request.catalogVersion);
        if (!v)
            return v.error();
        auto files = catalogs.catalogFiles(v->id);
        if (!files)
            catalogProblem = files.error().message;
        else
            catalogFiles = std::move(*files);
    } else {
        CatalogInput in = catalogFrom(ctx, request, request.dir);
        catalogFiles = std::move(in.files);
        catalogProblem = in.problem;
    }
    if (catalogFiles)
        out.catalogSource = catalogFiles->source;

    const int steps = 5;
    ctx.progress(0, steps, QStringLiteral("reading the checksum lists and bundles"));
    // ---- checksum lists ----------------------------------------------------------------------------
    std::optional<std::vector<release::ChecksumRow>> checksums;
    ReleaseAsset listRow{QLatin1String(kChecksums), QStringLiteral("checksum list"), AssetStatus::Verified, {}, {}, {}, {}, {}};
    QByteArray checksumBytes;
    if (!listing->has(QLatin1String(kChecksums))) {
        listRow.status = AssetStatus::Failed;
        listRow.reason = QStringLiteral("not in the folder: every AICR release publishes its checksum list");
    } else if (auto bytes = readFileLimited(dir.filePath(QLatin1String(kChecksums)), limits::kSmallFile, QStringLiteral("the checksum list"));
               !bytes) {
        listRow.status = AssetStatus::Failed;
        listRow.reason = bytes.error().toString();
    } else {
        checksumBytes = *bytes;
        listRow.foundSha256 = sha256Hex(checksumBytes);
        auto rows = release::parseChecksums(checksumBytes, QLatin1String(kChecksums));
        if (!rows) {
            listRow.status = AssetStatus::Failed;
            listRow.reason = rows.error().toString();
        } else {
            checksums = std::move(*rows);
        }
    }
    std::optional<std::vector<release::ChecksumRow>> attested;
    QString attestedProblem;
    if (listing->has(QLatin1String(kAttestedSubjects))) {
        auto bytes = readFileLimited(dir.filePath(QLatin1String(kAttestedSubjects)), limits::kSmallFile, QStringLiteral("the attested subjects"));
        auto rows = bytes ? release::parseChecksums(*bytes, QLatin1String(kAttestedSubjects)) : Result<std::vector<release::ChecksumRow>>(bytes.error());
        if (rows)
            attested = std::move(*rows);
        else
            attestedProblem = rows.error().toString();
    }

    // ---- bundles -------------------------------------------------------------------------------
    SignedAsset binary{QLatin1String(kBinaryBundle), QStringLiteral("aicr"), {}, {}, {}, {}, {}};
    SignedAsset catalog{QLatin1String(kCatalogBundle), QStringLiteral("recipe-catalog"), {}, {}, {}, {}, {}};
    std::vector<SignedAsset> sboms;
    for (const QString& f : std::as_const(listing->files))
        if (f.endsWith(QLatin1String(".sbom.json.sigstore.json")))
            sboms.push_back(SignedAsset{f, f.chopped(int(qstrlen(".sigstore.json"))), {}, {}, {}, {}, {}});
    std::vector<SignedAsset*> toVerify;
    for (SignedAsset* s : {&binary, &catalog}) {
        if (!listing->has(s->file)) {
            s->problem = QStringLiteral("%1 is not in the folder").arg(s->file);
            continue;
        }
        load(*s, dir.filePath(s->file));
        toVerify.push_back(s);
    }
    for (SignedAsset& s : sboms) {
        load(s, dir.filePath(s.file));
        toVerify.push_back(&s);
    }

    // ---- tarballs: read and opened (the binaries they hold) ------------------------------------
    struct Tarball {
        QString name;
        QString sha256;
        std::optional<release::TarballContents> contents;
        QString problem;
        SignedAsset own{QLatin1String(kBinaryBundle), QStringLiteral("aicr"), {}, {}, {}, {}, {}};
    };
    std::vector<Tarball> tarballs;
    for (const QString& f : std::as_const(listing->files)) {
        if (!f.endsWith(QLatin1String(".tar.gz")))
            continue;
        if (ctx.cancelled()) {
            out.cancelled = true;
            return out;
        }
        Tarball t;
        t.name = f;
        ctx.progress(1, steps, QStringLiteral("opening %1").arg(f));
        auto bytes = readFileLimited(dir.filePath(f), release::kMaxTarball, QStringLiteral("the release tarball"));
        if (!bytes) {
            t.problem = bytes.error().toString();
        } else {
            t.sha256 = sha256Hex(*bytes);
            auto contents = release::readTarball(*bytes, f);
            if (!contents) {
                t.problem = contents.error().toString();
            } else {
                t.contents = std::move(*contents);
                if (!t.contents->attestation.isEmpty()) {
                    t.own.file = f + QStringLiteral(":aicr-attestation.sigstore.json");
                    t.own.bytes = t.contents->attestation;
                    auto b = sigstore::parseBundle(t.own.bytes, t.own.file);
                    auto st = b && b->isDsse ? release::parseStatement(b->payload, t.own.file)
                                             : Result<release::Statement>(makeError(QStringLiteral("not a DSSE attestation"), t.own.file));
                    if (!b)
                        t.own.problem = b.error().toString();
                    else if (!st)
                        t.own.problem = st.error().toString();
                    else {
                        t.own.bundle = std::move(*b);
                        t.own.statement = std::move(*st);
                    }
                }
            }
        }
        tarballs.push_back(std::move(t));
    }
    for (Tarball& t : tarballs)
        if (t.own.bundle)
            toVerify.push_back(&t.own);

    if (ctx.cancelled()) {
        out.cancelled = true;
        return out;
    }
    ctx.progress(2, steps, QStringLiteral("verifying %1 Sigstore bundle(s)").arg(toVerify.size()));
    verifyAll(toVerify, trust, out.policy);
    if (ctx.cancelled()) {
        out.cancelled = true;
        return out;
    }
    ctx.progress(3, steps, QStringLiteral("comparing assets"));
    if (!toVerify.empty() && toVerify.front()->result)
        out.trustedRootSha256 = toVerify.front()->result->trustedRootSha256;

    // The statement must be the release's own: the binary provenance names the tag, the catalog's
    // predicate the tool version.
    auto releaseMismatch = [&](const SignedAsset& s) -> QString {
        if (!s.statement)
            return {};
        if (!s.statement->ref.isEmpty() && s.statement->ref != QStringLiteral("refs/tags/") + *version)
            return QStringLiteral("the provenance is for %1, not refs/tags/%2").arg(s.statement->ref, *version);
        if (!s.statement->toolVersion.isEmpty() && QStringLiteral("v") + s.statement->toolVersion != *version)
            return QStringLiteral("the predicate's toolVersion is %1, not %2").arg(s.statement->toolVersion, version->mid(1));
        return {};
    };

    // ---- rows: the binary ----------------------------------------------------------------------
    QSet<QString> covered; // checksum-list names given a row of their own
    {
        ReleaseAsset a = signedRowBase(binary, QStringLiteral("aicr"), QStringLiteral("binary"));
        if (!binary.verified()) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("binary provenance not verified: ") + binary.failure();
        } else if (QString why = releaseMismatch(binary); !why.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = why;
        } else {
            QString holder;
            for (const Tarball& t : tarballs)
                if (t.contents && sha256Hex(t.contents->binary) == a.expectedSha256)
                    holder = t.name;
            if (!holder.isEmpty()) {
                a.status = AssetStatus::Verified;
                a.foundSha256 = a.expectedSha256;
                a.reason = QStringLiteral("signature verified; the aicr binary in %1 is the provenance subject sha256:%2")
                               .arg(holder, shortHex(a.expectedSha256));
            } else {
                a.status = AssetStatus::DigestOnly;
                a.reason = QStringLiteral("signature verified over sha256:%1; no tarball in the folder holds that binary")
                               .arg(shortHex(a.expectedSha256));
            }
        }
        out.assets.push_back(std::move(a));
    }
    // ---- rows: SBOM signatures -----------------------------------------------------------------
    for (const SignedAsset& s : sboms) {
        ReleaseAsset a = signedRowBase(s, s.subject, QStringLiteral("SBOM"));
        covered.insert(s.subject);
        const release::ChecksumRow* row = checksums ? release::findRow(*checksums, s.subject) : nullptr;
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
            listRow.status = AssetStatus::Failed;
            listRow.reason = QStringLiteral("line %1 (%2) does not match its signature").arg(row->line).arg(s.subject);
        } else if (listing->has(s.subject)) {
            auto bytes = readFileLimited(dir.filePath(s.subject), release::kMaxTarball, QStringLiteral("the SBOM"));
            a.foundSha256 = bytes ? sha256Hex(*bytes) : QString();
            a.status = a.foundSha256 == a.expectedSha256 ? AssetStatus::Verified : AssetStatus::Failed;
            a.reason = !bytes ? bytes.error().toString()
                       : a.status == AssetStatus::Verified
                           ? QStringLiteral("signature verified; the file matches the signed subject")
                           : QStringLiteral("the file is sha256:%1, the signed subject is sha256:%2").arg(a.foundSha256, a.expectedSha256);
        } else {
            a.status = AssetStatus::DigestOnly;
            a.reason = QStringLiteral("signature verified over sha256:%1%2; the file is not in the folder")
                           .arg(shortHex(a.expectedSha256), row ? QStringLiteral(" (its checksum-list row agrees)") : QString());
        }
        out.assets.push_back(std::move(a));
    }
    // ---- rows: the recipe catalog --------------------------------------------------------------
    std::optional<store::ReleaseSignature> keep;
    {
        ReleaseAsset a = signedRowBase(catalog, QStringLiteral("recipe-catalog"), QStringLiteral("recipe catalog"));
        QStringList attestedProblems;
        if (catalog.statement && attested)
            attestedProblems = release::checkAttestedSubjects(*catalog.statement, *attested, QLatin1String(kAttestedSubjects));
        if (!attestedProblem.isEmpty())
            attestedProblems << attestedProblem;
        if (!catalog.verified()) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("signature not verified: ") + catalog.failure();
        } else if (QString why = releaseMismatch(catalog); !why.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = why;
        } else if (!attestedProblems.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = attestedProblems.join(QStringLiteral("; "));
        } else if (!catalogProblem.isEmpty()) {
            a.status = AssetStatus::Failed;
            a.reason = catalogProblem;
        } else if (catalogFiles) {
            const release::CatalogMatch m = release::matchCatalog(*catalog.statement, *catalogFiles);
            a.foundSha256 = m.subject;
            a.status = m.matches() ? AssetStatus::Verified : AssetStatus::Failed;
            a.reason = m.matches() ? QStringLiteral("signature verified; registry.yaml and validators/catalog.yaml of %1 reproduce the "
                                                    "signed subject (the overlays are not covered)")
                                         .arg(catalogFiles->source)
                                   : m.reason();
        } else {
            a.status = AssetStatus::DigestOnly;
            a.reason = QStringLiteral("signature verified over sha256:%1; no catalog given (--catalog-version LABEL, or registry.yaml and "
                                      "validators/catalog.yaml in the folder)")
                           .arg(shortHex(a.expectedSha256));
        }
        // A signature that verified (for this release) is kept whatever catalog was compared.
        if (request.keepSignature && catalog.verified() && releaseMismatch(catalog).isEmpty() && attestedProblems.isEmpty()) {
            store::ReleaseSignature sig;
            sig.releaseVersion = *version;
            sig.subjectSha256 = catalog.digest();
            for (const release::Dependency& d : catalog.statement->resolvedDependencies) {
                if (d.uri == QLatin1String("file://registry.yaml"))
                    sig.registrySha256 = d.sha256;
                else if (d.uri == QLatin1String("file://validators/catalog.yaml"))
                    sig.validatorsSha256 = d.sha256;
            }
            sig.bundle = catalog.bytes;
            sig.verification = catalog.result->toJson();
            sig.policy = out.policy.toJson();
            sig.trustedRootSha256 = catalog.result->trustedRootSha256;
            sig.verifiedAt = QDateTime::currentDateTimeUtc();
            keep = std::move(sig);
        }
        out.assets.push_back(std::move(a));
    }
    // ---- rows: tarballs and every other listed asset -------------------------------------------
    for (const Tarball& t : tarballs) {
        covered.insert(t.name);
        ReleaseAsset a{t.name, QStringLiteral("tarball"), AssetStatus::Verified, {}, {}, t.sha256, {}, {}};
        const release::ChecksumRow* row = checksums ? release::findRow(*checksums, t.name) : nullptr;
        a.expectedSha256 = row ? row->sha256 : QString();
        if (!t.sha256.isEmpty() && !row) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("not listed in %1").arg(QLatin1String(kChecksums));
        } else if (!t.sha256.isEmpty() && row->sha256 != t.sha256) {
            a.status = AssetStatus::Failed;
            a.reason = QStringLiteral("the file is sha256:%1, %2 line %3 lists sha256:%4").arg(t.sha256, QLatin1String(kChecksums)).arg(row->line).arg(row->sha256);
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
                    a.reason = QStringLiteral("its aicr-attestation.sigstore.json does not verify: ") + t.own.failure();
                } else if (subject != binarySha) {
                    a.status = AssetStatus::Failed;
                    a.reason = QStringLiteral("its aicr binary is sha256:%1, its provenance covers sha256:%2").arg(binarySha, subject);
                } else {
                    a.reason = QStringLiteral("matches %1; its aicr binary (%2) matches its own verified provenance").arg(QLatin1String(kChecksums), t.contents->binaryPath);
                }
            } else if (binary.verified() && binarySha == binary.digest()) {
                a.reason = QStringLiteral("matches %1; its aicr binary (%2) is the release provenance's subject").arg(QLatin1String(kChecksums), t.contents->binaryPath);
            } else {
                a.status = AssetStatus::Failed;
                a.reason = QStringLiteral("its aicr binary is sha256:%1, which no verified provenance covers (the release's %2 covers "
                                          "sha256:%3)")
                               .arg(binarySha, QLatin1String(kBinaryBundle), binary.digest().isEmpty() ? QStringLiteral("nothing") : binary.digest());
            }
        }
        out.assets.push_back(std::move(a));
    }
    if (checksums) {
        for (const release::ChecksumRow& row : *checksums) {
            if (covered.contains(row.name))
                continue;
            ReleaseAsset a{row.name, row.name.contains(QLatin1String(".sbom.")) ? QStringLiteral("SBOM") : QStringLiteral("asset"),
                           AssetStatus::DigestOnly, {}, row.sha256, {}, {}, {}};
            if (!listing->has(row.name)) {
                a.reason = QStringLiteral("not in the folder; %1 line %2 lists sha256:%3").arg(QLatin1String(kChecksums)).arg(row.line).arg(shortHex(row.sha256));
            } else if (auto bytes = readFileLimited(dir.filePath(row.name), release::kMaxTarball, QStringLiteral("the asset")); !bytes) {
                a.status = AssetStatus::Failed;
                a.reason = bytes.error().toString();
            } else {
                a.foundSha256 = sha256Hex(*bytes);
                a.status = a.foundSha256 == row.sha256 ? AssetStatus::Verified : AssetStatus::Failed;
                a.reason = a.status == AssetStatus::Verified
                               ? QStringLiteral("matches %1 line %2 (the list itself is not signed)").arg(QLatin1String(kChecksums)).arg(row.line)
                               : QStringLiteral("the file is sha256:%1, %2 line %3 lists sha256:%4").arg(a.foundSha256, QLatin1String(kChecksums)).arg(row.line).arg(row.sha256);
            }
            out.assets.push_back(std::move(a));
        }
        if (listRow.status == AssetStatus::Verified) {
            int signedRows = 0;
            for (const SignedAsset& s : sboms)
                if (s.verified() && release::findRow(*checksums, s.subject))
                    ++signedRows;
            listRow.reason = QStringLiteral("%1 rows; the list is not signed itself, %2 of its rows match a verified signature")
                                 .arg(checksums->size())
                                 .arg(signedRows);
            if (signedRows == 0)
                listRow.status = AssetStatus::DigestOnly;
        }
    }
    out.assets.insert(out.assets.begin(), std::move(listRow));

    if (ctx.cancelled()) {
        out.cancelled = true;
        return out;
    }
    // ---- record: the kept signature, the bindings and the receipt, in one transaction ------------
    ctx.progress(4, steps, QStringLiteral("recording"));
    receipts::ReceiptDraft d;
    d.kind = kReleaseVerifyKind;
    d.parameters = QJsonObject{{QStringLiteral("version"), *version},
                               {QStringLiteral("policy"), out.policy.toJson()},
                               {QStringLiteral("trustedRootSha256"), out.trustedRootSha256},
                               {QStringLiteral("verified"), out.count(AssetStatus::Verified)},
                               {QStringLiteral("digestOnly"), out.count(AssetStatus::DigestOnly)},
                               {QStringLiteral("failed"), out.count(AssetStatus::Failed)}};
    if (!request.catalogVersion.isEmpty())
        d.parameters.insert(QStringLiteral("catalogVersion"), request.catalogVersion);
    if (!checksumBytes.isEmpty())
        d.inputs.push_back(receipts::Artifact::bytes(dir.filePath(QLatin1String(kChecksums)), checksumBytes));
    for (const SignedAsset* s : toVerify)
        if (!s->bytes.isEmpty())
            d.inputs.push_back(receipts::Artifact::bytes(s->file.contains(QLatin1Char(':')) ? s->file : dir.filePath(s->file), s->bytes));
    d.result = outcomeOf(out.ok());
    d.message = out.summary();
    auto done = transact<ReleaseVerifyOutcome>(ctx, [&]() -> Result<std::pair<ReleaseVerifyOutcome, receipts::ReceiptDraft>> {
        if (keep) {
            store::CatalogStore catalogs(ctx.db());
            auto id = catalogs.recordReleaseSignature(*keep);
            if (!id)
                return id.error();
            out.signatureId = *id;
            auto bound = catalogs.bindVersionsTo(*id);
            if (!bound)
                return bound.error();
            out.boundVersions = *bound;
            d.outputs.push_back(receipts::Artifact::digest(QStringLiteral("release signature #%1 (recipe-catalog %2)").arg(*id).arg(*version),
                                                           keep->subjectSha256));
            for (const QString& label : std::as_const(out.boundVersions))
                d.outputs.push_back(receipts::Artifact{QStringLiteral("catalog version %1 bound to AICR %2").arg(label, *version), QString(), -1});
            d.parameters.insert(QStringLiteral("boundVersions"), QJsonArray::fromStringList(out.boundVersions));
        }
        return std::pair{out, d};
    });
    if (!done)
        return done.error();
    // The receipt's sequence number: the ledger's newest.
    if (auto head = ctx.ledger().head(); head)
        done->receiptSeq = head->seq;
    ctx.progress(steps, steps, QStringLiteral("done"));
    return done;
}

QString releaseScopeNote() { return store::releaseScopeNote(); }

} // namespace pb::ops
