// The Verify view's TUF update (TufUpdateDialog, opened from VerifyPane's "From TUF…" button) driven
// as a user would, on the real Sigstore TUF repository copy: the steps appear, the verified root is
// stored, selected in the pane and its provenance shown; an expired repository says which role
// expired and stores nothing; Cancel and Close leave nothing half-done.
#include "TufUpdateDialog.h"
#include "VerifyPane.h"
#include "db/Database.h"
#include "store/VerificationStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;
using widgets::TufUpdateDialog;
using widgets::VerifyPane;

namespace {

QString tufRepo() { return QDir::cleanPath(QStringLiteral(PB_SHARED_DATA "/sigstore/tuf")); }

int rows(db::Database& db, const char* table) {
    QSqlQuery q(db.sql());
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(QString::fromLatin1(table))) && q.next() ? q.value(0).toInt() : -1;
}

QStringList column(const QStandardItemModel* m, int col) {
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, col).data().toString();
    return out;
}

} // namespace

class TstTufUpdateDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

  private slots:
    void initTestCase() {
        if (!QFileInfo::exists(tufRepo() + QStringLiteral("/metadata/root.json")))
            QSKIP(qPrintable(QStringLiteral("shared data not found at %1; skipping").arg(tufRepo())));
    }

    void updatesFromTheRealRepository() {
        auto opened = db::Database::open(m_tmp.filePath(QStringLiteral("gui.sqlite")));
        QVERIFY(opened);
        db::Database& db = **opened;
        VerifyPane pane(db);
        pane.resize(1400, 900);
        pane.show();
        auto* button = pane.findChild<QPushButton*>(QStringLiteral("verifyTufUpdate"));
        QVERIFY(button);
        QVERIFY(button->isEnabled());
        button->click();
        auto* dialog = pane.findChild<TufUpdateDialog*>(QStringLiteral("tufUpdateDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->updateButton()->isEnabled()); // no folder yet

        // Type the folder and the time as a user would; the anchor stays the shipped one.
        auto* repo = dialog->findChild<QLineEdit*>(QStringLiteral("tufRepository"));
        QTest::keyClicks(repo, tufRepo());
        QVERIFY(dialog->updateButton()->isEnabled());
        QVERIFY(dialog->findChild<QLineEdit*>(QStringLiteral("tufAnchor"))->text().isEmpty());
        dialog->findChild<QCheckBox*>(QStringLiteral("tufUseTime"))->setChecked(true);
        auto* time = dialog->findChild<QDateTimeEdit*>(QStringLiteral("tufTime"));
        QVERIFY(time->isEnabled());
        time->setDateTime(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC));
        QCOMPARE(dialog->verificationTime(), std::optional<QDateTime>(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC)));

        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QSignalSpy updated(dialog, &TufUpdateDialog::updated);
        QTest::mouseClick(dialog->updateButton(), Qt::LeftButton);
        QVERIFY(dialog->isRunning() || finished.count() == 1);
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QCOMPARE(updated.count(), 1);
        QVERIFY(!dialog->isRunning());
        QVERIFY(dialog->updateButton()->isEnabled());
        QVERIFY(!dialog->cancelButton()->isEnabled());

        // Each step: the anchor, the root chain 13 -> 14 -> 15, expiry, each role, the target.
        const QStandardItemModel* steps = dialog->stepsModel();
        QCOMPARE(steps->rowCount(), 8);
        QCOMPARE(column(steps, 1), (QStringList{QStringLiteral("anchor"), QStringLiteral("root"), QStringLiteral("root"), QStringLiteral("root"),
                                                 QStringLiteral("timestamp"), QStringLiteral("snapshot"), QStringLiteral("targets"),
                                                 QStringLiteral("target")}));
        QVERIFY(column(steps, 2).at(1).contains(QStringLiteral("root v13 -> v14")));
        QVERIFY(column(steps, 2).at(3).contains(QStringLiteral("valid until 2026-11-20T13:58:18Z")));
        for (const QString& r : column(steps, 0))
            QVERIFY(r.contains(QStringLiteral("ok")));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("Verified and stored")), qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("TUF root v15")));

        // The pane shows the new default root and where it came from.
        QCOMPARE(rows(db, "trusted_roots"), 1);
        QCOMPARE(rows(db, "trusted_root_provenance"), 1);
        QCOMPARE(pane.selectedTrustedRoot(), dialog->lastTrustedRootId());
        auto* combo = pane.findChild<QComboBox*>(QStringLiteral("verifyTrustedRoot"));
        QVERIFY(combo->currentText().contains(QStringLiteral("(default)")));
        auto* provenance = pane.findChild<QLabel*>(QStringLiteral("verifyRootProvenance"));
        QVERIFY(provenance);
        QVERIFY2(provenance->text().contains(QStringLiteral("From TUF: TUF root v15 (chain from v13), timestamp v762, snapshot v165, targets v14")),
                 qPrintable(provenance->text()));
        QVERIFY(provenance->text().contains(QStringLiteral("as of 2026-08-22T00:00:00Z (time given)")));
        QCOMPARE(pane.trustedRootProvenanceText(), provenance->text());

        // The same button brings back the same dialog.
        button->click();
        QCOMPARE(pane.findChildren<TufUpdateDialog*>().size(), 1);
        dialog->close();
    }

    void expiredRepositoryStoresNothing() {
        if (QDateTime::currentDateTimeUtc() < QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC))
            QSKIP("the copy's root has not expired yet on this clock");
        auto opened = db::Database::open(m_tmp.filePath(QStringLiteral("expired.sqlite")));
        QVERIFY(opened);
        VerifyPane pane(**opened);
        TufUpdateDialog* dialog = pane.openTufUpdate();
        dialog->setRepository(tufRepo());
        QVERIFY(!dialog->verificationTime()); // now
        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QVERIFY(dialog->start());
        QVERIFY(!dialog->start()); // one run at a time
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(dialog->resultText().contains(QStringLiteral("root v15 expired 2026-11-20T13:58:18Z")), qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("Nothing was stored")));
        const QStandardItemModel* steps = dialog->stepsModel();
        QVERIFY(steps->rowCount() >= 4);
        QVERIFY(steps->index(steps->rowCount() - 1, 0).data().toString().contains(QStringLiteral("failed")));
        QCOMPARE(rows(**opened, "trusted_roots"), 0);
        QVERIFY(pane.trustedRootProvenanceText().isEmpty());
    }

    void wrongAnchorAndCancel() {
        auto opened = db::Database::open(m_tmp.filePath(QStringLiteral("anchor.sqlite")));
        QVERIFY(opened);
        VerifyPane pane(**opened);
        TufUpdateDialog* dialog = pane.openTufUpdate();
        dialog->setRepository(tufRepo());
        dialog->setAnchor(tufRepo() + QStringLiteral("/metadata/timestamp.json"));
        dialog->setVerificationTime(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC));
        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QVERIFY(dialog->start());
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("anchor")) && dialog->resultText().contains(QStringLiteral("expected 'root'")),
                 qPrintable(dialog->resultText()));
        QCOMPARE(rows(**opened, "trusted_roots"), 0);

        // Cancel right after starting: stops at the next file, stores nothing.
        dialog->setAnchor(QString());
        QVERIFY(dialog->start());
        dialog->cancelRun();
        QVERIFY(finished.wait(30000));
        // Nothing half-done: either the run stopped (nothing stored) or it had already finished whole.
        if (!finished.last().at(0).toBool()) {
            QCOMPARE(rows(**opened, "trusted_roots"), 0);
            QVERIFY(dialog->resultText().contains(QStringLiteral("cancelled")));
        } else {
            QCOMPARE(rows(**opened, "trusted_root_provenance"), 1);
        }
        QVERIFY(dialog->updateButton()->isEnabled());
    }
};

QTEST_MAIN(TstTufUpdateDialog)
#include "tst_tufupdatedialog.moc"
