// What the Receipts commands share (one command per file: ReceiptsListCommand.cpp, ReceiptsShowCommand.cpp,
// ReceiptsVerifyCommand.cpp, ReceiptsExportCommand.cpp, RecordsImportCommand.cpp, RecordsCheckCommand.cpp,
// RecordsStagesCommand.cpp).
#pragma once

#include "cli/CliUtil.h"

#include "core/Files.h"
#include "ops/ReceiptsExport.h"
#include "ops/ReceiptsVerify.h"
#include "ops/RecordsCheck.h"
#include "ops/RecordsImport.h"
#include "receipts/Canonical.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pb::cli {

using namespace pb::receipts;

inline bool asJson(const QCommandLineParser& p) {
    return p.value(QStringLiteral("format")) == QLatin1String("json");
}

inline QString artifactLine(const Artifact& a) {
    QString s = a.name;
    if (!a.sha256.isEmpty())
        s += QStringLiteral("  sha256:") + a.sha256;
    if (a.size >= 0)
        s += QStringLiteral("  %1 bytes").arg(a.size);
    return s;
}

inline QString receiptText(const Receipt& r) {
    QString s;
    s += QStringLiteral("receipt #%1  %2\n").arg(r.seq).arg(r.kind);
    s += QStringLiteral("  time:       %1\n  version:    %2\n  result:     %3%4\n")
             .arg(isoTime(r.time), r.version, outcomeName(r.result),
                  r.message.isEmpty() ? QString() : QStringLiteral(" - ") + r.message);
    s += QStringLiteral("  parameters: %1\n").arg(QString::fromUtf8(canonicalJson(r.parameters)));
    for (const Artifact& a : r.inputs)
        s += QStringLiteral("  input:      %1\n").arg(artifactLine(a));
    for (const Artifact& a : r.outputs)
        s += QStringLiteral("  output:     %1\n").arg(artifactLine(a));
    s += QStringLiteral("  prev:       %1\n  hash:       %2\n").arg(r.prevHash, r.hash);
    return s;
}

// ---- records ----------------------------------------------------------------------------------
inline int recordsCheckOrStages(const QCommandLineParser& p, bool stagesOnly) {
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
        report = ops::checkRecords(ops::Context(*db),
                                   ops::RecordsCheckRequest{p.positionalArguments().constFirst()});
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
                             .arg(s.record.isEmpty()
                                      ? QStringLiteral("-")
                                      : s.record + QStringLiteral("  [") + s.detail + QLatin1Char(']'));
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

inline int recordsCheck(const QCommandLineParser& p) {
    return recordsCheckOrStages(p, false);
}

inline int recordsStages(const QCommandLineParser& p) {
    return recordsCheckOrStages(p, true);
}

// check and stages read the same directory the same way.
inline Command recordsCommand(const QString& name, const QString& summary, const QString& description) {
    Command p(name, summary, description);
    addDb(p);
    addFormat(p, QStringLiteral("text|json"), QStringLiteral("text"));
    p.addPositionalArgument(
        QStringLiteral("DIR"),
        QStringLiteral("A directory of ConfigHub records (an entry, or a tree of them)."));
    return p;
}

} // namespace pb::cli
