// The Verify view's TUF update (TufUpdateDialog, opened from VerifyPane's "From TUF…" button) driven
// as a user would, on the real Sigstore TUF repository copy: the steps appear, the verified root is
// stored, selected in the pane and its provenance shown; an expired repository says which role
// expired and stores nothing; Cancel and Close leave nothing half-done; a second update continues
// from what the first trusted and refuses an older copy, unless "Start again from the anchor" is
// checked.
#include "TestDb.h"
#include "TufUpdateDialog.h"
#include "VerifyPane.h"
#include "db/Database.h"
#include "store/VerificationStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QDirIterator>
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

QString tufRepo() {
    return QDir::cleanPath(QStringLiteral(PB_SHARED_DATA "/sigstore/tuf"));
}

int rows(db::Database& db, const char* table) {
    QSqlQuery q(db.sql());
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(QString::fromLatin1(table))) && q.next()
               ? q.value(0).toInt()
               : -1;
}

QStringList column(const QStandardItemModel* m, int col) {
    QStringList out;
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, col).data().toString();
    return out;
}

// A copy of the repository whose root history stops at root v14 (an older state of it).
QString truncatedCopy(const QTemporaryDir& tmp) {
    const QString src = tufRepo(), dst = tmp.filePath(QStringLiteral("tuf-v14"));
    QDirIterator it(src, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QString to = dst + QLatin1Char('/') + QDir(src).relativeFilePath(f);
        QDir().mkpath(QFileInfo(to).path());
        QFile::copy(f, to);
    }
    QFile::remove(dst + QStringLiteral("/metadata/root_history/15.root.json"));
    QFile::remove(dst + QStringLiteral("/metadata/root.json"));
    QFile::copy(dst + QStringLiteral("/metadata/root_history/14.root.json"),
                dst + QStringLiteral("/metadata/root.json"));
    return dst;
}

