// The health table and the release review report against real catalogs imported out of order:
// defaults follow version order, the baseline can be chosen, the sample is marked and every version
// says where it came from; a wildcard leaf is named by its overlay; a row's pointers are read under
// the name its evidence records; `proofbench report` writes nothing on stderr.
#include "../TestUtil.h"
#include "DbTestUtil.h"

#include "db/Database.h"
#include "evidence/Health.h"
#include "ops/ImportCatalog.h"
#include "ops/ImportEvidence.h"
#include "report/HealthTable.h"
#include "report/Report.h"
#include "store/CatalogStore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace pb;

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run proofbench(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = pbtest::cliEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PB_CLI_BINARY), args);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

bool importReal(db::Database& db, const QString& label) {
    ops::ImportCatalogRequest r;
    r.label = label;
    r.dir = pbtest::realCatalog(label);
    Result<ops::ImportCatalogOutcome> o = ops::importCatalog(ops::Context(db), r);
    if (!o)
        qWarning() << o.error().toString();
    return bool(o);
}

} // namespace

class TstHealthReport : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<pb::test::TestDatabase> m_testDb; // one for the class: filling it is the slow part
    QString m_dbPath; // sample + v0.11.1, v0.14.0, 2026-08-19, then 2026-07-09, with 2026-08-19's evidence
    std::unique_ptr<db::Database> m_db;

  private slots:
    void initTestCase() {
        PB_REQUIRE_SHARED(QStringLiteral("aicr/catalogs/2026-08-19/recipes/evidence"));
        PB_TEST_DATABASE_IN(m_testDb, m_tmp.path(), QStringLiteral("pb.sqlite"));
        m_dbPath = m_testDb->spec();
        Result<std::unique_ptr<db::Database>> db = db::Database::open(m_dbPath);
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        m_db = std::move(*db);
        QVERIFY(ops::seedEmbeddedCatalog(*m_db));
        // Import order differs from version order: 2026-07-09 comes last.
        for (const char* label : {"v0.11.1", "v0.14.0", "2026-08-19", "2026-07-09"})
            QVERIFY2(importReal(*m_db, QString::fromLatin1(label)), label);
        ops::ImportEvidenceRequest ev;
        ev.dir = pbtest::realCatalog(QStringLiteral("2026-08-19"));
        Result<ops::ImportEvidenceOutcome> imported = ops::importEvidence(ops::Context(*m_db), ev);
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().toString()));
    }

    // The report's version and baseline default to the newest and the one before it in version
    // order, not to the last imported (2026-07-09) nor to the sample.
    void reportDefaultsFollowVersionOrder() {
        Result<report::ReportData> d = report::collectReport(*m_db, {});
        QVERIFY2(d, d ? "" : qPrintable(d.error().toString()));
        QCOMPARE(d->version.label, QStringLiteral("2026-08-19"));
        QCOMPARE(d->previousLabel, QStringLiteral("2026-07-09"));
        QVERIFY(d->baseline);
        QCOMPARE(d->baseline->label, QStringLiteral("2026-07-09"));
        QVERIFY(d->diff);
        QCOMPARE(d->diff->fromLabel, QStringLiteral("2026-07-09"));
        QCOMPARE(d->diff->toLabel, QStringLiteral("2026-08-19"));
        const QString md = report::reportMarkdown(*d, {}, QStringLiteral("charts"));
        QVERIFY(md.contains(QStringLiteral("## Changes since 2026-07-09")));
        QVERIFY(md.contains(QStringLiteral("Source: folder ") +
                            pbtest::realCatalog(QStringLiteral("2026-08-19"))));
        QVERIFY(!md.contains(QStringLiteral("Sample data")));
        QVERIFY(!md.contains(QStringLiteral("sample-2")));
        const QString html = report::reportHtml(*d, {});
        QVERIFY(html.contains(QStringLiteral("Changes since 2026-07-09")));
        QVERIFY(!html.contains(QStringLiteral("sample-mark")));

        Result<store::CatalogVersionInfo> chosen = report::chosenVersion(*m_db, {});
        QVERIFY(chosen);
        QCOMPARE(chosen->label, QStringLiteral("2026-08-19"));
    }

    void reportBaselineIsChosen() {
        Result<report::ReportData> d =
            report::collectReport(*m_db, {QStringLiteral("2026-08-19"), {}, QStringLiteral("v0.14.0")});
        QVERIFY2(d, d ? "" : qPrintable(d.error().toString()));
        QVERIFY(d->diff);
        QCOMPARE(d->diff->fromLabel, QStringLiteral("v0.14.0"));
        QVERIFY(report::reportMarkdown(*d, {}, {}).contains(QStringLiteral("## Changes since v0.14.0")));

        Result<report::ReportData> none =
            report::collectReport(*m_db, {QStringLiteral("2026-08-19"), {}, report::kNoBaseline});
        QVERIFY(none);
        QVERIFY(!none->baseline);
        QVERIFY(!none->diff);
        QVERIFY(none->diffNote.contains(QStringLiteral("No baseline")));

        Result<report::ReportData> bad =
            report::collectReport(*m_db, {QStringLiteral("2026-08-19"), {}, QStringLiteral("v9.9.9")});
        QVERIFY(!bad);
        QVERIFY(bad.error().toString().contains(QStringLiteral("--baseline")));

        // The first real version: the sample before it is no default baseline, and the note says why.
        Result<report::ReportData> first = report::collectReport(*m_db, {QStringLiteral("v0.11.1"), {}, {}});
        QVERIFY(first);
        QCOMPARE(first->previousLabel, QStringLiteral("sample-2"));
        QVERIFY(!first->baseline);
        QVERIFY(first->diffNote.contains(QStringLiteral("sample data")));
        Result<std::vector<store::CatalogVersionInfo>> versions = store::CatalogStore(*m_db).versions();
        QVERIFY(versions);
        QCOMPARE(report::defaultBaseline(*versions, QStringLiteral("v0.11.1")), QString());
        QCOMPARE(report::defaultBaseline(*versions, QStringLiteral("2026-07-09")), QStringLiteral("v0.14.0"));
        QCOMPARE(report::defaultBaseline(*versions, QStringLiteral("sample-2")), QStringLiteral("sample-1"));
    }

    // The sample is marked in every report format and in the health exports; "sample": true in JSON.
    void sampleIsMarked() {
        Result<report::ReportData> d = report::collectReport(*m_db, {QStringLiteral("sample-2"), {}, {}});
        QVERIFY(d);
        QVERIFY(d->version.isSample());
        QVERIFY(report::reportHtml(*d, {}).contains(QStringLiteral("sample-mark")));
        QVERIFY(report::reportHtml(*d, {}).contains(report::sampleNote().toHtmlEscaped()));
        const QString md = report::reportMarkdown(*d, {}, {});
        QVERIFY(md.startsWith(QStringLiteral("# Release review: catalog sample-2 (sample data)")));
        QVERIFY(md.contains(QStringLiteral("Source: sample data")));

        Run json = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath,
                               QStringLiteral("--version"), QStringLiteral("sample-2"),
                               QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(json.out).array();
        QVERIFY(!rows.isEmpty());
        for (const QJsonValue& v : rows) {
            QCOMPARE(v.toObject().value(QStringLiteral("sample")).toBool(false), true);
            QCOMPARE(v.toObject().value(QStringLiteral("catalogVersion")).toString(),
                     QStringLiteral("sample-2"));
        }
        Run md2 = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath,
                              QStringLiteral("--version"), QStringLiteral("sample-2")});
        QCOMPARE(md2.code, 0);
        QVERIFY(md2.out.contains("**Sample data**"));
        QVERIFY(md2.out.contains("Source: sample data"));
    }

    // `health` defaults to the newest in version order; its exports carry the reason, whether the
    // recipe is in the version, and the version (with "sample": false and its origin).
    void healthDefaultsAndExports() {
        Run json = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath,
                               QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.code == 0, json.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(json.out).array();
        QVERIFY(!rows.isEmpty());
        int outside = 0;
        for (const QJsonValue& v : rows) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o.value(QStringLiteral("catalogVersion")).toString(), QStringLiteral("2026-08-19"));
            QCOMPARE(o.value(QStringLiteral("sample")).toBool(true), false);
            QVERIFY(o.value(QStringLiteral("catalogOrigin")).toString().contains(QStringLiteral("folder")));
            QVERIFY(o.contains(QStringLiteral("reason")) && o.contains(QStringLiteral("inCatalog")));
            outside += o.value(QStringLiteral("inCatalog")).toBool() ? 0 : 1;
        }
        Run csv = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath,
                              QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(csv.code, 0);
        const QList<QByteArray> lines = csv.out.split('\n');
        QVERIFY(lines.front().endsWith(",stale,in catalog version,reason,catalog version"));
        QVERIFY(csv.out.contains(",yes,no pointer names this recipe,2026-08-19"));
        if (outside > 0)
            QVERIFY(csv.out.contains(",no,"));
        Run md = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath});
        QCOMPARE(md.code, 0);
        QVERIFY(md.out.startsWith("# Health: catalog version 2026-08-19\n"));
        QVERIFY(md.out.contains("| in catalog version | reason | catalog version |"));
        QVERIFY(!md.out.contains("Sample data"));
    }

    // A wildcard leaf (criteria all "any") resolves to the recipe "recipe": every view names it by
    // its leaf overlay, in the sample and in every real catalog.
    void wildcardLeafIsNamedByItsOverlay() {
        Result<std::vector<store::CatalogVersionInfo>> versions = store::CatalogStore(*m_db).versions();
        QVERIFY(versions);
        for (const store::CatalogVersionInfo& v : *versions) {
            Result<std::vector<evidence::HealthRow>> rows = report::healthRows(*m_db, v.id);
            QVERIFY(rows);
            QSet<QString> shown;
            bool hpa = false;
            for (const evidence::HealthRow& r : *rows) {
                QVERIFY2(r.displayName() != QLatin1String("recipe"), qPrintable(v.label));
                QVERIFY2(!shown.contains(r.displayName()),
                         qPrintable(v.label + QLatin1Char(' ') + r.displayName()));
                shown.insert(r.displayName());
                if (r.displayName() == QLatin1String("monitoring-hpa")) {
                    hpa = true;
                    QCOMPARE(r.recipe, QStringLiteral("recipe"));
                    QCOMPARE(r.leafOverlay, QStringLiteral("monitoring-hpa"));
                }
            }
            QVERIFY2(hpa, qPrintable(v.label));
        }
        Run md = proofbench({QStringLiteral("health"), QStringLiteral("--db"), m_dbPath,
                             QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY(md.out.contains("\nmonitoring-hpa (recipe),"));
    }

    // Every row's pointers are the ones its count was taken from, including evidence recorded
    // under the leaf's name before a profile renamed the coordinate.
    void rowPointersMatchTheCounts() {
        Result<store::CatalogVersionInfo> v = report::chosenVersion(*m_db, QStringLiteral("2026-08-19"));
        QVERIFY(v);
        Result<std::vector<evidence::HealthRow>> rows = report::healthRows(*m_db, v->id);
        QVERIFY(rows);
        int withPointers = 0, renamed = 0;
        for (const evidence::HealthRow& r : *rows) {
            Result<std::vector<evidence::Pointer>> p = report::rowPointers(*m_db, r);
            QVERIFY(p);
            QCOMPARE(int(p->size()), r.pointers);
            withPointers += r.pointers > 0;
            if (!r.evidenceName.isEmpty()) {
                ++renamed;
                QCOMPARE(r.status, evidence::HealthStatus::Stale);
                const QString why = report::mismatchText(r, *p, v->label);
                QVERIFY2(why.contains(r.evidenceName) && why.contains(r.recipe), qPrintable(why));
                for (const evidence::Pointer& ptr : *p)
                    QVERIFY2(why.contains(ptr.file), qPrintable(why));
            }
            if (!r.inCatalog())
                QVERIFY(
                    report::mismatchText(r, *p, v->label).contains(QStringLiteral("has no recipe named")));
        }
        QVERIFY(withPointers >= 5);
        qInfo("%d row(s) with pointers, %d recorded under an older name", withPointers, renamed);
    }

    // A summary is a recount of its details. Every row's counts (pointers, invalid, pending, each
    // signer class) and its newest time are recomputed from the pointers the inspector lists for it.
    // The case that broke it: a leaf whose recipe was renamed has pointers under its old name AND one
    // of its own under the new name; the row took the new name's count (1, no signer) but kept the
    // old name's newest time and listed the old name's four pointers. Now the row is its own
    // evidence; the old name's pointers keep a row that says why they are not counted there.
    void summaryIsARecountOfTheRows() {
        const QString from = pbtest::realCatalog(QStringLiteral("2026-08-19")) + QStringLiteral("/evidence");
        QTemporaryDir tmp;
        const QString ev = tmp.filePath(QStringLiteral("evidence"));
        QVERIFY(pbtest::copyTree(from, ev));
        const QString renamed = QStringLiteral("h100-aks-ubuntu-inference-dynamo-gpustack-azure-managed");
        const QString oldName = QStringLiteral("h100-aks-ubuntu-inference-dynamo");
        // An unsigned pointer of its own, with no attestation time (the fork-branch layout).
        pbtest::writeFile(ev + QLatin1Char('/') + renamed + QStringLiteral(".yaml"),
                          "recipe: " + renamed.toUtf8() + "\nschemaVersion: 1.0.0\nattestations: []\n");
        std::unique_ptr<pb::test::TestDatabase> testDb;
        PB_TEST_DATABASE_IN(testDb, tmp.path(), QStringLiteral("recount.sqlite"));
        Result<std::unique_ptr<db::Database>> db = db::Database::open(testDb->spec());
        QVERIFY2(db, db ? "" : qPrintable(db.error().toString()));
        QVERIFY(importReal(**db, QStringLiteral("2026-08-19")));
        ops::ImportEvidenceRequest req;
        req.dir = ev;
        Result<ops::ImportEvidenceOutcome> imported = ops::importEvidence(ops::Context(**db), req);
        QVERIFY2(imported, imported ? "" : qPrintable(imported.error().toString()));
        Result<store::CatalogVersionInfo> v = report::chosenVersion(**db, QStringLiteral("2026-08-19"));
        QVERIFY(v);
        Result<std::vector<evidence::HealthRow>> rows = report::healthRows(**db, v->id);
        QVERIFY(rows);
        bool sawRenamed = false, sawOld = false;
        for (const evidence::HealthRow& r : *rows) {
            Result<std::vector<evidence::Pointer>> p = report::rowPointers(**db, r);
            QVERIFY(p);
            int invalid = 0, pending = 0, first = 0, community = 0, partner = 0, reported = 0;
            QDateTime newest;
            for (const evidence::Pointer& ptr : *p) {
                if (!ptr.isValid()) {
                    ++invalid;
                    continue;
                }
                if (ptr.layout == evidence::PointerLayout::FlatPending) {
                    ++pending;
                    continue;
                }
                const evidence::SignerClass c = ptr.signerClass.value_or(evidence::SignerClass::Reported);
                (c == evidence::SignerClass::FirstParty  ? first
                 : c == evidence::SignerClass::Community ? community
                 : c == evidence::SignerClass::Partner   ? partner
                                                         : reported)++;
                if (const evidence::Attestation* a = ptr.attestation();
                    a && a->attestedAt.isValid() && (!newest.isValid() || a->attestedAt > newest))
                    newest = a->attestedAt;
            }
            const QString what = r.recipe;
            QCOMPARE(int(p->size()), r.pointers);
            QVERIFY2(invalid == r.invalid && pending == r.pending, qPrintable(what));
            QVERIFY2(first == r.firstParty && community == r.community && partner == r.partner &&
                         reported == r.reported,
                     qPrintable(what));
            QVERIFY2(newest == r.newestAttestedAt,
                     qPrintable(what + QStringLiteral(": newest %1, recount %2")
                                           .arg(r.newestAttestedAt.toString(Qt::ISODate),
                                                newest.toString(Qt::ISODate))));
            if (r.recipe == renamed) {
                sawRenamed = true;
                QCOMPARE(r.pointers, 1);
                QVERIFY(r.evidenceName.isEmpty());
                QVERIFY(!r.newestAttestedAt.isValid());
            }
            if (r.recipe == oldName) {
                sawOld = true;
                QCOMPARE(r.pointers, 4);
                QVERIFY(!r.inCatalog());
                QVERIFY2(r.reason.contains(renamed) && r.reason.contains(QStringLiteral("of its own")),
                         qPrintable(r.reason));
            }
        }
        QVERIFY(sawRenamed && sawOld);
    }

    // `proofbench report` writes each format with nothing on stderr (no Qt runtime warning), and
    // --baseline reaches the report.
    void reportCliIsQuiet() {
        for (const char* format : {"html", "markdown", "pdf"}) {
            const QString out = m_tmp.filePath(QStringLiteral("r.") + QString::fromLatin1(format));
            Run r = proofbench({QStringLiteral("report"), QStringLiteral("--db"), m_dbPath,
                                QStringLiteral("--format"), QString::fromLatin1(format),
                                QStringLiteral("--baseline"), QStringLiteral("v0.14.0"),
                                QStringLiteral("--out"), out});
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(
                r.err.isEmpty(),
                qPrintable(
                    QStringLiteral("%1: stderr: %2").arg(QLatin1String(format), QString::fromUtf8(r.err))));
            QVERIFY(QFileInfo(out).size() > 0);
            if (QByteArrayView(format) == "markdown") {
                QFile f(out);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QByteArray text = f.readAll();
                QVERIFY(text.contains("## Changes since v0.14.0"));
                QVERIFY(text.startsWith("# Release review: catalog 2026-08-19\n"));
            }
        }
        // The receipt records the baseline the report compared with.
        {
            QSqlQuery q(m_db->sql());
            QVERIFY(q.exec(QStringLiteral(
                "SELECT parameters FROM receipts WHERE kind = 'report.export' ORDER BY seq DESC LIMIT 1")));
            QVERIFY(q.next());
            const QJsonObject params = QJsonDocument::fromJson(q.value(0).toByteArray()).object();
            QCOMPARE(params.value(QStringLiteral("baseline")).toString(), QStringLiteral("v0.14.0"));
        }
        Run bad = proofbench({QStringLiteral("report"), QStringLiteral("--db"), m_dbPath,
                              QStringLiteral("--format"), QStringLiteral("html"),
                              QStringLiteral("--baseline"), QStringLiteral("nope"), QStringLiteral("--out"),
                              m_tmp.filePath(QStringLiteral("x.html"))});
        QVERIFY(bad.code != 0);
        QVERIFY(bad.err.contains("--baseline"));
    }
};

QTEST_GUILESS_MAIN(TstHealthReport)
#include "tst_healthreport.moc"
