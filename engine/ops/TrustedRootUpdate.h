// trusted-root update: take Sigstore's trusted_root.json from a TUF repository copy, offline, the way
// the TUF specification's client does (engine/tuf/Client.h): the root chain from a pinned anchor
// (by default the root the app ships, :/tuf/), every role's signatures, versions and expiry, then the
// target's length and hashes; and store it with its provenance (the repository, the anchor, each
// role's version, the time expiry was checked against). `proofbench trusted-root update` and the
// Verify view's "Update from a TUF repository…" call this one function.
//
// Rollback protection: each successful update leaves a trusted state for its anchor's lineage (the
// latest root's bytes, every role's version; store::VerificationStore::tufTrustedState), written in
// the same transaction as the root and its provenance. The next update of that lineage starts its
// root chain from that root and refuses anything older; `fromAnchor` starts again from the anchor,
// ignoring the state (and replacing it when the update succeeds), and says so everywhere.
#pragma once

#include "ops/Operation.h"
#include "tuf/Client.h"

#include <QDateTime>

#include <optional>

namespace pb::ops {

inline constexpr QLatin1StringView kTrustedRootUpdateKind{"trusted-root.update"};
// Sigstore public-good root v13 (public keys only); docs/SIGSTORE.md records its sha256.
inline constexpr QLatin1StringView kShippedTufAnchor{":/tuf/sigstore-public-good-root-v13.json"};

struct TrustedRootUpdateRequest {
    QString repository;          // the TUF repository copy (folder)
    QString anchorPath;          // a root.json to start the chain from; empty: the shipped anchor
    std::optional<QDateTime> at; // the time expiry is checked against; now when absent
    bool makeDefault = true;     // the imported root becomes the default...
    // ...but a root verified as of a time given in `at` (not now) becomes the default only when this
    // says so too: metadata that may have expired since is never made the default silently.
    bool makeDefaultWhenTimeGiven = false;
    QString targetName = QStringLiteral("trusted_root.json");
    bool fromAnchor = false; // --from-anchor: ignore the trusted state of this anchor's lineage
};

struct TrustedRootUpdateOutcome {
    tuf::ClientResult verification; // every step; ok or the first failure
    qint64 trustedRootId = 0;       // when verified: the stored root
    bool alreadyStored = false;     // the same bytes were stored before (a new provenance row is added)
    bool madeDefault = false;       // the stored root is now the default
    // Why it was not made the default although asked (verified as of a given time); empty otherwise.
    QString notDefaultReason;
    qint64 receiptSeq = 0;
    bool fromAnchor = false; // the request asked to start again from the anchor
    // The lineage's state before this update (used, or ignored when fromAnchor); none before the first.
    std::optional<tuf::TrustedState> trustedBefore;
    bool ok() const { return verification.ok && trustedRootId != 0; }
    bool usedTrustedState() const { return trustedBefore && !fromAnchor; }
    // "trusted-state", "anchor" or "anchor-requested" (as the provenance row says)
    QString startedFrom() const;
    // The verification's JSON with how it started and, when stored, the root's id.
    QJsonObject toJson() const;
};

// An Error only when the request cannot run (anchor unreadable, database); a repository that does not
// verify is an outcome with verification.ok false, recorded as a failed receipt. `onStep` gets each
// step as it is decided (on the calling thread); progress and cancel come from the Context.
Result<TrustedRootUpdateOutcome>
updateTrustedRoot(const Context& ctx, const TrustedRootUpdateRequest& request,
                  const std::function<void(const tuf::ClientStep&)>& onStep = {});

// "2026-08-22", "2026-08-22T00:00:00Z", "2026-08-22T02:00:00+02:00" (a date is its midnight UTC).
Result<QDateTime> parseVerificationTime(const QString& text);

} // namespace pb::ops
