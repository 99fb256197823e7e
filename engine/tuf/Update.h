// One trusted-root update, as the TUF client runs it for Proofbench: the anchor read (the shipped
// one from the resources, or a file), the client run from the lineage's trusted state or from the
// anchor (a `fromAnchor` restart noted as the first step), and the target checked to be a Sigstore
// trusted root this app can use. ops::updateTrustedRoot stores what verified and writes the receipt.
#pragma once

#include "core/Result.h"
#include "tuf/Client.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace pb::tuf {

// A root.json to start a chain from: a resource (":/tuf/…", the shipped anchor) or a file, at most
// kRootMaxLength bytes (a longer resource is read one byte over, so the client refuses it).
Result<QByteArray> readAnchor(const QString& path);

struct UpdateRequest {
    QString repository;          // the TUF repository copy (folder)
    QByteArray anchor;           // the anchor root's bytes
    QString anchorName;          // its path, as named in steps and errors
    std::optional<QDateTime> at; // the time expiry is checked against; now when absent
    QString targetName = QStringLiteral("trusted_root.json");
    std::optional<TrustedState> trusted; // the lineage's state before this update (none before the first)
    bool fromAnchor = false;             // start again from the anchor, ignoring `trusted`
};

struct UpdateResult {
    ClientResult verification; // every step; ok or the first failure
    QString startText;         // how the update started, for the receipt's message
};

// Runs the client (from `trusted` unless fromAnchor) and checks the target parses as a Sigstore
// trusted root; `step` gets each step as it is decided. Never an Error: a failure is in the result.
UpdateResult runUpdate(const UpdateRequest& request, const std::function<void(const ClientStep&)>& step,
                       const std::atomic_bool* cancel = nullptr);

} // namespace pb::tuf
