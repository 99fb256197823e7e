// The child process of tst_team: one client of a shared database doing what a team member's client
// does, many times, while other children do the same. Usage:
//   pb_teamchild receipts DB N TAG     appends N receipts (kind evidence.check, one at a time, each its
//                                      own transaction, through receipts::Ledger::record)
// DB is what --db takes (a SQLite file, or a PostgreSQL URI; the password from PGPASSFILE). Prints
// "done N" and exits 0 when every write succeeded; otherwise the first error and exits 1.
#include "db/Database.h"
#include "receipts/Kinds.h"
#include "receipts/Ledger.h"

#include <QCoreApplication>

#include <cstdio>

using namespace pb;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList a = app.arguments();
    if (a.size() != 5 || a[1] != QLatin1String("receipts"))
        return 2;
    Result<std::unique_ptr<db::Database>> db = db::Database::open(a[2]);
    if (!db) {
        std::fprintf(stderr, "%s\n", qPrintable(db.error().toString()));
        return 1;
    }
    bool isNumber = false;
    const int n = a[3].toInt(&isNumber);
    if (!isNumber || n < 0)
        return 2;
    receipts::Ledger ledger(**db);
    for (int i = 1; i <= n; ++i) {
        receipts::ReceiptDraft d;
        d.kind = receipts::kinds::EvidenceCheck;
        d.message = QStringLiteral("%1 #%2").arg(a[4]).arg(i);
        Result<receipts::Receipt> r = ledger.record(d);
        if (!r) {
            std::fprintf(stderr, "receipt %d: %s\n", i, qPrintable(r.error().toString()));
            return 1;
        }
    }
    std::printf("done %d\n", n);
    return 0;
}
