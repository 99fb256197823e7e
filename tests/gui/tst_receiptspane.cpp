// The Receipts view on a real database: actions leave rows; a receipt edited in the SQLite file
// (QSqlQuery on a second connection) turns the banner to "broken at" that receipt; the filters;
// the detail shows digests; the records tab shows the stage table of the fixture entry after an
// import on the worker.
#include "GuiTestUtil.h"
#include "TestUtil.h"

#include "ReceiptModels.h"
#include "ReceiptsPane.h"
#include "Workspace.h"

#include "receipts/Canonical.h"
#include "receipts/Ledger.h"
#include "receipts/Records.h"
#include "sigstore/Keys.h"

#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableView>
#include <QTest>
#include <QToolTip>

using namespace pb;
using namespace pb::widgets;

class TestReceiptsPane : public QObject {
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void actionsLeaveRows();
    void tamperedReceiptBreaksBanner();
    void filters();
    void detailShowsDigests();
    void exportLedger();
    void checkpointLine();
    void cutTextShowsWhole();
    void recordsTab();

  private:
    qint64 record(const QString& kind, receipts::Outcome result, const QString& message,
                  const QByteArray& output = {});
    // refresh(), and waits until the pane shows what it read (on the workspace's worker).
    bool refreshed();
    std::unique_ptr<pbgui::SeededDb> m_db;
    std::unique_ptr<models::Workspace> m_workspace;
    std::unique_ptr<ReceiptsPane> m_pane;
};

namespace {

// The key encrypted with `pass`, written to `path` as a user's key file; empty when that failed.
QString writeEncryptedKey(const sigstore::crypto::Pkey& key, const sigstore::Passphrase& pass,
                          const QString& path) {
    Result<QByteArray> pem = sigstore::encryptPrivateKey(key.get(), pass);
    QFile f(path);
    if (!pem || !f.open(QIODevice::WriteOnly) || f.write(*pem) != pem->size())
        return {};
    return path;
}

} // namespace

qint64 TestReceiptsPane::record(const QString& kind, receipts::Outcome result, const QString& message,
                                const QByteArray& output) {
    receipts::ReceiptDraft d;
    d.kind = kind;
    d.result = result;
    d.message = message;
    if (!output.isEmpty())
        d.outputs.push_back(receipts::Artifact::bytes(QStringLiteral("out-%1.txt").arg(kind), output));
    Result<receipts::Receipt> r = receipts::recordAction(m_db->path(), d);
    return r ? r->seq : 0;
}

bool TestReceiptsPane::refreshed() {
    QSignalSpy done(m_pane.get(), &ReceiptsPane::refreshed);
    m_pane->refresh();
    return done.wait(30000);
}

void TestReceiptsPane::init() {
    m_db = pbgui::seededDatabase();
    QVERIFY2(m_db->error.isEmpty(), qPrintable(m_db->error));
    m_workspace = std::make_unique<models::Workspace>(m_db->path());
    m_pane = std::make_unique<ReceiptsPane>(*m_workspace);
    m_pane->resize(1100, 700);
    m_pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
    // The ledger is read on a worker: it arrives after the pane is on screen.
    QTRY_VERIFY(m_pane->ledgerModel()->rowCount() > 0);
}

void TestReceiptsPane::cleanup() {
    m_pane.reset();
    m_workspace.reset();
    m_db.reset();
}

void TestReceiptsPane::actionsLeaveRows() {
    // The embedded catalog's two imports are on the ledger already.
    const int before = m_pane->ledgerModel()->rowCount();
    QVERIFY(before >= 2);
    QCOMPARE(m_pane->ledgerModel()->index(0, models::ReceiptTableModel::KindColumn).data().toString(),
             QStringLiteral("catalog.import"));
    QVERIFY(record(QStringLiteral("report.export"), receipts::Outcome::Ok, QStringLiteral("a report"),
                   "pdf bytes"));
    QVERIFY(record(QStringLiteral("sign.blob"), receipts::Outcome::Failed, QStringLiteral("bad passphrase")));
    QVERIFY(refreshed());
    QCOMPARE(m_pane->ledgerModel()->rowCount(), before + 2);
    QVERIFY(m_pane->chain().ok);
    QVERIFY2(m_pane->bannerText().contains(QStringLiteral("intact")), qPrintable(m_pane->bannerText()));
    const int last = m_pane->ledgerModel()->rowCount() - 1;
    QCOMPARE(m_pane->ledgerModel()->index(last, models::ReceiptTableModel::KindColumn).data().toString(),
             QStringLiteral("sign.blob"));
    QCOMPARE(m_pane->ledgerModel()->index(last, models::ReceiptTableModel::ResultColumn).data().toString(),
             QStringLiteral("failed"));
}

