// The TUF client workflow (specification 1.x, "Detailed client workflow") over a local copy of a
// repository, offline: the root chain from a pinned anchor (each next root signed by a threshold of
// the previous root's root keys and of its own, versions consecutive), the final root's expiry,
// then timestamp -> snapshot -> targets (delegations searched in pre-order as the specification
// says) with versions, lengths, hashes and expiry, then one target file's length and hashes.
//
// Layouts read: a Git checkout of the repository (metadata/root_history/N.root.json,
// metadata/timestamp.json, targets/NAME, as sigstore/root-signing keeps it) and the served layout
// with consistent snapshots (metadata/N.root.json, metadata/V.snapshot.json, targets/HASH.NAME);
// the folder may also be the metadata folder itself. Every file is read up to its bound.
//
// Between updates the client keeps what it trusted (specification 5.2-5.4): given a TrustedState
// from an earlier update of the same anchor's lineage, the root chain starts from the latest
// trusted root instead of the anchor, and nothing older is accepted: the repository's root, the
// timestamp's version, the snapshot version it names, and every targets/delegated version the
// trusted snapshot listed (which must stay listed). Equal versions are accepted (an unchanged
// repository updates twice); when the timestamp or snapshot keys change along the root chain the
// trusted timestamp and snapshot versions are dropped (5.3.11, recovery from a fast-forward attack).
#pragma once

#include "core/Result.h"
#include "tuf/Metadata.h"

#include <QDateTime>
#include <QJsonObject>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace pb::tuf {

struct RoleState {
    qint64 version = 0;
    QDateTime expires;
    QString file;
};

// What a successful update leaves trusted for one anchor's lineage. Public metadata only.
struct TrustedState {
    QString anchorSha256; // the anchor the lineage starts from (what keys it)
    QString anchorName;   // shown
    QString repository;   // the folder the update read (shown, not a key)
    QByteArray rootBytes; // the latest verified root.json, byte for byte
    RoleState root, timestamp, snapshot, targets;
    QMap<QString, qint64> snapshotMeta; // every metadata file the trusted snapshot lists -> version
    std::vector<std::pair<QString, RoleState>> delegations; // delegated roles loaded by that update
    QDateTime verificationTime;                             // what expiry was checked against then
    bool timeGiven = false;
    QDateTime updatedAt; // when that update ran: "trusted since"
    // "root v15, timestamp v762, snapshot v165, targets v14 from 2026-12-02T04:30:00Z"
    QString summary() const;
    QJsonObject toJson() const; // without the root bytes
};

struct ClientRequest {
    QString dir;                 // the repository copy
    QByteArray anchor;           // the trusted root to start from (bytes of a root.json)
    QString anchorName;          // shown in messages: a path or ":/tuf/…"
    std::optional<QDateTime> at; // the time expiry is checked against; now when absent
    QString targetName = QStringLiteral("trusted_root.json");
    // What an earlier update of this anchor's lineage trusted: the chain starts from its root and
    // nothing older is accepted. Its anchorSha256 must be the anchor's.
    std::optional<TrustedState> trusted;
};

// One thing checked, in order, for the CLI's and the dialog's step list.
struct ClientStep {
    QString role;   // "anchor", "root", "timestamp", "snapshot", "targets", a delegated role, "target"
    QString file;   // relative to the repository folder
    QString detail; // "root v14 -> v15: 5 of 3 signatures by v14's root keys, 5 of 3 by its own"
    bool ok = true;
    QJsonObject toJson() const;
};

struct ClientResult {
    bool ok = false;
    Error error;        // when !ok: the file, field and reason
    QString failedRole; // when !ok: which role (or "anchor", "target")
    std::vector<ClientStep> steps;
    QString repository; // absolute folder
    QString anchorName, anchorSha256;
    qint64 anchorVersion = 0;
    std::vector<qint64> rootChain; // versions accepted after the anchor, in order
    RoleState root, timestamp, snapshot, targets;
    std::vector<std::pair<QString, RoleState>> delegations; // delegated roles loaded in the search
    bool consistentSnapshot = false;
    QDateTime verificationTime; // what expiry was checked against
    bool timeGiven = false;     // --at
    // The target, when found and verified.
    QString targetName, targetFile, targetSha256;
    qint64 targetLength = 0;
    QString targetSignedBy; // "targets" or the delegated role that lists it
    QByteArray targetBytes;
    // The trusted state the update started from (request.trusted), and when ok the state it leaves.
    std::optional<TrustedState> trustedBefore;
    bool timestampSnapshotDropped = false; // their keys changed along the chain (5.3.11)
    TrustedState trustedAfter;

    QJsonObject toJson() const; // without the target bytes
};

// Never throws or returns early without a verdict: `ok` or the first failure with the steps before
// it. `onStep` is called as each step is decided (from the calling thread). A set `cancel` stops at
// the next file with "cancelled".
ClientResult runClient(const ClientRequest& request,
                       const std::function<void(const ClientStep&)>& onStep = {},
                       const std::atomic_bool* cancel = nullptr);

} // namespace pb::tuf
