// ops::updateTrustedRoot and `proofbench trusted-root update/list` against the real Sigstore TUF
// repository copy: the verified trusted_root.json stored byte for byte with its provenance and a
// receipt in one transaction; an expired or tampered repository stores nothing and says why; the CLI
// prints the same verdict (real binary, PB_CLI_BINARY). Rollback protection: the trusted state each
// successful update stores (tuf_trusted_state), used by the next update of the same anchor, left
// unchanged by a failed one, and ignored then replaced with --from-anchor. On both engines
// (DbFixture.h).
#include "DbFixture.h"
#include "TufFixture.h"
#include "TufTestRepo.h"

#include "db/Database.h"
#include "ops/TrustedRootUpdate.h"
#include "receipts/Ledger.h"
#include "store/VerificationStore.h"

#include <QJsonArray>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

int count(db::Database& db, const QString& table) {
    QSqlQuery q(db.sql());
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM ") + table) && q.next() ? q.value(0).toInt() : -1;
}

QVariant cell(db::Database& db, const QString& sql) {
    QSqlQuery q(db.sql());
    return q.exec(sql) && q.next() ? q.value(0) : QVariant();
}

// A copy of the real repository whose root history stops at root v14 (real files: 15.root.json
// removed, root.json holding v14's bytes): an older state of the same repository. Root v14 expired
// 2026-06-22, so on its own it verifies as of 2026-06-01.
QString truncatedCopy(const QTemporaryDir& tmp) {
    const QString repo = pbtest::copyTufRepo(tmp);
    QFile::remove(repo + QStringLiteral("/metadata/root_history/15.root.json"));
    pbtest::writeAll(repo + QStringLiteral("/metadata/root.json"),
                     pbtest::readAll(repo + QStringLiteral("/metadata/root_history/14.root.json")));
    return repo;
}

QDateTime v14ValidTime() {
    return QDateTime(QDate(2026, 6, 1), QTime(0, 0), Qt::UTC);
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    p.waitForFinished(120000);
    return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
               p.readAllStandardError()};
}

} // namespace