void TestReceiptsPane::tamperedReceiptBreaksBanner() {
    const qint64 a = record(QStringLiteral("evidence.check"), receipts::Outcome::Ok, QStringLiteral("first"));
    const qint64 b =
        record(QStringLiteral("evidence.check"), receipts::Outcome::Ok, QStringLiteral("second"));
    record(QStringLiteral("evidence.check"), receipts::Outcome::Ok, QStringLiteral("third"));
    QVERIFY(a && b);
    QVERIFY(refreshed());
    QVERIFY(m_pane->chain().ok);
    {
        // Somebody with write access to the file (on a server: its superuser, triggers off) changes
        // what receipt b says; the append-only triggers stop anybody less.
        const QString spec =
            pb::test::onPostgres() ? pb::test::pgSpecAs(m_db->path(), pb::test::pgSuperuser()) : m_db->path();
        auto other = db::Database::open(spec);
        QVERIFY2(other, qPrintable(other ? QString() : other.error().toString()));
        QSqlQuery q((*other)->sql());
        QVERIFY2(q.exec(pb::test::onPostgres() ? QStringLiteral("SET session_replication_role = replica")
                                               : QStringLiteral("DROP TRIGGER receipts_no_update")),
                 qPrintable(q.lastError().text()));
        q.prepare(QStringLiteral("UPDATE receipts SET result = 'ok', message = 'rewritten' WHERE seq = ?"));
        q.addBindValue(b);
        QVERIFY(q.exec());
        QCOMPARE(q.numRowsAffected(), 1);
    }
    QVERIFY(refreshed());
    QVERIFY(!m_pane->chain().ok);
    QCOMPARE(m_pane->chain().firstBadSeq, b);
    QVERIFY2(m_pane->bannerText().contains(QStringLiteral("broken at receipt #%1 (edited)").arg(b)),
             qPrintable(m_pane->bannerText()));
}

void TestReceiptsPane::filters() {
    record(QStringLiteral("sign.blob"), receipts::Outcome::Ok, QStringLiteral("alpha signature"));
    record(QStringLiteral("sign.evidence"), receipts::Outcome::Failed, QStringLiteral("beta refused"));
    record(QStringLiteral("bundle.verify"), receipts::Outcome::Partial, QStringLiteral("gamma partial"));
    QVERIFY(refreshed());
    models::ReceiptFilterProxy* proxy = m_pane->ledgerProxy();
    const int all = proxy->rowCount();

    m_pane->setKindFilter(QStringLiteral("sign."));
    QCOMPARE(pbgui::column(*proxy, models::ReceiptTableModel::KindColumn),
             (QStringList{QStringLiteral("sign.blob"), QStringLiteral("sign.evidence")}));
    m_pane->setKindFilter(QStringLiteral("sign.blob"));
    QCOMPARE(proxy->rowCount(), 1);
    m_pane->setKindFilter(QString());
    QCOMPARE(proxy->rowCount(), all);

    m_pane->setResultFilter(receipts::Outcome::Failed);
    QCOMPARE(pbgui::column(*proxy, models::ReceiptTableModel::SummaryColumn),
             QStringList{QStringLiteral("beta refused")});
    m_pane->setResultFilter(std::nullopt);

    // Filter as you type, through the line edit.
    auto* edit = pbgui::findNamed<QLineEdit>(m_pane.get(), "receiptFilter");
    QVERIFY(edit);
    QTest::keyClicks(edit, QStringLiteral("gamma"));
    QCOMPARE(pbgui::column(*proxy, models::ReceiptTableModel::KindColumn),
             QStringList{QStringLiteral("bundle.verify")});
    edit->clear();
    QCOMPARE(proxy->rowCount(), all);

    // Time: everything was written just now; a range that ends before it hides it all.
    m_pane->setTimeRange(ReceiptsPane::TimeRange::LastHour);
    QCOMPARE(proxy->rowCount(), all);
    proxy->setTimeRange(QDateTime(), QDateTime::currentDateTimeUtc().addDays(-1));
    QCOMPARE(proxy->rowCount(), 0);
    m_pane->setTimeRange(ReceiptsPane::TimeRange::Any);
    QCOMPARE(proxy->rowCount(), all);

    // Issue 30: the count beside the filters and the banner are recounts of the rows under them.
    auto* count = pbgui::findNamed<QLabel>(m_pane.get(), "receiptCount");
    QVERIFY(count);
    const int ledger = m_pane->ledgerModel()->rowCount();
    for (const QString& kind : {QStringLiteral("sign."), QStringLiteral("bundle.verify"), QString()}) {
        m_pane->setKindFilter(kind);
        QCOMPARE(count->text(), QStringLiteral("%1 of %2").arg(proxy->rowCount()).arg(ledger));
    }
    QVERIFY2(m_pane->bannerText().contains(QStringLiteral("%1 receipts;").arg(ledger)),
             qPrintable(m_pane->bannerText()));
}

