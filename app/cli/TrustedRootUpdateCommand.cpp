// proofbench trusted-root update: take trusted_root.json from a TUF repository copy, verified offline from a
// pinned root, and store it
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "db/Database.h"
#include "ops/TrustedRootUpdate.h"
#include "store/VerificationStore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

static int trustedRootUpdate(const QCommandLineParser& p) {
    const QString format = p.value(QStringLiteral("format"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return usage(QStringLiteral("unknown --format '%1' (expected text or json)").arg(format),
                     QStringLiteral("trusted-root update"));
    if (!p.isSet(QStringLiteral("tuf")))
        return usage(QStringLiteral("--tuf DIR is required"), QStringLiteral("trusted-root update"));
    ops::TrustedRootUpdateRequest request;
    request.repository = p.value(QStringLiteral("tuf"));
    request.anchorPath = p.value(QStringLiteral("anchor"));
    request.makeDefault = !p.isSet(QStringLiteral("no-default"));
    request.makeDefaultWhenTimeGiven = p.isSet(QStringLiteral("default"));
    if (p.isSet(QStringLiteral("default")) && p.isSet(QStringLiteral("no-default")))
        return usage(QStringLiteral("--default and --no-default contradict each other"),
                     QStringLiteral("trusted-root update"));
    request.fromAnchor = p.isSet(QStringLiteral("from-anchor"));
    if (p.isSet(QStringLiteral("at"))) {
        auto at = ops::parseVerificationTime(p.value(QStringLiteral("at")));
        if (!at)
            return usage(at.error().toString(), QStringLiteral("trusted-root update"));
        request.at = *at;
    }
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    const ops::Context ctx(**db);
    auto done = ops::updateTrustedRoot(ctx, request);
    if (!done)
        return fail(done.error());
    const tuf::ClientResult& v = done->verification;
    if (format == QLatin1String("json")) {
        printJson(done->toJson());
    } else {
        for (const tuf::ClientStep& s : v.steps)
            out() << (s.ok ? "ok    " : "FAILED") << "  " << s.role << "\t" << s.detail << '\n';
        if (done->ok())
            out() << QStringLiteral("trusted root %1 (sha256 %2) stored%3 as #%4%5; verified as of %6%7\n")
                         .arg(v.targetName, v.targetSha256,
                              done->alreadyStored ? QStringLiteral(" (already present)") : QString())
                         .arg(done->trustedRootId)
                         .arg(done->madeDefault ? QStringLiteral(", the default") : QString())
                         .arg(tuf::formatTime(v.verificationTime),
                              v.timeGiven ? QStringLiteral(" (--at)") : QString())
                  << (done->fromAnchor ? QStringLiteral("started again from the anchor (--from-anchor); the "
                                                        "trusted state is now this update's\n")
                      : done->trustedBefore
                          ? QStringLiteral("continued from the trusted state of %1\n")
                                .arg(tuf::formatTime(done->trustedBefore->updatedAt))
                          : QStringLiteral(
                                "first update from this anchor; its trusted state is stored for the next\n"));
    }
    if (format != QLatin1String("json") && done->ok() && !done->notDefaultReason.isEmpty())
        out() << "note: " << done->notDefaultReason << '\n';
    out().flush();
    if (!done->ok()) {
        // Expired metadata: say how to verify it as of an earlier time, and what that means.
        const bool expired = v.error.field == QLatin1String("signed.expires") && !request.at;
        err() << "proofbench: trusted root not updated: " << v.failedRole << ": " << v.error.toString()
              << (expired
                      ? QStringLiteral("\n  the repository copy's metadata has expired; to verify it as of "
                                       "a time when it was valid, give --at TIME (a root verified so is not "
                                       "made the default unless --default is given too)")
                      : QString())
              << Qt::endl;
        return kFailed;
    }
    return kOk;
}

Command trustedRootUpdateCommand() {
    Command p(
        QStringLiteral("trusted-root update"),
        QStringLiteral("take trusted_root.json from a TUF repository copy, verified offline from a pinned "
                       "root, and store it"),
        QStringLiteral(
            "Verify a TUF repository copy as the TUF client workflow does (root chain from the anchor, "
            "timestamp, snapshot, targets, expiry, the target's length and hashes) and store its "
            "trusted_root.json with that provenance. The next update from the same anchor continues from the "
            "root and versions this one trusted and refuses older metadata as a rollback (--from-anchor: "
            "start again from the anchor). Exit 0 only when verified and stored."));
    addDb(p);
    p.addOption({QStringLiteral("tuf"),
                 QStringLiteral("The TUF repository copy (a folder with metadata/ and targets/)."),
                 QStringLiteral("DIR")});
    p.addOption(
        {QStringLiteral("anchor"),
         QStringLiteral(
             "The root.json to start the root chain from (default: the Sigstore root v13 the app ships)."),
         QStringLiteral("ROOT_JSON")});
    p.addOption({QStringLiteral("at"),
                 QStringLiteral(
                     "Check expiry as of TIME (2026-08-22 or 2026-08-22T00:00:00Z) instead of now; the root "
                     "is then not made the default unless --default is given."),
                 QStringLiteral("TIME")});
    p.addOption(
        {QStringLiteral("no-default"), QStringLiteral("Store the root without making it the default.")});
    p.addOption({QStringLiteral("default"),
                 QStringLiteral("With --at: make the root verified as of that time the default anyway.")});
    p.addOption(
        {QStringLiteral("from-anchor"),
         QStringLiteral(
             "Start again from the anchor, ignoring what earlier updates from it trusted (by default the "
             "root chain "
             "continues from the latest trusted root and older metadata is refused as a rollback).")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.require({QStringLiteral("tuf")});
    p.handler = trustedRootUpdate;
    return p;
}

} // namespace pb::cli
