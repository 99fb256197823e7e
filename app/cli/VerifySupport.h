// What the Verify commands share (one command per file: VerifyCommand.cpp).
#pragma once

#include "cli/CliUtil.h"
#include "cli/Commands.h"

#include "db/Database.h"
#include "ops/TrustedRoots.h"
#include "ops/Verify.h"
#include "ops/VerifyBatch.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace pb::cli {

inline int printBatch(const ops::VerifyBatchOutcome& o, bool asJson) {
    for (const Error& e : o.unreadableLines)
        err() << e.toString() << Qt::endl;
    if (asJson) {
        QJsonArray cases;
        for (const ops::VerifyBatchCase& c : o.cases) {
            QJsonObject j = c.result.toJson();
            j.insert(QStringLiteral("case"), c.name);
            j.insert(QStringLiteral("expected"), c.expected);
            j.insert(QStringLiteral("asExpected"), c.asExpected);
            j.remove(QStringLiteral("statement"));
            cases.append(j);
        }
        printJson(QJsonObject{{QStringLiteral("cases"), cases},
                              {QStringLiteral("total"), o.total()},
                              {QStringLiteral("verified"), o.verified},
                              {QStringLiteral("asExpected"), o.asExpected}});
    } else {
        for (const ops::VerifyBatchCase& c : o.cases)
            out() << c.verdict() << '\t' << c.name << '\t' << (c.asExpected ? "as expected" : "UNEXPECTED")
                  << '\t' << c.result.summary() << '\n';
        const int unreadable = int(o.unreadableLines.size());
        out() << QStringLiteral("%1 case(s): %2 verified, %3 refused; %4 as expected, %5 unexpected%6\n")
                     .arg(o.total())
                     .arg(o.verified)
                     .arg(o.total() - o.verified)
                     .arg(o.asExpected)
                     .arg(o.total() - o.asExpected)
                     .arg(unreadable ? QStringLiteral(", %1 manifest line(s) unreadable").arg(unreadable)
                                     : QString());
    }
    out().flush();
    return o.ok() ? kOk : kFailed;
}

} // namespace pb::cli
