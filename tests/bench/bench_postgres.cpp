// The team store against the embedded one and against PostgreSQL's own tools (issue 31), in one run
// on one machine, on the private test server (tools/bench-postgres.sh starts it: loopback, TLS
// verified, scram-sha-256):
//   - catalog import of a real AICR catalog: PostgreSQL / SQLite (goal <= 1.5x);
//   - 200,000 evidence pointers: the insert part on PostgreSQL / `psql \copy` of the same rows
//     (goal <= 1.5x); the whole import (parse, check, insert) PostgreSQL / SQLite (goal <= 1.2x);
//     the health table's first paint and a filter on PostgreSQL (goals 100 ms, 20 ms);
//   - `db copy` of that database to a fresh one on the server / `pg_dump | psql` (goal <= 2x).
// Without a recorded server (PB_TEST_PG_DIR) it says so and measures nothing.
#include "BenchEvidence.h"
#include "BenchHealthView.h"
#include "TestDb.h"
#include "catalog/Loader.h"
#include "db/Database.h"
#include "ops/DbAdmin.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace pb;

namespace {

double ms(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

[[noreturn]] void die(const QString& what) {
    std::fprintf(stderr, "bench_postgres: %s\n", qPrintable(what));
    std::exit(1);
}

std::unique_ptr<db::Database> openOrDie(const QString& spec) {
    Result<std::unique_ptr<db::Database>> r = db::Database::open(spec);
    if (!r)
        die(r.error().toString());
    return std::move(*r);
}

// A fresh database of `engine` for one measurement: a file in `dir`, or a new database on the server.
struct Fresh {
    std::unique_ptr<test::TestDatabase> server;
    QString spec;
};
Fresh fresh(bool postgres, const QString& dir, const QString& name) {
    Fresh f;
    if (postgres) {
        qputenv("PB_TEST_ENGINE", "postgresql");
        f.server = std::make_unique<test::TestDatabase>(dir, name);
        qputenv("PB_TEST_ENGINE", "sqlite");
        if (!f.server->ok())
            die(f.server->error());
        f.spec = f.server->spec();
    } else {
        f.spec = dir + QLatin1Char('/') + name;
    }
    return f;
}

// Runs a shell pipeline (psql, pg_dump) and returns its wall time; dies when it fails.
double timedShell(const QString& script) {
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(QStringLiteral("bash"),
            {QStringLiteral("-o"), QStringLiteral("pipefail"), QStringLiteral("-c"), script});
    if (!p.waitForFinished(1800000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        die(QStringLiteral("`%1` failed: %2").arg(script, QString::fromUtf8(p.readAllStandardError())));
    return ms(t);
}

QString shellQuote(const QString& s) {
    QString q = s;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (test::pgServerDir().isEmpty()) {
        std::printf("bench_postgres: no PostgreSQL test server recorded (PB_TEST_PG_DIR); run "
                    "tools/bench-postgres.sh to measure the team store\n");
        return 0;
    }
    qputenv("PB_TEST_ENGINE", "postgresql"); // exportPgPassFile acts in a PostgreSQL half only
    test::exportPgPassFile();
    qputenv("PB_TEST_ENGINE", "sqlite");
    QTemporaryDir tmp;
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;

    // 1. Catalog import: the same loaded catalog into a fresh database per run, medians.
    const QString catalogRoot = QStringLiteral(PB_SHARED_DATA "/aicr/catalogs/2026-08-19/recipes");
    double catalogMs[2] = {0, 0};
    if (QFileInfo::exists(catalogRoot)) {
        Result<catalog::Catalog> cat = catalog::loadCatalog(catalogRoot);
        if (!cat)
            die(cat.error().toString());
        for (int engine = 0; engine < 2; ++engine) {
            std::vector<double> times;
            for (int r = 0; r <= runs; ++r) { // the first run warms caches and is not counted
                Fresh f =
                    fresh(engine == 1, tmp.path(), QStringLiteral("catalog-%1-%2.db").arg(engine).arg(r));
                auto database = openOrDie(f.spec);
                store::CatalogStore store(*database);
                QElapsedTimer t;
                t.start();
                Result<store::ImportReport> report = store.importCatalog(QStringLiteral("2026-08-19"), *cat);
                const double elapsed = ms(t);
                if (!report)
                    die(report.error().toString());
                if (r > 0)
                    times.push_back(elapsed);
            }
            catalogMs[engine] = median(times);
        }
        std::printf("%-64s %10.1f ms\n", "catalog import 2026-08-19, SQLite file (median)", catalogMs[0]);
        std::printf("%-64s %10.1f ms\n", "catalog import 2026-08-19, PostgreSQL over TLS (median)",
                    catalogMs[1]);
        std::printf("ratio PostgreSQL / SQLite: %.2fx (goal <= 1.5x)\n\n", catalogMs[1] / catalogMs[0]);
    } else {
        std::printf("catalog import: skipped, %s not found\n\n", qPrintable(catalogRoot));
    }

    // 2. 200,000 pointers.
    const int coordinates = bench::coordinateCount();
    const bench::GeneratedEvidence generated = bench::generateEvidence(coordinates);
    QElapsedTimer t;
    t.start();
    const evidence::EvidenceTree tree = bench::parseEvidence(generated);
    const double parseMs = ms(t);
    double insertMs[2] = {0, 0};
    Fresh pointers[2];
    for (int engine = 0; engine < 2; ++engine) {
        pointers[engine] = fresh(engine == 1, tmp.path(), QStringLiteral("pointers-%1.db").arg(engine));
        auto database = openOrDie(pointers[engine].spec);
        if (!bench::insertCoordinates(*database, coordinates))
            die(QStringLiteral("cannot write the coordinates"));
        store::EvidenceStore evidenceStore(*database);
        t.restart();
        Result<store::EvidenceImportReport> report = evidenceStore.importTree(tree);
        insertMs[engine] = ms(t);
        if (!report || report->added != int(tree.pointers.size()))
            die(report ? QStringLiteral("not every pointer added") : report.error().toString());
    }
    const QString pgSpec = pointers[1].spec;
    // The peer: psql's \copy of the same rows (exported from the imported table) into a fresh,
    // migrated database with the same coordinates.
    const QString rows = tmp.filePath(QStringLiteral("pointers.copy"));
    const QString columns = QStringLiteral("path, sha256, content, layout, recipe, profile, source_dir, "
                                           "signer_issuer, signer_identity, signer_slug, "
                                           "signer_class, rekor_log_index, attested_at, bundle_digest, "
                                           "bundle_oci, predicate_type, valid, problems, "
                                           "imported_at");
    const QString search = QStringLiteral("PGOPTIONS='-c search_path=proofbench' ");
    timedShell(
        search +
        QStringLiteral("psql -X -q -v ON_ERROR_STOP=1 -d %1 -c %2")
            .arg(shellQuote(pgSpec),
                 shellQuote(QStringLiteral("\\copy evidence_pointers (%1) TO '%2'").arg(columns, rows))));
    Fresh peer = fresh(true, tmp.path(), QStringLiteral("peer"));
    {
        auto database = openOrDie(peer.spec);
        if (!bench::insertCoordinates(*database, coordinates))
            die(QStringLiteral("cannot write the coordinates"));
    }
    const double psqlCopyMs = timedShell(
        search + QStringLiteral("psql -X -q -v ON_ERROR_STOP=1 -d %1 -c %2")
                     .arg(shellQuote(peer.spec), shellQuote(QStringLiteral("\\copy evidence_pointers (%1) "
                                                                           "FROM '%2'")
                                                                .arg(columns, rows))));
    std::printf("pointers: %zu over %d coordinates\n", tree.pointers.size(), coordinates);
    std::printf("%-64s %10.1f ms\n", "parse + check (either engine)", parseMs);
    std::printf("%-64s %10.1f ms\n", "insert into SQLite (importTree, one transaction)", insertMs[0]);
    std::printf("%-64s %10.1f ms\n", "insert into PostgreSQL (importTree: COPY + INSERT ... SELECT)",
                insertMs[1]);
    std::printf("%-64s %10.1f ms\n", "peer: psql \\copy of the same rows", psqlCopyMs);
    std::printf("ratio insert PostgreSQL / psql \\copy: %.2fx (goal <= 1.5x)\n", insertMs[1] / psqlCopyMs);
    std::printf("ratio whole import PostgreSQL / SQLite: %.2fx (goal <= 1.2x)\n",
                (parseMs + insertMs[1]) / (parseMs + insertMs[0]));

    // The health table on PostgreSQL: query + model + painted view, then a filter.
    {
        auto database = openOrDie(pgSpec);
        store::EvidenceStore evidenceStore(*database);
        t.restart();
        Result<std::vector<store::HealthRow>> health = evidenceStore.health(1);
        if (!health)
            die(health.error().toString());
        const double queryMs = ms(t);
        bench::HealthView table;
        table.show(std::move(*health));
        const double firstPaintMs = ms(t);
        t.restart();
        table.filter(QStringLiteral("r0042"));
        const double filterMs = ms(t);
        std::printf("%-64s %10.1f ms (goal <= 100 ms)\n", "health first paint on PostgreSQL", firstPaintMs);
        std::printf("%-64s %10.1f ms\n", "  of which the health query (EvidenceStore::health)", queryMs);
        std::printf("%-64s %10.1f ms (goal <= 20 ms)\n\n", "filter 'r0042' and repaint", filterMs);
    }

    // 3. db copy of the pointer database to a fresh one on the server, against pg_dump | psql.
    Fresh copyTarget = fresh(true, tmp.path(), QStringLiteral("copy"));
    t.restart();
    Result<ops::DatabaseCopyOutcome> copied = ops::copyDatabase({pgSpec, copyTarget.spec});
    const double copyMs = ms(t);
    if (!copied)
        die(copied.error().toString());
    Fresh dumpTarget = fresh(true, tmp.path(), QStringLiteral("dump"));
    const double dumpMs = timedShell(QStringLiteral("pg_dump --no-owner --no-privileges -d %1 | psql -X -q "
                                                    "-v ON_ERROR_STOP=1 -d %2 >/dev/null")
                                         .arg(shellQuote(pgSpec), shellQuote(dumpTarget.spec)));
    std::printf("%-64s %10.1f ms (%lld rows, proved)\n", "db copy PostgreSQL -> PostgreSQL", copyMs,
                static_cast<long long>(copied->rows));
    std::printf("%-64s %10.1f ms\n", "peer: pg_dump | psql of the same database", dumpMs);
    std::printf("ratio db copy / pg_dump | psql: %.2fx (goal <= 2x)\n", copyMs / dumpMs);
    return 0;
}