bool runToEnd(TufUpdateDialog* dialog) {
    QSignalSpy finished(dialog, &TufUpdateDialog::finished);
    QTest::mouseClick(dialog->updateButton(), Qt::LeftButton);
    if (finished.count() == 0 && !finished.wait(30000))
        return false;
    return finished.at(0).at(0).toBool();
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
        PB_TEST_DATABASE(guiDb, m_tmp.path(), QStringLiteral("gui.sqlite"));
        auto opened = db::Database::open(guiDb.spec());
        QVERIFY(opened);
        db::Database& db = **opened;
        models::Workspace workspace(db.path());
        VerifyPane pane(workspace);
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
        QCOMPARE(dialog->verificationTime(),
                 std::optional<QDateTime>(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC)));
        // As of a time given, the root becomes the default only when the user says so (issue 30).
        auto* anyway = dialog->findChild<QCheckBox*>(QStringLiteral("tufDefaultAnyway"));
        QVERIFY(anyway && anyway->isEnabled() && !anyway->isChecked());
        anyway->setChecked(true);

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
        QCOMPARE(column(steps, 1),
                 (QStringList{QStringLiteral("anchor"), QStringLiteral("root"), QStringLiteral("root"),
                              QStringLiteral("root"), QStringLiteral("timestamp"), QStringLiteral("snapshot"),
                              QStringLiteral("targets"), QStringLiteral("target")}));
        QVERIFY(column(steps, 2).at(1).contains(QStringLiteral("root v13 -> v14")));
        QVERIFY(column(steps, 2).at(3).contains(QStringLiteral("valid until 2026-11-20T13:58:18Z")));
        for (const QString& r : column(steps, 0))
            QVERIFY(r.contains(QStringLiteral("ok")));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("Verified and stored")),
                 qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("TUF root v15")));

        // The pane shows the new default root and where it came from (read again on the worker).
        QCOMPARE(rows(db, "trusted_roots"), 1);
        QCOMPARE(rows(db, "trusted_root_provenance"), 1);
        QTRY_COMPARE(pane.selectedTrustedRoot(), dialog->lastTrustedRootId());
        auto* combo = pane.findChild<QComboBox*>(QStringLiteral("verifyTrustedRoot"));
        QVERIFY(combo->currentText().contains(QStringLiteral("(default)")));
        auto* provenance = pane.findChild<QLabel*>(QStringLiteral("verifyRootProvenance"));
        QVERIFY(provenance);
        QVERIFY2(provenance->text().contains(QStringLiteral(
                     "From TUF: TUF root v15 (chain from v13), timestamp v762, snapshot v165, targets v14")),
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
        PB_TEST_DATABASE(expiredDb, m_tmp.path(), QStringLiteral("expired.sqlite"));
        auto opened = db::Database::open(expiredDb.spec());
        QVERIFY(opened);
        models::Workspace workspace((*opened)->path());
        VerifyPane pane(workspace);
        TufUpdateDialog* dialog = pane.openTufUpdate();
        dialog->setRepository(tufRepo());
        QVERIFY(!dialog->verificationTime()); // now
        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QVERIFY(dialog->start());
        QVERIFY(!dialog->start()); // one run at a time
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QVERIFY2(dialog->resultText().contains(QStringLiteral("root v15 expired 2026-11-20T13:58:18Z")),
                 qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("Nothing was stored")));
        const QStandardItemModel* steps = dialog->stepsModel();
        QVERIFY(steps->rowCount() >= 4);
        QVERIFY(steps->index(steps->rowCount() - 1, 0).data().toString().contains(QStringLiteral("failed")));
        QCOMPARE(rows(**opened, "trusted_roots"), 0);
        QVERIFY(pane.trustedRootProvenanceText().isEmpty());
    }

    void startAgainFromTheAnchor() {
        PB_TEST_DATABASE(rollbackDb, m_tmp.path(), QStringLiteral("rollback.sqlite"));
        auto opened = db::Database::open(rollbackDb.spec());
        QVERIFY(opened);
        db::Database& db = **opened;
        models::Workspace workspace(db.path());
        VerifyPane pane(workspace);
        TufUpdateDialog* dialog = pane.openTufUpdate();
        auto* fromAnchor = dialog->findChild<QCheckBox*>(QStringLiteral("tufFromAnchor"));
        QVERIFY(fromAnchor);
        QCOMPARE(fromAnchor->text(),
                 QStringLiteral("Start again from the anchor, ignoring what was trusted before"));
        QVERIFY(!fromAnchor->isChecked());
        QVERIFY(fromAnchor->isEnabled());
        dialog->setRepository(tufRepo());
        dialog->setVerificationTime(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC));
        QVERIFY(runToEnd(dialog));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("The first update from this anchor")),
                 qPrintable(dialog->resultText()));

        // Again: the steps show the trusted state the chain continues from.
        QVERIFY(runToEnd(dialog));
        const QStandardItemModel* steps = dialog->stepsModel();
        QCOMPARE(steps->rowCount(), 7);
        QCOMPARE(steps->index(1, 1).data().toString(), QStringLiteral("trusted"));
        QVERIFY2(steps->index(1, 2).data().toString().startsWith(QStringLiteral(
                     "trusted state: root v15, timestamp v762, snapshot v165, targets v14 from ")),
                 qPrintable(steps->index(1, 2).data().toString()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("Continued from the trusted state of")));

        // An older copy of the repository is refused as a rollback; nothing changes.
        QTemporaryDir tmp;
        const QString older = truncatedCopy(tmp);
        auto* repo = dialog->findChild<QLineEdit*>(QStringLiteral("tufRepository"));
        repo->clear();
        QTest::keyClicks(repo, older);
        dialog->setVerificationTime(
            QDateTime(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC)); // root v14 still valid then
        QVERIFY(!runToEnd(dialog));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("older than the trusted root version 15")),
                 qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("what was trusted before is unchanged")));
        QCOMPARE(rows(db, "trusted_root_provenance"), 2);
        QSqlQuery q(db.sql());
        QVERIFY(q.exec(QStringLiteral("SELECT root_version FROM tuf_trusted_state")) && q.next());
        QCOMPARE(q.value(0).toInt(), 15);

        // The checkbox, clicked as a user would: the same copy verifies from the anchor.
        QTest::mouseClick(fromAnchor, Qt::LeftButton, {}, QPoint(8, fromAnchor->height() / 2));
        QVERIFY(fromAnchor->isChecked());
        QVERIFY(dialog->fromAnchor());
        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QTest::mouseClick(dialog->updateButton(), Qt::LeftButton);
        QVERIFY(!fromAnchor->isEnabled() || finished.count() == 1); // locked while running
        QVERIFY(finished.count() == 1 || finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        QVERIFY(fromAnchor->isEnabled());
        QCOMPARE(steps->index(0, 1).data().toString(), QStringLiteral("trusted"));
        QVERIFY2(steps->index(0, 2).data().toString().startsWith(
                     QStringLiteral("started again from the anchor as asked: the trusted state (root v15")),
                 qPrintable(steps->index(0, 2).data().toString()));
        QVERIFY(steps->index(1, 1).data().toString() == QStringLiteral("anchor"));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("Started again from the anchor as asked")),
                 qPrintable(dialog->resultText()));
        QVERIFY(dialog->resultText().contains(QStringLiteral("TUF root v14")));
        QVERIFY(q.exec(QStringLiteral("SELECT root_version FROM tuf_trusted_state")) && q.next());
        QCOMPARE(q.value(0).toInt(), 14);
        QVERIFY(q.exec(QStringLiteral(
                    "SELECT started_from FROM trusted_root_provenance ORDER BY id DESC LIMIT 1")) &&
                q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("anchor-requested"));
        dialog->close();
    }

    void wrongAnchorAndCancel() {
        PB_TEST_DATABASE(anchorDb, m_tmp.path(), QStringLiteral("anchor.sqlite"));
        auto opened = db::Database::open(anchorDb.spec());
        QVERIFY(opened);
        models::Workspace workspace((*opened)->path());
        VerifyPane pane(workspace);
        TufUpdateDialog* dialog = pane.openTufUpdate();
        dialog->setRepository(tufRepo());
        dialog->setAnchor(tufRepo() + QStringLiteral("/metadata/timestamp.json"));
        dialog->setVerificationTime(QDateTime(QDate(2026, 8, 22), QTime(0, 0), Qt::UTC));
        QSignalSpy finished(dialog, &TufUpdateDialog::finished);
        QVERIFY(dialog->start());
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog->resultText().contains(QStringLiteral("anchor")) &&
                     dialog->resultText().contains(QStringLiteral("expected 'root'")),
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
