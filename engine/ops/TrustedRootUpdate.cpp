#include "ops/TrustedRootUpdate.h"

#include "core/Files.h"
#include "core/Hash.h"
#include "receipts/Kinds.h"
#include "store/VerificationStore.h"
#include "tuf/Update.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

namespace pb::ops {

Result<QDateTime> parseVerificationTime(const QString& text) {
    const QString t = text.trimmed();
    const QDate d = QDate::fromString(t, Qt::ISODate);
    if (d.isValid() && t.size() == 10)
        return QDateTime(d, QTime(0, 0), Qt::UTC);
    const QDateTime dt = tuf::parseTime(t);
    if (!dt.isValid())
        return makeError(
            QStringLiteral(
                "'%1' is not a time: give 2026-08-22 or 2026-08-22T00:00:00Z (with Z or an offset)")
                .arg(text),
            {}, 0, QStringLiteral("--at"));
    return dt;
}

namespace {

QString when(const QDateTime& t) {
    return tuf::formatTime(t);
}

// Same lineage state (nothing committed in between): compared field by field that matters.
bool sameState(const std::optional<tuf::TrustedState>& a, const std::optional<tuf::TrustedState>& b) {
    if (a.has_value() != b.has_value())
        return false;
    if (!a)
        return true;
    return a->rootBytes == b->rootBytes && a->timestamp.version == b->timestamp.version &&
           a->snapshot.version == b->snapshot.version && a->snapshotMeta == b->snapshotMeta &&
           a->updatedAt == b->updatedAt;
}

} // namespace

QString TrustedRootUpdateOutcome::startedFrom() const {
    if (fromAnchor)
        return QStringLiteral("anchor-requested");
    return trustedBefore ? QStringLiteral("trusted-state") : QStringLiteral("anchor");
}

QJsonObject TrustedRootUpdateOutcome::toJson() const {
    QJsonObject o = verification.toJson();
    o.insert(QStringLiteral("fromAnchor"), fromAnchor);
    o.insert(QStringLiteral("startedFrom"), startedFrom());
    if (trustedBefore) {
        // The client puts the state it used; an ignored one is shown too, under its own name.
        o.remove(QStringLiteral("trustedState"));
        o.insert(fromAnchor ? QStringLiteral("ignoredTrustedState") : QStringLiteral("trustedState"),
                 trustedBefore->toJson());
    }
    if (ok()) {
        o.insert(QStringLiteral("trustedRootId"), trustedRootId);
        o.insert(QStringLiteral("alreadyStored"), alreadyStored);
        o.insert(QStringLiteral("madeDefault"), madeDefault);
        if (!notDefaultReason.isEmpty())
            o.insert(QStringLiteral("notDefault"), notDefaultReason);
    }
    return o;
}

namespace {

// The receipt's parameters: what was asked and which role versions were seen.
QJsonObject paramsOf(const TrustedRootUpdateRequest& request, const TrustedRootUpdateOutcome& out,
                     const QString& anchorPath, const QByteArray& anchor) {
    const tuf::ClientResult& v = out.verification;
    QJsonObject params{
        {QStringLiteral("repository"), v.repository.isEmpty() ? request.repository : v.repository},
        {QStringLiteral("anchor"), anchorPath},
        {QStringLiteral("anchorSha256"), sha256Hex(anchor)},
        {QStringLiteral("verificationTime"), when(v.verificationTime)},
        {QStringLiteral("timeGiven"), v.timeGiven},
        {QStringLiteral("target"), request.targetName}};
    if (v.anchorVersion)
        params.insert(QStringLiteral("anchorVersion"), v.anchorVersion);
    if (v.root.version)
        params.insert(QStringLiteral("rootVersion"), v.root.version);
    if (v.timestamp.version)
        params.insert(QStringLiteral("timestampVersion"), v.timestamp.version);
    if (v.snapshot.version)
        params.insert(QStringLiteral("snapshotVersion"), v.snapshot.version);
    if (v.targets.version)
        params.insert(QStringLiteral("targetsVersion"), v.targets.version);
    params.insert(QStringLiteral("startedFrom"),
                  out.startedFrom()); // trusted-state, anchor, anchor-requested
    return params;
}

// Where the stored root came from: the repository, the anchor and every role's version and expiry.
store::TrustedRootProvenance provenanceOf(const TrustedRootUpdateOutcome& out, qint64 rootId,
                                          const QString& anchorPath) {
    const tuf::ClientResult& v = out.verification;
    store::TrustedRootProvenance p;
    p.trustedRootId = rootId;
    p.repository = v.repository;
    p.targetName = v.targetName;
    p.targetFile = v.targetFile;
    p.anchorName = anchorPath;
    p.anchorSha256 = v.anchorSha256;
    p.anchorVersion = v.anchorVersion;
    for (qint64 x : v.rootChain)
        p.rootChain << x;
    p.rootVersion = v.root.version;
    p.rootExpires = v.root.expires;
    p.timestampVersion = v.timestamp.version;
    p.timestampExpires = v.timestamp.expires;
    p.snapshotVersion = v.snapshot.version;
    p.snapshotExpires = v.snapshot.expires;
    p.targetsVersion = v.targets.version;
    p.targetsExpires = v.targets.expires;
    p.signedBy = v.targetSignedBy;
    p.verificationTime = v.verificationTime;
    p.timeGiven = v.timeGiven;
    p.verifiedAt = QDateTime::currentDateTimeUtc();
    p.startedFrom = out.startedFrom();
    if (out.trustedBefore)
        p.trustedState = out.trustedBefore->summary();
    return p;
}

// The verified root, its provenance and the lineage's new trusted state (inside the receipt's
// transaction); fills the outcome and the draft's parameters, outputs and message.
Status storeVerifiedRoot(const Context& ctx, const TrustedRootUpdateRequest& request,
                         const QString& anchorPath, const QString& anchorSha256, const QString& startText,
                         TrustedRootUpdateOutcome& out, QJsonObject params, receipts::ReceiptDraft& d) {
    const tuf::ClientResult& v = out.verification;
    store::VerificationStore roots(ctx.db());
    // The state this update was checked against must still be the lineage's (another update may
    // have committed meanwhile); --from-anchor replaces whatever is there.
    if (!request.fromAnchor) {
        auto current = roots.tufTrustedState(anchorSha256);
        if (!current)
            return current.error();
        if (!sameState(*current, out.trustedBefore))
            return makeError(
                QStringLiteral(
                    "the trusted TUF state of this anchor changed while this update ran; run it again"),
                request.repository);
    }
    auto before = roots.trustedRoots();
    if (!before)
        return before.error();
    for (const auto& r : *before)
        if (r.sha256 == v.targetSha256)
            out.alreadyStored = true;
    out.madeDefault = request.makeDefault && (!request.at || request.makeDefaultWhenTimeGiven);
    if (request.makeDefault && !out.madeDefault)
        out.notDefaultReason =
            QStringLiteral("verified as of %1 (given), not now: not made the default (its metadata may have "
                           "expired since); make it the default with --default")
                .arg(tuf::formatTime(v.verificationTime));
    auto id = roots.importTrustedRootBytes(
        v.targetBytes, v.targetName,
        QFileInfo(v.repository + QLatin1Char('/') + v.targetFile).absoluteFilePath(), out.madeDefault);
    if (!id)
        return id.error();
    out.trustedRootId = *id;
    const store::TrustedRootProvenance p = provenanceOf(out, *id, anchorPath);
    auto pid = roots.addProvenance(p);
    if (!pid)
        return pid.error();
    tuf::TrustedState after = v.trustedAfter;
    after.anchorName = anchorPath;
    after.updatedAt = p.verifiedAt;
    if (Status s = roots.saveTufTrustedState(after, *pid); !s)
        return s.error();
    params.insert(QStringLiteral("sha256"), v.targetSha256);
    params.insert(QStringLiteral("stored"),
                  out.alreadyStored ? QStringLiteral("existing") : QStringLiteral("new"));
    d.parameters = params;
    d.outputs.push_back(receipts::Artifact::digest(
        QStringLiteral("trusted root #%1 (%2)").arg(*id).arg(v.targetName), v.targetSha256, v.targetLength));
    d.message = QStringLiteral("trusted root %1 taken from TUF root v%2 (timestamp v%3, snapshot v%4, "
                               "targets v%5), verified as of %6")
                    .arg(v.targetSha256.left(16))
                    .arg(v.root.version)
                    .arg(v.timestamp.version)
                    .arg(v.snapshot.version)
                    .arg(v.targets.version)
                    .arg(when(v.verificationTime)) +
                QStringLiteral("; %1; trusted state now %2").arg(startText, after.summary());
    return {};
}

} // namespace

Result<TrustedRootUpdateOutcome>
updateTrustedRoot(const Context& ctx, const TrustedRootUpdateRequest& request,
                  const std::function<void(const tuf::ClientStep&)>& onStep) {
    if (Status s = require(ctx, db::Capability::UpdateTrustedRoot); !s)
        return s.error();
    const QString anchorPath = request.anchorPath.isEmpty() ? QString(kShippedTufAnchor) : request.anchorPath;
    auto anchor = tuf::readAnchor(anchorPath);
    if (!anchor)
        return anchor.error();
    const QString anchorSha256 = sha256Hex(*anchor);
    TrustedRootUpdateOutcome out;
    out.fromAnchor = request.fromAnchor;
    auto state = store::VerificationStore(ctx.db()).tufTrustedState(anchorSha256);
    if (!state)
        return state.error();
    out.trustedBefore = *state;

    int n = 0;
    auto step = [&](const tuf::ClientStep& s) {
        ctx.progress(++n, 0, s.detail);
        if (onStep)
            onStep(s);
    };
    tuf::UpdateRequest treq{request.repository, *anchor,           anchorPath,        request.at,
                            request.targetName, out.trustedBefore, request.fromAnchor};
    tuf::UpdateResult updated = tuf::runUpdate(treq, step, ctx.cancelFlag());
    out.verification = std::move(updated.verification);
    const tuf::ClientResult& v = out.verification;

    receipts::ReceiptDraft d;
    d.kind = kTrustedRootUpdateKind;
    const QJsonObject params = paramsOf(request, out, anchorPath, *anchor);
    d.inputs.push_back(receipts::Artifact::bytes(anchorPath, *anchor));
    // The files the client read (each step names one), not the folder: a file nobody uses (a 16 GB
    // one beside the metadata) is neither read nor recorded.
    QStringList used;
    for (const tuf::ClientStep& st : v.steps)
        if (!st.file.isEmpty() && !used.contains(st.file) && st.role != QLatin1String("anchor"))
            used << st.file;
    for (const QString& file : std::as_const(used))
        if (const QString path = QDir(request.repository).filePath(file); QFileInfo(path).isFile())
            d.inputs.push_back(receipts::Artifact::file(path));
    if (ctx.cancelled())
        return makeError(QStringLiteral("cancelled"), request.repository);
    if (!v.ok) {
        d.result = receipts::Outcome::Failed;
        d.parameters = params;
        d.message =
            QStringLiteral("trusted root not updated: %1 failed: %2; %3; the trusted state is unchanged")
                .arg(v.failedRole, v.error.toString(), updated.startText);
        auto receipt = record(ctx, d);
        if (!receipt)
            return receipt.error();
        out.receiptSeq = receipt->seq;
        return out;
    }
    auto done = transact<TrustedRootUpdateOutcome>(
        ctx, [&]() -> Result<std::pair<TrustedRootUpdateOutcome, receipts::ReceiptDraft>> {
            if (Status s = storeVerifiedRoot(ctx, request, anchorPath, anchorSha256, updated.startText, out,
                                             params, d);
                !s)
                return s.error();
            return std::make_pair(out, d);
        });
    if (!done)
        return done.error();
    done->value.receiptSeq = done->receipt.seq;
    return std::move(done->value);
}

} // namespace pb::ops
