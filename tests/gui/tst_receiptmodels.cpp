// The Receipts view's models under QAbstractItemModelTester, on a real ledger and the records
// fixture: rows and columns, roles, the filter proxy's kind/result/time/text rules, resets.
#include "GuiTestUtil.h"
#include "TestUtil.h"

#include "ReceiptModels.h"

#include "receipts/Ledger.h"
#include "receipts/Records.h"

#include <QTest>
#include <QTimeZone>

using namespace pb;
using namespace pb::models;

class TestReceiptModels : public QObject {
    Q_OBJECT

  private slots:
    void ledgerAndProxy();
    void artifacts();
    void recordsAndStages();
};

namespace {

std::vector<receipts::Receipt> sampleLedger(pbgui::SeededDb& db) {
    receipts::Ledger ledger(*db.db);
    QDateTime t(QDate(2026, 11, 1), QTime(12, 0), QTimeZone::utc());
    ledger.setClock([&t] { return t; });
    const struct {
        const char* kind;
        receipts::Outcome result;
        const char* message;
        int hours;
    } rows[] = {{"sign.blob", receipts::Outcome::Ok, "signed notes.txt", 0},
                {"sign.evidence", receipts::Outcome::Failed, "wrong passphrase", 24},
                {"bundle.verify", receipts::Outcome::Partial, "two of three layers", 48},
                {"report.export", receipts::Outcome::Ok, "pdf report of sample-2", 72}};
    for (const auto& r : rows) {
        t = QDateTime(QDate(2026, 11, 1), QTime(12, 0), QTimeZone::utc()).addSecs(3600LL * r.hours);
        receipts::ReceiptDraft d;
        d.kind = QString::fromLatin1(r.kind);
        d.result = r.result;
        d.message = QString::fromLatin1(r.message);
        d.inputs.push_back(
            receipts::Artifact::bytes(QStringLiteral("input-%1").arg(d.kind), QByteArray(r.message)));
        if (!ledger.record(d))
            return {};
    }
    Result<std::vector<receipts::Receipt>> all = ledger.list();
    return all ? *all : std::vector<receipts::Receipt>{};
}

} // namespace

void TestReceiptModels::ledgerAndProxy() {
    auto db = pbgui::seededDatabase();
    QVERIFY2(db->error.isEmpty(), qPrintable(db->error));
    std::vector<receipts::Receipt> rows = sampleLedger(*db);
    QVERIFY(rows.size() >= 6); // two catalog imports + four

    ReceiptTableModel model;
    QAbstractItemModelTester t1(&model, pbgui::kTesterMode);
    ReceiptFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester t2(&proxy, pbgui::kTesterMode);
    model.setReceipts(rows);
    QCOMPARE(model.rowCount(), int(rows.size()));
    QCOMPARE(model.columnCount(), int(ReceiptTableModel::ColumnCount));
    QCOMPARE(model.rowOf(rows.back().seq), int(rows.size()) - 1);
    QVERIFY(model.kinds().contains(QStringLiteral("catalog.import")));
    const int last = model.rowCount() - 1;
    QCOMPARE(model.index(last, ReceiptTableModel::SeqColumn).data().toLongLong(), rows.back().seq);
    QCOMPARE(model.index(last, ReceiptTableModel::TimeColumn).data().toString(),
             QStringLiteral("2026-11-04 12:00:00"));
    QCOMPARE(model.index(last, ReceiptTableModel::KindColumn).data().toString(),
             QStringLiteral("report.export"));
    QCOMPARE(model.index(last, ReceiptTableModel::ResultColumn).data().toString(), QStringLiteral("ok"));
    QCOMPARE(model.index(last, ReceiptTableModel::SummaryColumn).data().toString(),
             QStringLiteral("pdf report of sample-2"));

    proxy.setKind(QStringLiteral("sign."));
    QCOMPARE(proxy.rowCount(), 2);
    proxy.setResult(receipts::Outcome::Failed);
    QCOMPARE(pbgui::column(proxy, ReceiptTableModel::SummaryColumn),
             QStringList{QStringLiteral("wrong passphrase")});
    proxy.setKind({});
    proxy.setResult(std::nullopt);
    proxy.setTimeRange(QDateTime(QDate(2026, 11, 2), QTime(0, 0), QTimeZone::utc()),
                       QDateTime(QDate(2026, 11, 3), QTime(23, 0), QTimeZone::utc()));
    QCOMPARE(pbgui::column(proxy, ReceiptTableModel::KindColumn),
             (QStringList{QStringLiteral("sign.evidence"), QStringLiteral("bundle.verify")}));
    proxy.setTimeRange({}, {});
    // Text matches artifact names and digests too.
    proxy.setText(QStringLiteral("input-bundle.verify"));
    QCOMPARE(proxy.rowCount(), 1);
    proxy.setText(rows.back().inputs.front().sha256.left(16).toUpper());
    QCOMPARE(pbgui::column(proxy, ReceiptTableModel::KindColumn),
             QStringList{QStringLiteral("report.export")});
    proxy.setText({});
    QCOMPARE(proxy.rowCount(), model.rowCount());

    model.setReceipts({});
    QCOMPARE(proxy.rowCount(), 0);
}