void TestReceiptsPane::detailShowsDigests() {
    const QByteArray bytes = "the report bytes\n";
    const qint64 seq =
        record(QStringLiteral("report.export"), receipts::Outcome::Ok, QStringLiteral("digest test"), bytes);
    QVERIFY(seq);
    QVERIFY(refreshed());
    QVERIFY(m_pane->selectReceipt(seq));
    const QString sha =
        QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    QVERIFY2(m_pane->detailText().contains(QStringLiteral("sha256:") + sha),
             qPrintable(m_pane->detailText()));
    QVERIFY(m_pane->detailText().contains(QStringLiteral("Receipt #%1  report.export").arg(seq)));
    models::ArtifactTableModel* artifacts = m_pane->artifactModel();
    QCOMPARE(artifacts->rowCount(), 1);
    QCOMPARE(artifacts->index(0, models::ArtifactTableModel::DigestColumn).data().toString(),
             QStringLiteral("sha256:") + sha);
    QCOMPARE(artifacts->index(0, models::ArtifactTableModel::DirectionColumn).data().toString(),
             QStringLiteral("output"));
}

void TestReceiptsPane::exportLedger() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("ledger.json"));
    QSignalSpy exported(m_pane.get(), &ReceiptsPane::exportFinished);
    QVERIFY(m_pane->exportLedgerTo(path));
    QVERIFY(exported.wait(30000));
    QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("proofbench-receipts/v1"));
    QCOMPARE(o.value(QStringLiteral("receipts")).toArray().size(), m_pane->ledgerModel()->rowCount());

    // A signed head with a real encrypted key.
    const sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    const sigstore::Passphrase pass(QByteArrayLiteral("pane-test-passphrase"));
    const QString keyPath = writeEncryptedKey(key, pass, tmp.filePath(QStringLiteral("key.pem")));
    QVERIFY(!keyPath.isEmpty());
    QVERIFY(refreshed()); // with the ledger export's own receipt, if it wrote one
    const int before = m_pane->ledgerModel()->rowCount();
    QVERIFY(m_pane->exportSignedHead(keyPath, pass, tmp.filePath(QStringLiteral("head.json")),
                                     tmp.filePath(QStringLiteral("head.sigstore.json"))));
    QVERIFY(exported.wait(60000));
    QVERIFY2(exported.at(1).at(0).toBool(), qPrintable(exported.at(1).at(1).toString()));
    QVERIFY(QFileInfo(tmp.filePath(QStringLiteral("head.sigstore.json"))).size() > 0);
    // The ledger is read again after the export: the signed head's receipt is on it.
    QTRY_COMPARE(m_pane->ledgerModel()->rowCount(), before + 1);
    const receipts::Receipt* last = m_pane->ledgerModel()->receiptAt(before);
    QVERIFY(last);
    QCOMPARE(last->kind, QStringLiteral("receipts.sign-head"));
    QVERIFY(!QString::fromUtf8(receipts::canonicalJson(last->toJson()))
                 .contains(QStringLiteral("pane-test-passphrase")));
}

