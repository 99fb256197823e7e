#include "ops/ReleaseVerify.h"

#include "ops/TrustedRoots.h"
#include "store/CatalogStore.h"

#include <QJsonArray>

namespace pb::ops {

int ReleaseVerifyOutcome::count(AssetStatus s) const {
    return int(
        std::count_if(assets.begin(), assets.end(), [s](const ReleaseAsset& a) { return a.status == s; }));
}

QString ReleaseVerifyOutcome::summary() const {
    return QStringLiteral("AICR %1: %2 verified, %3 listed (not signed), %4 digest only, %5 failed")
        .arg(version)
        .arg(count(AssetStatus::Verified))
        .arg(count(AssetStatus::Listed))
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
                  {QStringLiteral("listedNotSigned"), count(AssetStatus::Listed)},
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
    QString text =
        QStringLiteral("AICR release %1 in %2\nsigner: %3\nissuer: %4\n\n")
            .arg(version, dir,
                 policy.identity.isEmpty() ? policy.identityRegexp + QStringLiteral(" (regexp)")
                                           : policy.identity,
                 policy.issuer.isEmpty() ? policy.issuerRegexp + QStringLiteral(" (regexp)") : policy.issuer);
    int width = 0;
    for (const ReleaseAsset& a : assets)
        width = std::max(width, int(a.name.size()));
    width = std::min(width, 48);
    for (const ReleaseAsset& a : assets)
        text += QStringLiteral("%1  %2  %3\n")
                    .arg(assetStatusName(a.status), -11)
                    .arg(a.name, -width)
                    .arg(a.reason);
    text += QLatin1Char('\n');
    if (!boundVersions.isEmpty())
        text +=
            QStringLiteral("catalog versions bound (registry and validator catalog signed by AICR %1): %2\n")
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

// The catalog the recipe-catalog signature is compared with: an imported version, a folder, or the
// release folder's own files. An unknown version label is an error, not a verdict.
Result<release::CatalogInput> catalogFor(const Context& ctx, const ReleaseVerifyRequest& request) {
    if (request.catalogVersion.isEmpty())
        return release::catalogFromFolder(request.dir, request.catalogDir);
    store::CatalogStore catalogs(ctx.db());
    auto v = catalogs.version(request.catalogVersion);
    if (!v)
        return v.error();
    release::CatalogInput in;
    auto files = catalogs.catalogFiles(v->id);
    if (!files)
        in.problem = files.error().message;
    else
        in.files = std::move(*files);
    return in;
}

// The verified recipe-catalog signature as the store keeps it.
store::ReleaseSignature toStored(const release::CatalogSignature& c, const QString& version,
                                 const sigstore::Policy& policy) {
    store::ReleaseSignature sig;
    sig.releaseVersion = version;
    sig.subjectSha256 = c.subjectSha256;
    sig.registrySha256 = c.registrySha256;
    sig.validatorsSha256 = c.validatorsSha256;
    sig.bundle = c.bundle;
    sig.verification = c.verification;
    sig.policy = policy.toJson();
    sig.trustedRootSha256 = c.trustedRootSha256;
    sig.verifiedAt = QDateTime::currentDateTimeUtc();
    return sig;
}

receipts::ReceiptDraft draftFor(const ReleaseVerifyRequest& request, const ReleaseVerifyOutcome& out,
                                const std::vector<std::pair<QString, QByteArray>>& inputs) {
    receipts::ReceiptDraft d;
    d.kind = kReleaseVerifyKind;
    d.parameters = QJsonObject{{QStringLiteral("version"), out.version},
                               {QStringLiteral("policy"), out.policy.toJson()},
                               {QStringLiteral("trustedRootSha256"), out.trustedRootSha256},
                               {QStringLiteral("verified"), out.count(AssetStatus::Verified)},
                               {QStringLiteral("listedNotSigned"), out.count(AssetStatus::Listed)},
                               {QStringLiteral("digestOnly"), out.count(AssetStatus::DigestOnly)},
                               {QStringLiteral("failed"), out.count(AssetStatus::Failed)}};
    if (!request.catalogVersion.isEmpty())
        d.parameters.insert(QStringLiteral("catalogVersion"), request.catalogVersion);
    for (const auto& [name, bytes] : inputs)
        d.inputs.push_back(receipts::Artifact::bytes(name, bytes));
    d.result = outcomeOf(out.ok());
    d.message = out.summary();
    return d;
}

// Keeps the signature and binds the catalog versions it reproduces (inside the receipt's transaction).
Status keepSignature(const Context& ctx, const store::ReleaseSignature& keep, ReleaseVerifyOutcome& out,
                     receipts::ReceiptDraft& d) {
    store::CatalogStore catalogs(ctx.db());
    auto id = catalogs.recordReleaseSignature(keep);
    if (!id)
        return id.error();
    out.signatureId = *id;
    auto bound = catalogs.bindVersionsTo(*id);
    if (!bound)
        return bound.error();
    out.boundVersions = *bound;
    d.outputs.push_back(receipts::Artifact::digest(
        QStringLiteral("release signature #%1 (recipe-catalog %2)").arg(*id).arg(out.version),
        keep.subjectSha256));
    for (const QString& label : std::as_const(out.boundVersions))
        d.outputs.push_back(receipts::Artifact{
            QStringLiteral("catalog version %1 bound to AICR %2").arg(label, out.version), QString(), -1});
    d.parameters.insert(QStringLiteral("boundVersions"), QJsonArray::fromStringList(out.boundVersions));
    return {};
}

} // namespace

Result<ReleaseVerifyOutcome> verifyRelease(const Context& ctx, const ReleaseVerifyRequest& request) {
    if (request.keepSignature)
        if (Status s = require(ctx, db::Capability::KeepReleaseSignature); !s)
            return s.error();
    auto version = release::normalizeVersion(request.version);
    if (!version)
        return version.error();
    auto files = release::listReleaseFolder(request.dir);
    if (!files)
        return files.error();
    ReleaseVerifyOutcome out;
    out.version = *version;
    out.dir = request.dir;
    out.policy = releasePolicy(request, *version);
    auto root = resolveTrustedRoot(ctx, request.trustedRootPath, request.trustedRootId);
    if (!root)
        return root.error();
    if (!*root)
        return makeError(QStringLiteral("no trusted root: give one (--trusted-root FILE, Sigstore's "
                                        "trusted_root.json) or import one as the "
                                        "default (proofbench verify --import-trusted-root FILE)"),
                         ctx.db().path());
    Result<release::CatalogInput> catalog = catalogFor(ctx, request);
    if (!catalog)
        return catalog.error();
    if (catalog->files)
        out.catalogSource = catalog->files->source;

    release::FolderRequest freq{request.dir,
                                *files,
                                *version,
                                out.policy,
                                &**root,
                                std::move(catalog->files),
                                catalog->problem,
                                [&ctx](int step, int steps, const QString& what) { ctx.progress(step, steps, what); },
                                ctx.cancelFlag()};
    release::FolderResult checked = release::verifyFolder(freq);
    out.assets = std::move(checked.assets);
    out.trustedRootSha256 = checked.trustedRootSha256;
    if (checked.cancelled) {
        out.cancelled = true;
        return out;
    }
    // ---- record: the kept signature, the bindings and the receipt, in one transaction ------------
    ctx.progress(4, release::kVerifySteps, QStringLiteral("recording"));
    std::optional<store::ReleaseSignature> keep;
    if (request.keepSignature && checked.catalogSignature)
        keep = toStored(*checked.catalogSignature, *version, out.policy);
    receipts::ReceiptDraft d = draftFor(request, out, checked.inputs);
    auto done = transact<ReleaseVerifyOutcome>(
        ctx, [&]() -> Result<std::pair<ReleaseVerifyOutcome, receipts::ReceiptDraft>> {
            if (keep) {
                if (Status s = keepSignature(ctx, *keep, out, d); !s)
                    return s.error();
            }
            return std::pair{out, d};
        });
    if (!done)
        return done.error();
    done->value.receiptSeq = done->receipt.seq; // the receipt this call wrote
    ctx.progress(release::kVerifySteps, release::kVerifySteps, QStringLiteral("done"));
    return std::move(done->value);
}

QString releaseScopeNote() {
    return store::releaseScopeNote();
}

} // namespace pb::ops
