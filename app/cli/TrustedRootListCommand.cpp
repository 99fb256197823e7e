// proofbench trusted-root list: the stored trusted roots, the default marked, with their TUF provenance
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "db/Database.h"
#include "ops/TrustedRootUpdate.h"
#include "store/VerificationStore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

// The TUF metadata that vouched for a root expires: when that time has passed, the root was verified
// as of a time it no longer holds (an update with --at, or metadata not refreshed since).
static bool expiredNow(const store::TrustedRootProvenance& p) {
    const QDateTime e = p.earliestExpiry();
    return e.isValid() && e <= QDateTime::currentDateTimeUtc();
}

static QString expiryText(const store::TrustedRootProvenance& p) {
    const QDateTime e = p.earliestExpiry();
    if (!e.isValid())
        return {};
    return expiredNow(p)
               ? QStringLiteral("; its TUF metadata expired %1 (expired now)").arg(tuf::formatTime(e))
               : QStringLiteral("; its TUF metadata expires %1").arg(tuf::formatTime(e));
}

static int trustedRootList(const QCommandLineParser& p) {
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto roots = store::VerificationStore(**db).trustedRoots();
    if (!roots)
        return fail(roots.error());
    if (p.value(QStringLiteral("format")) == QLatin1String("json")) {
        QJsonArray a;
        for (const auto& r : *roots) {
            QJsonObject o{{QStringLiteral("id"), r.id},
                          {QStringLiteral("name"), r.name},
                          {QStringLiteral("sha256"), r.sha256},
                          {QStringLiteral("default"), r.isDefault},
                          {QStringLiteral("importedAt"), r.importedAt.toString(Qt::ISODate)}};
            if (r.provenance)
                o.insert(
                    QStringLiteral("provenance"),
                    QJsonObject{
                        {QStringLiteral("repository"), r.provenance->repository},
                        {QStringLiteral("anchor"), r.provenance->anchorName},
                        {QStringLiteral("rootVersion"), r.provenance->rootVersion},
                        {QStringLiteral("timestampVersion"), r.provenance->timestampVersion},
                        {QStringLiteral("snapshotVersion"), r.provenance->snapshotVersion},
                        {QStringLiteral("targetsVersion"), r.provenance->targetsVersion},
                        {QStringLiteral("verificationTime"), tuf::formatTime(r.provenance->verificationTime)},
                        {QStringLiteral("timeGiven"), r.provenance->timeGiven},
                        {QStringLiteral("expires"), tuf::formatTime(r.provenance->earliestExpiry())},
                        {QStringLiteral("expiredNow"), expiredNow(*r.provenance)},
                        {QStringLiteral("startedFrom"), r.provenance->startedFrom}});
            a.append(o);
        }
        printJson(a);
        return kOk;
    }
    for (const auto& r : *roots)
        out()
            << r.id << '\t' << (r.isDefault ? "default" : "") << '\t' << r.sha256.left(16) << '\t' << r.name
            << '\t'
            << (r.provenance
                    ? r.provenance->summary() + expiryText(*r.provenance)
                    : QStringLiteral("imported from %1 (no TUF metadata: no expiry known)").arg(r.sourcePath))
            << '\n';
    if (roots->empty())
        out() << "no trusted root stored\n";
    out().flush();
    return kOk;
}

Command trustedRootListCommand() {
    Command p(QStringLiteral("trusted-root list"),
              QStringLiteral("the stored trusted roots, the default marked, with their TUF provenance"),
              QStringLiteral("The stored trusted roots, the default marked, with their TUF provenance."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = trustedRootList;
    return p;
}

} // namespace pb::cli