// Issue 28: the banner says whether the ledger is anchored outside the database, and after a
// checkpoint (written from the pane through the same operation as the CLI) which head it covers and
// how far the chain has grown since.
void TestReceiptsPane::checkpointLine() {
    QVERIFY2(m_pane->checkpointText().contains(QStringLiteral("No checkpoint")),
             qPrintable(m_pane->checkpointText()));
    QTemporaryDir tmp;
    const sigstore::crypto::Pkey key = sigstore::generateSigningKey();
    const sigstore::Passphrase pass(QByteArrayLiteral("checkpoint-pass"));
    const QString keyPath = writeEncryptedKey(key, pass, tmp.filePath(QStringLiteral("key.pem")));
    QVERIFY(!keyPath.isEmpty());
    QVERIFY(refreshed());
    const qint64 head = m_pane->chain().head.seq;
    QSignalSpy done(m_pane.get(), &ReceiptsPane::exportFinished);
    const QString file = tmp.filePath(QStringLiteral("checkpoint.json"));
    QVERIFY(m_pane->writeCheckpoint(keyPath, pass, file));
    QVERIFY(done.wait(60000));
    QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
    QVERIFY(QFileInfo(file).size() > 0);
    QTRY_VERIFY(m_pane->checkpointText().contains(QStringLiteral("Last checkpoint: head #%1 ").arg(head)));
    QVERIFY2(m_pane->checkpointText().contains(QStringLiteral("grown by 1 receipt")),
             qPrintable(m_pane->checkpointText()));
    QVERIFY(m_pane->checkpointText().contains(sigstore::keyFingerprint(key.get())));
    record(QStringLiteral("report.export"), receipts::Outcome::Ok, QStringLiteral("later"));
    record(QStringLiteral("report.export"), receipts::Outcome::Ok, QStringLiteral("later still"));
    QVERIFY(refreshed());
    QVERIFY2(m_pane->checkpointText().contains(QStringLiteral("grown by 3 receipt")),
             qPrintable(m_pane->checkpointText()));
}

// Issue 30: text cut to fit a column elides at its end and shows whole as its tooltip (every table set
// up by setupTable); a model's own tooltip wins.
void TestReceiptsPane::cutTextShowsWhole() {
    QTableView* view = m_pane->ledgerView();
    QCOMPARE(view->textElideMode(), Qt::ElideRight);
    view->setColumnWidth(models::ReceiptTableModel::TimeColumn, 40);
    const QModelIndex cell = view->model()->index(0, models::ReceiptTableModel::TimeColumn);
    const QString whole = cell.data().toString();
    QVERIFY(view->fontMetrics().horizontalAdvance(whole) > 40);
    const QPoint at = view->visualRect(cell).center();
    QHelpEvent help(QEvent::ToolTip, at, view->viewport()->mapToGlobal(at));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), whole);
    QToolTip::hideText();
}

void TestReceiptsPane::recordsTab() {
    const QString dir = pbtest::fixture(QStringLiteral("receipts/entry"));
    Result<receipts::RecordsReport> expected = receipts::readRecords(dir);
    QVERIFY(expected);
    QVERIFY(!expected->stages.empty());
    const QString entry = expected->stages.front().entry;

    QSignalSpy done(m_pane.get(), &ReceiptsPane::recordsImported);
    QVERIFY(m_pane->importRecords(dir));
    QVERIFY(m_pane->isImporting());
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
    QCOMPARE(m_pane->recordModel()->rowCount(), int(expected->records.size()));
    QVERIFY(m_pane->selectEntry(entry));
    models::StageTableModel* stages = m_pane->stageModel();
    // The pane shows the stage table of the stored records (receipts::storedRecords).
    Result<std::vector<receipts::ExternalRecord>> stored = receipts::storedRecords(*m_db->db);
    QVERIFY(stored);
    const std::vector<receipts::StageRow> want = receipts::stageTable(entry, *stored);
    QVERIFY(!want.empty());
    QCOMPARE(stages->rowCount(), int(want.size()));
    for (int r = 0; r < stages->rowCount(); ++r) {
        QCOMPARE(stages->index(r, models::StageTableModel::StageColumn).data().toString(),
                 want[size_t(r)].stage);
        QCOMPARE(stages->index(r, models::StageTableModel::ResultColumn).data().toString(),
                 receipts::stageResultName(want[size_t(r)].result));
    }
    // The import is on the ledger too.
    QCOMPARE(m_pane->ledgerModel()->receiptAt(m_pane->ledgerModel()->rowCount() - 1)->kind,
             QStringLiteral("records.import"));
}

QTEST_MAIN(TestReceiptsPane)
#include "tst_receiptspane.moc"