void TestReceiptModels::artifacts() {
    ArtifactTableModel model;
    QAbstractItemModelTester tester(&model, pbgui::kTesterMode);
    receipts::Receipt r;
    r.inputs.push_back(receipts::Artifact::bytes(QStringLiteral("in.txt"), "abc"));
    r.outputs.push_back(
        receipts::Artifact::digest(QStringLiteral("catalog version v1"), QString(64, QLatin1Char('e'))));
    model.setReceipt(&r);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, ArtifactTableModel::DirectionColumn).data().toString(), QStringLiteral("input"));
    QCOMPARE(model.index(0, ArtifactTableModel::DigestColumn).data().toString(),
             QStringLiteral("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(model.index(0, ArtifactTableModel::SizeColumn).data(Qt::EditRole).toLongLong(), 3);
    QCOMPARE(model.index(1, ArtifactTableModel::DirectionColumn).data().toString(), QStringLiteral("output"));
    QCOMPARE(model.index(1, ArtifactTableModel::SizeColumn).data().toString(), QStringLiteral("-"));
    model.setReceipt(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestReceiptModels::recordsAndStages() {
    Result<receipts::RecordsReport> report =
        receipts::readRecords(pbtest::fixture(QStringLiteral("receipts/entry")));
    QVERIFY2(report, report ? "" : qPrintable(report.error().toString()));
    QVERIFY(!report->records.empty());
    ExternalRecordModel records;
    QAbstractItemModelTester t1(&records, pbgui::kTesterMode);
    records.setRecords(report->records);
    QCOMPARE(records.rowCount(), int(report->records.size()));
    QCOMPARE(records.index(0, ExternalRecordModel::KindColumn).data().toString(),
             report->records.front().kind);
    QCOMPARE(records.index(0, ExternalRecordModel::DigestColumn).data().toString(),
             QStringLiteral("sha256:") + report->records.front().sha256);
    QVERIFY(!records.entries().isEmpty());

    StageTableModel stages;
    QAbstractItemModelTester t2(&stages, pbgui::kTesterMode);
    const QString entry = records.entries().constFirst();
    stages.setStages(receipts::stageTable(entry, report->records));
    QVERIFY(stages.rowCount() > 0);
    int complete = 0;
    for (int r = 0; r < stages.rowCount(); ++r) {
        const QString result = stages.index(r, StageTableModel::ResultColumn).data().toString();
        QVERIFY(result == QLatin1String("complete") || result == QLatin1String("partial") ||
                result == QLatin1String("not run"));
        complete += result == QLatin1String("complete");
    }
    QVERIFY(complete > 0);
    stages.setStages({});
    QCOMPARE(stages.rowCount(), 0);
}

QTEST_MAIN(TestReceiptModels)
#include "tst_receiptmodels.moc"