class TstTufUpdate : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    test::Databases m_dbs{m_tmp.path()};

    std::unique_ptr<db::Database> open(const QString& name) {
        auto db = m_dbs.open(name);
        if (!db)
            qWarning("%s", qPrintable(m_dbs.error()));
        return db;
    }

  private slots:
    void importsTheVerifiedRootWithProvenance() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        auto db = open(QStringLiteral("ok.sqlite"));
        QVERIFY(db);
        int progressed = 0;
        ops::Context ctx(*db, [&](const ops::Progress&) { ++progressed; });
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = pbtest::tufValidTime();
        req.makeDefaultWhenTimeGiven = true; // as of a time given: the default only when asked (issue 30)
        std::vector<tuf::ClientStep> seen;
        auto done = ops::updateTrustedRoot(ctx, req, [&](const tuf::ClientStep& s) { seen.push_back(s); });
        QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
        QVERIFY2(done->ok(), qPrintable(done->verification.error.toString()));
        QCOMPARE(int(seen.size()), 8);
        QCOMPARE(progressed, 8);
        QVERIFY(!done->alreadyStored);

        store::VerificationStore roots(*db);
        auto stored = roots.trustedRoots();
        QVERIFY(stored);
        QCOMPARE(int(stored->size()), 1);
        const auto& r = stored->front();
        QVERIFY(r.isDefault);
        QCOMPARE(r.sha256,
                 QStringLiteral("6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"));
        QSqlQuery q(db->sql());
        QVERIFY(q.exec(QStringLiteral("SELECT content FROM trusted_roots")) && q.next());
        QCOMPARE(q.value(0).toByteArray(),
                 pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/targets/trusted_root.json")));
        QVERIFY(r.provenance);
        const auto& p = *r.provenance;
        QCOMPARE(p.repository, pbtest::tufRepo());
        QCOMPARE(p.anchorName, QString(ops::kShippedTufAnchor));
        QCOMPARE(p.anchorVersion, 13);
        QCOMPARE(p.rootChain, (QList<qint64>{14, 15}));
        QCOMPARE(p.rootVersion, 15);
        QCOMPARE(p.timestampVersion, 762);
        QCOMPARE(p.snapshotVersion, 165);
        QCOMPARE(p.targetsVersion, 14);
        QCOMPARE(p.verificationTime, pbtest::tufValidTime());
        QVERIFY(p.timeGiven);
        QCOMPARE(p.earliestExpiry(), QDateTime(QDate(2026, 8, 28), QTime(19, 25, 56), Qt::UTC));
        QVERIFY(p.summary().contains(QStringLiteral("TUF root v15")));
        // The default root is usable for verification.
        auto def = roots.defaultTrustedRoot();
        QVERIFY(def && def->has_value());

        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts);
        QCOMPARE(receipts->back().kind, QString(ops::kTrustedRootUpdateKind));
        QCOMPARE(receipts->back().result, receipts::Outcome::Ok);
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("rootVersion")).toInteger(), 15);
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("verificationTime")).toString(),
                 QStringLiteral("2026-08-22T00:00:00Z"));
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("startedFrom")).toString(),
                 QStringLiteral("anchor")); // nothing trusted yet

        // Again: the same bytes, one more provenance row, the root not duplicated.
        auto again = ops::updateTrustedRoot(ctx, req);
        QVERIFY(again && again->ok());
        QVERIFY(again->alreadyStored);
        QCOMPARE(again->trustedRootId, done->trustedRootId);
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 1);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 2);
    }

    // Issue 28: a 16 GB sparse file beside the metadata is not read: the receipt records the files the
    // client used (each step's), and a file too large to be any input is named by size, unread.
    void filesNobodyUsesAreNotRead() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        QTemporaryDir tmp;
        const QString repo = tmp.filePath(QStringLiteral("tuf"));
        QCOMPARE(QProcess::execute(QStringLiteral("cp"), {QStringLiteral("-r"), pbtest::tufRepo(), repo}), 0);
        const QString sparse = repo + QStringLiteral("/metadata/huge.bin");
        {
            QFile f(sparse);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(16ll << 30)); // sparse: no disk used
        }
        auto db = open(QStringLiteral("sparse.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::TrustedRootUpdateRequest req;
        req.repository = repo;
        req.at = pbtest::tufValidTime();
        auto done = ops::updateTrustedRoot(ctx, req);
        QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
        QVERIFY2(done->ok(), qPrintable(done->verification.error.toString()));
        Result<receipts::Receipt> receipt = receipts::Ledger(*db).receipt(done->receiptSeq);
        QVERIFY(receipt);
        qint64 inputBytes = 0;
        QStringList names;
        for (const receipts::Artifact& a : receipt->inputs) {
            names << QFileInfo(a.name).fileName();
            inputBytes += a.size;
            QVERIFY2(!a.sha256.isEmpty(), qPrintable(a.name));
        }
        QVERIFY2(!names.contains(QStringLiteral("huge.bin")), qPrintable(names.join(QLatin1Char(','))));
        QVERIFY2(names.contains(QStringLiteral("timestamp.json")) &&
                     names.contains(QStringLiteral("trusted_root.json")),
                 qPrintable(names.join(QLatin1Char(','))));
        QVERIFY(inputBytes < (16ll << 20));
        // The same file given to something that records a whole folder is named by size, not read.
        const receipts::Artifact big = receipts::Artifact::file(sparse);
        QVERIFY(big.sha256.isEmpty());
        QCOMPARE(big.size, 16ll << 30);
    }

    void expiredOrTamperedStoresNothing() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        auto db = open(QStringLiteral("fail.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = QDateTime(QDate(2026, 11, 21), QTime(0, 0), Qt::UTC);
        auto done = ops::updateTrustedRoot(ctx, req);
        QVERIFY(done);
        QVERIFY(!done->ok());
        QCOMPARE(done->verification.failedRole, QStringLiteral("root"));
        QVERIFY(done->verification.error.message.startsWith(
            QStringLiteral("root v15 expired 2026-11-20T13:58:18Z")));
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 0);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 0);
        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts && !receipts->empty());
        QCOMPARE(receipts->back().result, receipts::Outcome::Failed);
        QVERIFY(receipts->back().message.contains(QStringLiteral("root v15 expired")));

        // A target that is not a Sigstore trusted root (signed, but another file): refused.
        QTemporaryDir tmp;
        const QString repo = pbtest::copyTufRepo(tmp);
        req.repository = repo;
        req.at = pbtest::tufValidTime();
        req.targetName = QStringLiteral("rekor.pub");
        auto other = ops::updateTrustedRoot(ctx, req);
        QVERIFY(other);
        QVERIFY(!other->ok());
        QCOMPARE(other->verification.failedRole, QStringLiteral("target"));
        QCOMPARE(count(*db, QStringLiteral("trusted_roots")), 0);

        // An unreadable anchor is an error of the request, not a verdict.
        req.anchorPath = m_tmp.filePath(QStringLiteral("missing-root.json"));
        QVERIFY(!ops::updateTrustedRoot(ctx, req));
    }

    void trustedStateStoredAndUsedNextTime() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        auto db = open(QStringLiteral("state.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = pbtest::tufValidTime();
        auto first = ops::updateTrustedRoot(ctx, req);
        QVERIFY(first && first->ok());
        QCOMPARE(first->startedFrom(), QStringLiteral("anchor"));
        QVERIFY(!first->trustedBefore);

        // The state: public metadata of the lineage of the shipped anchor.
        store::VerificationStore roots(*db);
        const QString anchorSha = first->verification.anchorSha256;
        auto state = roots.tufTrustedState(anchorSha);
        QVERIFY(state && state->has_value());
        const tuf::TrustedState& t = **state;
        QCOMPARE(t.root.version, 15);
        QCOMPARE(t.rootBytes,
                 pbtest::readAll(pbtest::tufRepo() + QStringLiteral("/metadata/root_history/15.root.json")));
        QCOMPARE(t.timestamp.version, 762);
        QCOMPARE(tuf::formatTime(t.timestamp.expires), QStringLiteral("2026-08-28T19:25:56Z"));
        QCOMPARE(t.snapshot.version, 165);
        QCOMPARE(t.targets.version, 14);
        QCOMPARE(t.snapshotMeta.value(QStringLiteral("registry.npmjs.org.json")), 8);
        QCOMPARE(t.repository, pbtest::tufRepo());
        QCOMPARE(t.anchorName, QString(ops::kShippedTufAnchor));
        QCOMPARE(t.verificationTime, pbtest::tufValidTime());
        QVERIFY(t.updatedAt.isValid());
        QCOMPARE(count(*db, QStringLiteral("tuf_trusted_state")), 1);
        QCOMPARE(cell(*db, QStringLiteral("SELECT provenance_id FROM tuf_trusted_state")).toLongLong(),
                 cell(*db, QStringLiteral("SELECT MAX(id) FROM trusted_root_provenance")).toLongLong());
        QCOMPARE(cell(*db, QStringLiteral("SELECT started_from FROM trusted_root_provenance")).toString(),
                 QStringLiteral("anchor"));
        // No other anchor has a state.
        auto none = roots.tufTrustedState(QStringLiteral("00").repeated(32));
        QVERIFY(none && !none->has_value());

        // The same repository again: continues from the state, equal versions accepted.
        std::vector<tuf::ClientStep> seen;
        auto again = ops::updateTrustedRoot(ctx, req, [&](const tuf::ClientStep& s) { seen.push_back(s); });
        QVERIFY2(again && again->ok(), again ? qPrintable(again->verification.error.toString()) : "");
        QCOMPARE(again->startedFrom(), QStringLiteral("trusted-state"));
        QVERIFY(again->usedTrustedState());
        QCOMPARE(int(seen.size()), 7);
        QCOMPARE(seen[1].role, QStringLiteral("trusted"));
        QVERIFY2(seen[1].detail.startsWith(QStringLiteral(
                     "trusted state: root v15, timestamp v762, snapshot v165, targets v14 from ")),
                 qPrintable(seen[1].detail));
        const QJsonObject j = again->toJson();
        QCOMPARE(j.value(QStringLiteral("startedFrom")).toString(), QStringLiteral("trusted-state"));
        QCOMPARE(j.value(QStringLiteral("fromAnchor")).toBool(), false);
        QCOMPARE(j.value(QStringLiteral("trustedState"))
                     .toObject()
                     .value(QStringLiteral("timestamp"))
                     .toObject()
                     .value(QStringLiteral("version"))
                     .toInt(),
                 762);
        auto p = roots.provenance(again->trustedRootId);
        QVERIFY(p && p->size() == 2);
        QCOMPARE(p->front().startedFrom, QStringLiteral("trusted-state"));
        QVERIFY(p->front().trustedState.startsWith(QStringLiteral("root v15, timestamp v762")));
        QVERIFY(
            p->front().summary().contains(QStringLiteral("; continued from the trusted state (root v15")));
        auto receipts = receipts::Ledger(*db).list();
        QVERIFY(receipts);
        QVERIFY2(receipts->back().message.contains(
                     QStringLiteral("; continued from the trusted state (root v15, timestamp v762")),
                 qPrintable(receipts->back().message));
        QCOMPARE(receipts->back().parameters.value(QStringLiteral("startedFrom")).toString(),
                 QStringLiteral("trusted-state"));
        QCOMPARE(count(*db, QStringLiteral("tuf_trusted_state")), 1);
    }

    void rollbackRefusedStateUnchangedThenFromAnchor() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/14.root.json"));
        auto db = open(QStringLiteral("rollback.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        ops::TrustedRootUpdateRequest req;
        req.repository = pbtest::tufRepo();
        req.at = pbtest::tufValidTime();
        QVERIFY(ops::updateTrustedRoot(ctx, req)->ok());
        const QString stateRow = QStringLiteral("SELECT root_version || ' ' || timestamp_version || ' ' || "
                                                "updated_at || ' ' || root_sha256 || ' ' || "
                                                "provenance_id FROM tuf_trusted_state");
        const QString before = cell(*db, stateRow).toString();
        QVERIFY(before.startsWith(QStringLiteral("15 762 ")));

        // An older copy of the repository: refused as a root rollback, nothing stored, state unchanged.
        QTemporaryDir tmp;
        req.repository = truncatedCopy(tmp);
        auto old = ops::updateTrustedRoot(ctx, req);
        QVERIFY(old);
        QVERIFY(!old->ok());
        QCOMPARE(old->verification.failedRole, QStringLiteral("root"));
        QVERIFY2(old->verification.error.message.startsWith(
                     QStringLiteral("the repository's newest root is version 14, older than the trusted root "
                                    "version 15 (trusted since ")),
                 qPrintable(old->verification.error.toString()));
        QCOMPARE(cell(*db, stateRow).toString(), before);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 1);
        auto receipts = receipts::Ledger(*db).list();
        QCOMPARE(receipts->back().result, receipts::Outcome::Failed);
        QVERIFY2(receipts->back().message.contains(QStringLiteral("a rollback, refused")),
                 qPrintable(receipts->back().message));
        QVERIFY(receipts->back().message.contains(QStringLiteral("the trusted state is unchanged")));
        // Also as of a time root v14 was valid: the state still refuses it.
        req.at = v14ValidTime();
        auto oldAtV14 = ops::updateTrustedRoot(ctx, req);
        QVERIFY(oldAtV14 && !oldAtV14->ok());
        QCOMPARE(cell(*db, stateRow).toString(), before);

        // An expired run fails too and leaves the state as it was.
        req.repository = pbtest::tufRepo();
        req.at = QDateTime(QDate(2026, 11, 21), QTime(0, 0), Qt::UTC);
        auto expired = ops::updateTrustedRoot(ctx, req);
        QVERIFY(expired && !expired->ok());
        QCOMPARE(cell(*db, stateRow).toString(), before);

        // --from-anchor: the same older copy verifies from the anchor and replaces the state, saying so.
        req.repository = truncatedCopy(tmp);
        req.at = v14ValidTime();
        req.fromAnchor = true;
        std::vector<tuf::ClientStep> seen;
        auto fresh = ops::updateTrustedRoot(ctx, req, [&](const tuf::ClientStep& s) { seen.push_back(s); });
        QVERIFY(fresh);
        QVERIFY2(fresh->ok(), qPrintable(fresh->verification.error.toString()));
        QCOMPARE(fresh->startedFrom(), QStringLiteral("anchor-requested"));
        QVERIFY(!fresh->usedTrustedState());
        QCOMPARE(fresh->verification.root.version, 14);
        QCOMPARE(fresh->verification.steps.front().role, QStringLiteral("trusted"));
        QVERIFY2(fresh->verification.steps.front().detail.startsWith(
                     QStringLiteral("started again from the anchor as asked: the trusted state (root v15, ")),
                 qPrintable(fresh->verification.steps.front().detail));
        QCOMPARE(seen.front().detail, fresh->verification.steps.front().detail);
        const QJsonObject j = fresh->toJson();
        QCOMPARE(j.value(QStringLiteral("fromAnchor")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("startedFrom")).toString(), QStringLiteral("anchor-requested"));
        QCOMPARE(j.value(QStringLiteral("ignoredTrustedState"))
                     .toObject()
                     .value(QStringLiteral("root"))
                     .toObject()
                     .value(QStringLiteral("version"))
                     .toInt(),
                 15);
        QVERIFY(!j.contains(QStringLiteral("trustedState")));
        QVERIFY(cell(*db, stateRow).toString().startsWith(QStringLiteral("14 762 ")));
        QCOMPARE(
            cell(*db, QStringLiteral("SELECT started_from FROM trusted_root_provenance ORDER BY id DESC"))
                .toString(),
            QStringLiteral("anchor-requested"));
        QVERIFY(
            cell(*db, QStringLiteral("SELECT trusted_state FROM trusted_root_provenance ORDER BY id DESC"))
                .toString()
                .startsWith(QStringLiteral("root v15")));
        receipts = receipts::Ledger(*db).list();
        QCOMPARE(receipts->back().result, receipts::Outcome::Ok);
        QVERIFY2(receipts->back().message.contains(
                     QStringLiteral("started again from the anchor as asked (--from-anchor), ignoring the "
                                    "trusted state (root v15")),
                 qPrintable(receipts->back().message));

        // And forward again: the full copy is newer than the state (root v14 -> v15).
        req.repository = pbtest::tufRepo();
        req.at = pbtest::tufValidTime();
        req.fromAnchor = false;
        auto forward = ops::updateTrustedRoot(ctx, req);
        QVERIFY2(forward && forward->ok(), forward ? qPrintable(forward->verification.error.toString()) : "");
        QCOMPARE(forward->verification.rootChain, (std::vector<qint64>{15}));
        QVERIFY(cell(*db, stateRow).toString().startsWith(QStringLiteral("15 762 ")));
    }

    void timestampRollbackThroughTheOperation() {
        // A repository signed at test time (older validly signed metadata), serving the real
        // trusted_root.json; its own root v1 is the anchor.
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/trusted_root.production.json"));
        auto db = open(QStringLiteral("generated.sqlite"));
        QVERIFY(db);
        ops::Context ctx(*db);
        QTemporaryDir tmp;
        pbtest::TufTestRepo repo;
        repo.target =
            pbtest::readAll(pbtest::sharedData(QStringLiteral("sigstore/trusted_root.production.json")));
        const QString older = tmp.filePath(QStringLiteral("older")),
                      newer = tmp.filePath(QStringLiteral("newer"));
        repo.timestampVersion = repo.delegatedVersion = 4;
        QVERIFY(repo.publish(older));
        repo.timestampVersion = repo.delegatedVersion = 5;
        QVERIFY(repo.publish(newer));
        const QString anchor = tmp.filePath(QStringLiteral("anchor.json"));
        QVERIFY(pbtest::writeAll(anchor, repo.roots.front()));
        ops::TrustedRootUpdateRequest req;
        req.repository = newer;
        req.anchorPath = anchor;
        req.at = QDateTime(QDate(2027, 1, 1), QTime(0, 0), Qt::UTC);
        auto first = ops::updateTrustedRoot(ctx, req);
        QVERIFY2(first && first->ok(), first ? qPrintable(first->verification.error.toString()) : "");
        auto state = store::VerificationStore(*db).tufTrustedState(sha256Hex(repo.roots.front()));
        QVERIFY(state && state->has_value());
        QCOMPARE((*state)->timestamp.version, 5);
        QCOMPARE(int((*state)->delegations.size()), 1); // the target is listed by the delegated role
        QCOMPARE((*state)->delegations.front().first, QStringLiteral("delegated"));
        QCOMPARE((*state)->delegations.front().second.version, 5);
        QCOMPARE(tuf::formatTime((*state)->delegations.front().second.expires),
                 QStringLiteral("2030-01-01T00:00:00Z"));
        QCOMPARE((*state)->snapshotMeta.value(QStringLiteral("delegated.json")), 5);
        const QString row = cell(*db, QStringLiteral("SELECT timestamp_version || ' ' || updated_at || ' ' "
                                                     "|| delegations FROM tuf_trusted_state"))
                                .toString();

        req.repository = older;
        auto old = ops::updateTrustedRoot(ctx, req);
        QVERIFY(old && !old->ok());
        QCOMPARE(old->verification.failedRole, QStringLiteral("timestamp"));
        QVERIFY2(old->verification.error.toString().startsWith(QStringLiteral(
                     "metadata/timestamp.json: signed.version: version 4 is older than the trusted "
                     "version 5 (trusted since ")),
                 qPrintable(old->verification.error.toString()));
        QCOMPARE(cell(*db, QStringLiteral("SELECT timestamp_version || ' ' || updated_at || ' ' || "
                                          "delegations FROM tuf_trusted_state"))
                     .toString(),
                 row);
        QCOMPARE(count(*db, QStringLiteral("trusted_root_provenance")), 1);

        req.fromAnchor = true;
        auto fresh = ops::updateTrustedRoot(ctx, req);
        QVERIFY(fresh && fresh->ok());
        QCOMPARE(cell(*db, QStringLiteral("SELECT timestamp_version FROM tuf_trusted_state")).toInt(), 4);
    }

    void verificationTimes() {

        PB_NO_DATABASE_ON_POSTGRES();
        QCOMPARE(*ops::parseVerificationTime(QStringLiteral("2026-08-22")), pbtest::tufValidTime());
        QCOMPARE(*ops::parseVerificationTime(QStringLiteral("2026-08-22T02:00:00+02:00")),
                 pbtest::tufValidTime());
        QVERIFY(!ops::parseVerificationTime(QStringLiteral("yesterday")));
        QVERIFY(!ops::parseVerificationTime(QStringLiteral("2026-08-22T00:00:00"))); // no zone
    }

    void cli() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root.json"));
        const QString dbPath = m_dbs.spec(QStringLiteral("cli.sqlite"));
        Run ok = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"),
                             dbPath, QStringLiteral("--tuf"), pbtest::tufRepo(), QStringLiteral("--at"),
                             QStringLiteral("2026-08-22T00:00:00Z"), QStringLiteral("--format"),
                             QStringLiteral("json")});
        QVERIFY2(ok.code == 0, ok.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(ok.out).object();
        QCOMPARE(j.value(QStringLiteral("verified")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("root")).toObject().value(QStringLiteral("version")).toInt(), 15);
        QCOMPARE(j.value(QStringLiteral("target")).toObject().value(QStringLiteral("sha256")).toString(),
                 QStringLiteral("6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"));
        QCOMPARE(j.value(QStringLiteral("steps")).toArray().size(), 8);
        // Issue 30: verified as of a time given, not now: stored, never made the default silently.
        QCOMPARE(j.value(QStringLiteral("madeDefault")).toBool(), false);
        QVERIFY2(j.value(QStringLiteral("notDefault")).toString().contains(QStringLiteral("--default")),
                 ok.out.constData());
        Run notYet =
            proofbench({QStringLiteral("trusted-root"), QStringLiteral("list"), QStringLiteral("--db"),
                        dbPath, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(
            QJsonDocument::fromJson(notYet.out).array().at(0).toObject()[QStringLiteral("default")].toBool(),
            false);

        Run text =
            proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"),
                        dbPath, QStringLiteral("--tuf"), pbtest::tufRepo(), QStringLiteral("--anchor"),
                        pbtest::tufRepo() + QStringLiteral("/metadata/root_history/1.root.json"),
                        QStringLiteral("--at"), QStringLiteral("2026-08-22"), QStringLiteral("--default")});
        QVERIFY2(text.code == 0, text.err.constData());
        QVERIFY(text.out.contains("root v1 -> v2"));
        QVERIFY(text.out.contains("(already present)"));
        QVERIFY2(text.out.contains(", the default"), text.out.constData());

        if (QDateTime::currentDateTimeUtc() > QDateTime(QDate(2026, 11, 20), QTime(13, 58, 18), Qt::UTC)) {
            Run expired =
                proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"),
                            dbPath, QStringLiteral("--tuf"), pbtest::tufRepo()});
            QCOMPARE(expired.code, 1);
            QVERIFY2(expired.err.contains("root v15 expired 2026-11-20T13:58:18Z"), expired.err.constData());
            QVERIFY2(expired.err.contains("give --at TIME"), expired.err.constData()); // says how
            QVERIFY(expired.out.contains("FAILED"));
        }

        Run bad = proofbench({QStringLiteral("trusted-root"), QStringLiteral("update"),
                              QStringLiteral("--db"), dbPath, QStringLiteral("--tuf"), pbtest::tufRepo(),
                              QStringLiteral("--at"), QStringLiteral("soon")});
        QCOMPARE(bad.code, 2);
        Run missing = proofbench(
            {QStringLiteral("trusted-root"), QStringLiteral("update"), QStringLiteral("--db"), dbPath});
        QCOMPARE(missing.code, 2);

        Run list = proofbench(
            {QStringLiteral("trusted-root"), QStringLiteral("list"), QStringLiteral("--db"), dbPath});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains("default") && list.out.contains("TUF root v15"), list.out.constData());
        // The list says it was verified as of a past time, and when its metadata expires (or expired).
        QVERIFY2(list.out.contains("(time given)") && list.out.contains("its TUF metadata expire"),
                 list.out.constData());
        if (QDateTime::currentDateTimeUtc() > QDateTime(QDate(2026, 8, 29), QTime(0, 0), Qt::UTC))
            QVERIFY2(list.out.contains("(expired now)"), list.out.constData());
    }

    void cliRollbackAndFromAnchor() {
        PB_REQUIRE_SHARED(QStringLiteral("sigstore/tuf/metadata/root_history/14.root.json"));
        const QString dbPath = m_dbs.spec(QStringLiteral("cli-rollback.sqlite"));
        const QStringList base{QStringLiteral("trusted-root"), QStringLiteral("update"),
                               QStringLiteral("--db"), dbPath, QStringLiteral("--tuf")};
        const QStringList json{QStringLiteral("--format"), QStringLiteral("json")};
        Run first = proofbench(
            base + QStringList{pbtest::tufRepo(), QStringLiteral("--at"), QStringLiteral("2026-08-22")} +
            json);
        QVERIFY2(first.code == 0, first.err.constData());
        QJsonObject j = QJsonDocument::fromJson(first.out).object();
        QCOMPARE(j.value(QStringLiteral("startedFrom")).toString(), QStringLiteral("anchor"));
        QVERIFY(!j.contains(QStringLiteral("trustedState")));

        // Twice: continues from the trusted state.
        Run second = proofbench(
            base + QStringList{pbtest::tufRepo(), QStringLiteral("--at"), QStringLiteral("2026-08-22")} +
            json);
        QVERIFY2(second.code == 0, second.err.constData());
        j = QJsonDocument::fromJson(second.out).object();
        QCOMPARE(j.value(QStringLiteral("verified")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("startedFrom")).toString(), QStringLiteral("trusted-state"));
        QCOMPARE(j.value(QStringLiteral("fromAnchor")).toBool(), false);
        const QJsonObject ts = j.value(QStringLiteral("trustedState")).toObject();
        QCOMPARE(ts.value(QStringLiteral("root")).toObject().value(QStringLiteral("version")).toInt(), 15);
        QCOMPARE(ts.value(QStringLiteral("timestamp")).toObject().value(QStringLiteral("version")).toInt(),
                 762);
        QCOMPARE(
            ts.value(QStringLiteral("snapshotMeta")).toObject().value(QStringLiteral("targets.json")).toInt(),
            14);
        QVERIFY(ts.value(QStringLiteral("since")).toString().endsWith(QLatin1Char('Z')));
        QCOMPARE(j.value(QStringLiteral("rootChain")).toArray().size(), 0);
        QCOMPARE(j.value(QStringLiteral("steps"))
                     .toArray()
                     .at(1)
                     .toObject()
                     .value(QStringLiteral("role"))
                     .toString(),
                 QStringLiteral("trusted"));

        // An older copy: exit 1, the rollback on stderr, the step list in text.
        QTemporaryDir tmp;
        const QString older = truncatedCopy(tmp);
        Run refused =
            proofbench(base + QStringList{older, QStringLiteral("--at"), QStringLiteral("2026-06-01")});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("root: metadata/root.json: signed.version: the repository's newest "
                                      "root is version 14, older than the trusted root "
                                      "version 15"),
                 refused.err.constData());
        QVERIFY(refused.out.contains("ok      trusted\ttrusted state: root v15, timestamp v762"));

        // --from-anchor: passes, and says so in text and JSON.
        Run text = proofbench(base + QStringList{older, QStringLiteral("--at"), QStringLiteral("2026-06-01"),
                                                 QStringLiteral("--from-anchor")});
        QVERIFY2(text.code == 0, text.err.constData());
        QVERIFY2(text.out.contains("started again from the anchor (--from-anchor)"), text.out.constData());
        QVERIFY(text.out.contains("started again from the anchor as asked: the trusted state (root v15"));
        Run again = proofbench(base +
                               QStringList{older, QStringLiteral("--at"), QStringLiteral("2026-06-01"),
                                           QStringLiteral("--from-anchor")} +
                               json);
        QVERIFY2(again.code == 0, again.err.constData());
        j = QJsonDocument::fromJson(again.out).object();
        QCOMPARE(j.value(QStringLiteral("fromAnchor")).toBool(), true);
        QCOMPARE(j.value(QStringLiteral("startedFrom")).toString(), QStringLiteral("anchor-requested"));
        QCOMPARE(j.value(QStringLiteral("ignoredTrustedState"))
                     .toObject()
                     .value(QStringLiteral("root"))
                     .toObject()
                     .value(QStringLiteral("version"))
                     .toInt(),
                 14);
        QCOMPARE(j.value(QStringLiteral("root")).toObject().value(QStringLiteral("version")).toInt(), 14);

        Run list = proofbench(
            {QStringLiteral("trusted-root"), QStringLiteral("list"), QStringLiteral("--db"), dbPath});
        QVERIFY2(
            list.out.contains("started again from the anchor as asked, ignoring the trusted state (root v14"),
            list.out.constData());
        Run listJson =
            proofbench({QStringLiteral("trusted-root"), QStringLiteral("list"), QStringLiteral("--db"),
                        dbPath, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(QJsonDocument::fromJson(listJson.out)
                     .array()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("provenance"))
                     .toObject()
                     .value(QStringLiteral("startedFrom"))
                     .toString(),
                 QStringLiteral("anchor-requested"));
    }
};

QTEST_GUILESS_MAIN(TstTufUpdate)
#include "tst_tufupdate.moc"
