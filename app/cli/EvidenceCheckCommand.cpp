// proofbench evidence check: check an evidence bundle (directory or OCI layout) offline
#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "catalog/Loader.h"
#include "core/Files.h"
#include "db/Database.h"
#include "evidence/Bundle.h"
#include "evidence/Health.h"
#include "ops/CheckEvidence.h"
#include "ops/ImportEvidence.h"
#include "receipts/Ledger.h"
#include "report/HealthTable.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::catalog;
using namespace pb::store;

static constexpr int kNoVerdict = 3;

static int evidenceCheck(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected exactly one bundle"), QStringLiteral("evidence check"));
    ops::CheckEvidenceRequest request;
    request.bundle = p.positionalArguments().constFirst();
    request.pointer = p.value(QStringLiteral("pointer"));
    request.trustedRoot = p.value(QStringLiteral("trusted-root"));
    request.publicKey = p.value(QStringLiteral("key"));
    request.insecureIgnoreTlog = p.isSet(QStringLiteral("insecure-ignore-tlog"));
    // The check needs no catalog: the database only holds the default trusted root and the receipt.
    // An error before any check ran is no verdict: incomplete (3), never 1 ("valid, failed phases").
    Result<std::unique_ptr<Database>> db = openDbAsIs(p);
    if (!db)
        return fail(db.error()), kNoVerdict;
    Result<ops::CheckEvidenceOutcome> checked = ops::checkEvidence(ops::Context(**db), request);
    if (!checked)
        return fail(checked.error()), kNoVerdict;
    if (!checked->check) {
        fail(makeError(checked->problem)); // the bundle or the pointer was refused: invalid
        return checked->exitCode;
    }
    if (p.value(QStringLiteral("format")) == QLatin1String("json"))
        printJson(checked->check->toJson());
    else
        out() << checked->check->toText();
    out().flush();
    return checked->exitCode;
}

Command evidenceCheckCommand() {
    Command p(
        QStringLiteral("evidence check"),
        QStringLiteral("check an evidence bundle (directory or OCI layout) offline"),
        QStringLiteral("Check an evidence bundle offline, as aicr evidence verify does: the attestation's "
                       "Sigstore signature (for the signer the pointer claims), the manifest, the recipe "
                       "binding. Exit 0 valid, 1 valid with failed phases, 2 invalid, 3 incomplete."));
    addDb(p);
    p.addOption({QStringLiteral("pointer"), QStringLiteral("Pointer file to check the bundle against."),
                 QStringLiteral("FILE")});
    p.addOption(
        {QStringLiteral("trusted-root"),
         QStringLiteral(
             "Sigstore trusted_root.json for the attestation's signature (default: the database's default "
             "root; without one the signature is not checked)."),
         QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"),
                 QStringLiteral("Public key (PEM) the attestation must be signed with."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("insecure-ignore-tlog"),
                 QStringLiteral("With --key: accept an attestation without a log entry.")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(
        QStringLiteral("BUNDLE"),
        QStringLiteral("A summary-bundle directory (or its parent), or an OCI image layout."));
    p.handler = evidenceCheck;
    p.exitCodes = evidenceVerdictExitCodes();
    p.exitCodesSource = QStringLiteral("the verdicts of aicr evidence verify");
    return p;
}

} // namespace pb::cli
