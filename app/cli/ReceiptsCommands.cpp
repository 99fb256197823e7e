// receipts list|show|export|verify and records import|check|stages: the ledger of what Proofbench
// did (engine/receipts/Ledger.h) and ConfigHub's external records (engine/receipts/Records.h).
// The actions (verify, export, records import and check) are operations (engine/ops); these verbs
// parse, call and print.
#include "cli/CliUtil.h"

#include "core/Files.h"
#include "receipts/Canonical.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"
#include "ops/ReceiptsExport.h"
#include "ops/ReceiptsVerify.h"
#include "ops/RecordsCheck.h"
#include "ops/RecordsImport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

namespace {

using namespace pb::receipts;

bool asJson(const QCommandLineParser& p) { return p.value(QStringLiteral("format")) == QLatin1String("json"); }

QString artifactLine(const Artifact& a) {
    QString s = a.name;
    if (!a.sha256.isEmpty())
        s += QStringLiteral("  sha256:") + a.sha256;
    if (a.size >= 0)
        s += QStringLiteral("  %1 bytes").arg(a.size);
    return s;
}

QString receiptText(const Receipt& r) {
    QString s;
    s += QStringLiteral("receipt #%1  %2\n").arg(r.seq).arg(r.kind);
    s += QStringLiteral("  time:       %1\n  version:    %2\n  result:     %3%4\n")
             .arg(isoTime(r.time), r.version, outcomeName(r.result), r.message.isEmpty() ? QString() : QStringLiteral(" - ") + r.message);
    s += QStringLiteral("  parameters: %1\n").arg(QString::fromUtf8(canonicalJson(r.parameters)));
    for (const Artifact& a : r.inputs)
        s += QStringLiteral("  input:      %1\n").arg(artifactLine(a));
    for (const Artifact& a : r.outputs)
        s += QStringLiteral("  output:     %1\n").arg(artifactLine(a));
    s += QStringLiteral("  prev:       %1\n  hash:       %2\n").arg(r.prevHash, r.hash);
    return s;
}

static int receiptsList(const QCommandLineParser& p) {
    ListFilter f;
    f.kind = p.value(QStringLiteral("kind"));
    if (p.isSet(QStringLiteral("result"))) {
        f.result = parseOutcome(p.value(QStringLiteral("result")));
        if (!f.result)
            return usage(QStringLiteral("--result expects ok, failed or partial"), QStringLiteral("receipts list"));
    }
    for (const char* name : {"since", "until"}) {
        if (!p.isSet(QLatin1String(name)))
            continue;
        QDateTime t = QDateTime::fromString(p.value(QLatin1String(name)), Qt::ISODateWithMs);
        if (!t.isValid())
            return usage(QStringLiteral("--%1 expects an ISO 8601 time").arg(QLatin1String(name)), QStringLiteral("receipts list"));
        (qstrcmp(name, "since") == 0 ? f.from : f.to) = t.toUTC();
    }
    f.limit = p.value(QStringLiteral("limit")).toInt();
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto rows = Ledger(**db).list(f);
    if (!rows)
        return fail(rows.error());
    if (asJson(p)) {
        QJsonArray a;
        for (const Receipt& r : *rows)
            a.append(r.toJson());
        printJson(QJsonObject{{QStringLiteral("receipts"), a}});
        return kOk;
    }
    for (const Receipt& r : *rows)
        out() << QStringLiteral("#%1  %2  %3  %4  %5  %6\n")
                     .arg(r.seq, 4)
                     .arg(isoTime(r.time), r.kind.leftJustified(24), outcomeName(r.result).leftJustified(7), r.hash.left(12), r.message);
    out().flush();
    return kOk;
}

static int receiptsShow(const QCommandLineParser& p) {
    bool ok = false;
    const qint64 seq = p.positionalArguments().value(0).toLongLong(&ok);
    if (p.positionalArguments().size() != 1 || !ok)
        return usage(QStringLiteral("give one receipt number"), QStringLiteral("receipts show"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto r = Ledger(**db).receipt(seq);
    if (!r)
        return fail(r.error());
    if (asJson(p))
        printJson(r->toJson());
    else
        out() << receiptText(*r);
    out().flush();
    return kOk;
}

static int receiptsVerify(const QCommandLineParser& p) {
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto verified = ops::verifyReceipts(ops::Context(**db));
    if (!verified)
        return fail(verified.error());
    const ChainCheck* check = &verified->chain;
    if (asJson(p))
        printJson(check->toJson());
    else
        out() << check->toText();
    out().flush();
    if (!check->ok)
        err() << "proofbench: receipts chain broken at #" << check->firstBadSeq << " (" << breakName(check->kind) << ")" << Qt::endl;
    return check->ok ? kOk : kFailed;
}

static int receiptsExport(const QCommandLineParser& p) {
    if (p.value(QStringLiteral("format")) != QLatin1String("json"))
        return usage(QStringLiteral("--format json is the only export format"), QStringLiteral("receipts export"));
    const QString outPath = p.value(QStringLiteral("out"));
    const bool signHead = p.isSet(QStringLiteral("key"));
    QString headPath = p.value(QStringLiteral("head")), bundlePath = p.value(QStringLiteral("head-bundle"));
    if (signHead && headPath.isEmpty())
        headPath = outPath.isEmpty() ? QString() : outPath + QStringLiteral(".head.json");
    if (signHead && bundlePath.isEmpty())
        bundlePath = outPath.isEmpty() ? QString() : outPath + QStringLiteral(".head.sigstore.json");
    if (signHead && (headPath.isEmpty() || bundlePath.isEmpty()))
        return usage(QStringLiteral("with --key give --out FILE, or --head FILE and --head-bundle FILE"), QStringLiteral("receipts export"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    ops::ReceiptsExportRequest req;
    req.outPath = outPath;
    sigstore::crypto::Pkey key;
    if (signHead) {
        auto k = privateKeyFrom(p);
        if (!k)
            return fail(k.error());
        key = std::move(*k);
        req.key = key.get();
        req.headPath = headPath;
        req.bundlePath = bundlePath;
        req.databaseName = QFileInfo(dbPath(p)).fileName();
    }
    auto exported = ops::exportReceipts(ops::Context(**db), req);
    if (!exported)
        return fail(exported.error());
    if (outPath.isEmpty()) {
        out() << QString::fromUtf8(exported->bytes);
        out().flush();
    }
    if (exported->signedHead)
        err() << "signed receipts head #" << exported->head.seq << " " << exported->head.hash << " -> " << bundlePath << Qt::endl;
    return kOk;
}

// ---- records ----------------------------------------------------------------------------------

int recordsCheckOrStages(const QCommandLineParser& p, bool stagesOnly) {
    const QString verb = stagesOnly ? QStringLiteral("records stages") : QStringLiteral("records check");
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one directory"), verb);
    std::unique_ptr<db::Database> db;
    Result<RecordsReport> report = makeError(QString());
    if (stagesOnly) {
        report = readRecords(p.positionalArguments().constFirst()); // a view of the files, not an action
    } else {
        auto opened = openDb(p);
        if (!opened)
            return fail(opened.error());
        db = std::move(*opened);
        report = ops::checkRecords(ops::Context(*db), ops::RecordsCheckRequest{p.positionalArguments().constFirst()});
    }
    if (!report)
        return fail(report.error());
    if (stagesOnly) {
        if (asJson(p)) {
            QJsonArray a;
            for (const StageRow& s : report->stages)
                a.append(s.toJson());
            printJson(QJsonObject{{QStringLiteral("stages"), a}});
        } else {
            QString lastEntry;
            for (const StageRow& s : report->stages) {
                if (s.entry != lastEntry)
                    out() << (lastEntry.isEmpty() ? "" : "\n") << s.entry << "\n";
                lastEntry = s.entry;
                out() << QStringLiteral("  %1 %2 %3\n")
                             .arg(s.stage, -55)
                             .arg(stageResultName(s.result), -9)
                             .arg(s.record.isEmpty() ? QStringLiteral("-") : s.record + QStringLiteral("  [") + s.detail + QLatin1Char(']'));
            }
        }
        out().flush();
        return kOk;
    }
    if (asJson(p))
        printJson(report->toJson());
    else
        out() << report->toText();
    out().flush();
    for (const Error& e : report->problems)
        err() << "proofbench: " << e.toString() << Qt::endl;
    for (const RecordCheck& c : report->checks)
        if (c.verdict == Verdict::Fail)
            err() << "proofbench: check failed: " << c.file << ": " << c.detail << Qt::endl;
    return report->ok() ? kOk : kFailed;
}

int recordsCheck(const QCommandLineParser& p) { return recordsCheckOrStages(p, false); }
int recordsStages(const QCommandLineParser& p) { return recordsCheckOrStages(p, true); }

// check and stages read the same directory the same way.
Command recordsCommand(const QString& name, const QString& summary, const QString& description) {
    Command p(name, summary, description);
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A directory of ConfigHub records (an entry, or a tree of them)."));
    return p;
}

static int recordsImport(const QCommandLineParser& p) {
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("give one directory"), QStringLiteral("records import"));
    auto db = openDb(p);
    if (!db)
        return fail(db.error());
    auto r = ops::importRecords(ops::Context(**db), ops::RecordsImportRequest{p.positionalArguments().constFirst()});
    if (!r)
        return fail(r.error());
    if (asJson(p)) {
        printJson(QJsonObject{{QStringLiteral("records"), static_cast<int>(r->report.records.size())},
                              {QStringLiteral("added"), r->added},
                              {QStringLiteral("updated"), r->updated},
                              {QStringLiteral("unchanged"), r->unchanged},
                              {QStringLiteral("checksFailed"), r->report.failed()}});
    } else {
        out() << r->report.records.size() << " record(s) from " << r->report.root << ": " << r->added << " added, " << r->updated
              << " updated, " << r->unchanged << " unchanged; " << r->report.failed() << " check(s) failed" << Qt::endl;
    }
    return kOk;
}

} // namespace

// ---- declarations ------------------------------------------------------------------------------

Command receiptsListCommand() {
    Command p(QStringLiteral("receipts list"), QStringLiteral("the receipts ledger, oldest first: what was done, on which inputs, with what result"),
              QStringLiteral("List the receipts in the ledger, oldest first."));
    addDb(p);
    p.addOption({QStringLiteral("kind"), QStringLiteral("Only this kind (or a prefix ending in '.', e.g. evidence.)."), QStringLiteral("KIND")});
    p.addOption({QStringLiteral("result"), QStringLiteral("Only this result: ok, failed or partial."), QStringLiteral("RESULT")});
    p.addOption({QStringLiteral("since"), QStringLiteral("Only receipts at or after this UTC time (ISO 8601)."), QStringLiteral("TIME")});
    p.addOption({QStringLiteral("until"), QStringLiteral("Only receipts at or before this UTC time (ISO 8601)."), QStringLiteral("TIME")});
    p.addOption({QStringLiteral("limit"), QStringLiteral("Only the newest N."), QStringLiteral("N")});
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = receiptsList;
    return p;
}

Command receiptsShowCommand() {
    Command p(QStringLiteral("receipts show"), QStringLiteral("one receipt with its inputs and outputs"),
              QStringLiteral("Show one receipt: parameters, inputs and outputs with digests."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("N"), QStringLiteral("The receipt's sequence number."));
    p.handler = receiptsShow;
    return p;
}

Command receiptsVerifyCommand() {
    Command p(QStringLiteral("receipts verify"), QStringLiteral("recompute the receipts chain; name the first receipt that breaks it"),
              QStringLiteral("Recompute the receipts chain and name the first receipt that breaks it (edited, deleted, inserted or "
                                      "reordered). Exit 0 only when the chain is intact."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.handler = receiptsVerify;
    return p;
}

Command receiptsExportCommand() {
    Command p(QStringLiteral("receipts export"), QStringLiteral("all receipts and the chain head (signed with --key)"),
              QStringLiteral("Export every receipt and the chain head as JSON. With --key the head statement is signed (a "
                                      "sign-blob bundle); check it with: proofbench verify --key KEY.pub --bundle HEAD_BUNDLE HEAD."));
    addDb(p);
    addPassphraseEnv(p);
    addFormat(p, QStringLiteral("json"), QStringLiteral("json"));
    p.addOption({QStringLiteral("out"), QStringLiteral("Write the export to FILE (default: standard output)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("key"), QStringLiteral("Also sign the chain head with this encrypted private key."), QStringLiteral("KEY")});
    p.addOption({QStringLiteral("head"), QStringLiteral("With --key: where to write the head statement (default: OUT.head.json)."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("head-bundle"),
                 QStringLiteral("With --key: where to write the Sigstore bundle over the head statement (default: OUT.head.sigstore.json)."),
                 QStringLiteral("FILE")});
    p.handler = receiptsExport;
    return p;
}

Command recordsImportCommand() {
    Command p(QStringLiteral("records import"), QStringLiteral("store ConfigHub records in the database (transactional, idempotent)"),
              QStringLiteral("Store every ConfigHub record below DIR in the database, in one transaction; a file that does "
                                      "not parse refuses the whole import. Importing the same files again changes nothing."));
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("A directory of ConfigHub records."));
    p.handler = recordsImport;
    return p;
}

Command recordsCheckCommand() {
    Command p = recordsCommand(QStringLiteral("records check"),
                               QStringLiteral("check ConfigHub records offline: each record's fields, checks and digests"),
                               QStringLiteral("Parse every ConfigHub record below DIR and run the offline checks: the digest index's "
                                              "platform digest recomputed from its payloads, checksums.txt files, digests shared with "
                                              "the generation receipt. Exit 0 only when nothing fails."));
    p.handler = recordsCheck;
    return p;
}

Command recordsStagesCommand() {
    Command p = recordsCommand(QStringLiteral("records stages"),
                               QStringLiteral("the stage table of each recipe entry of ConfigHub records"),
                               QStringLiteral("The stage table of each recipe entry: stage, result (complete, partial, not run) and "
                                              "the record behind it."));
    p.handler = recordsStages;
    return p;
}

} // namespace pb::cli
