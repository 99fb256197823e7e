// Health table at scale (issue 5): 10,000 recipe coordinates and 200,000 evidence pointers.
// Measures pointer import (parse + rule checks + one SQLite transaction), the first paint of the
// health table (query, model, a real QTableView painted offscreen) and a text filter, against the
// sqlite3 program doing the equivalent insert and aggregate query on the same schema, in one run.
#include "BenchEvidence.h"
#include "BenchHealthView.h"
#include "core/Hash.h"
#include "db/Database.h"
#include "evidence/Evidence.h"
#include "store/CatalogStore.h"
#include "store/EvidenceStore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>

using namespace pb;

namespace {

using bench::kPointersPerCoordinate;
using bench::kSigners;
const int kCoordinates = bench::coordinateCount();

QString sqlQuote(const QString& s) {
    QString q = s;
    q.replace(QLatin1Char('\''), QStringLiteral("''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

double ms(const QElapsedTimer& t) {
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

// CPU time of the process: on a shared machine the wall clock also counts other people's work.
double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir tmp;

    // The evidence tree, generated in memory: 50 community signers, 20 pointers per coordinate.
    const bench::GeneratedEvidence generated = bench::generateEvidence(kCoordinates);
    const evidence::Allowlist& list = generated.allowlist;
    const auto& files = generated.files;

    // Database with a catalog version holding the 10,000 coordinates (rows written directly).
    auto db = db::Database::open(tmp.filePath(QStringLiteral("health.sqlite")));
    if (!db || !bench::insertCoordinates(**db, kCoordinates)) {
        std::fprintf(stderr, "bench: cannot write the coordinates\n");
        return 1;
    }

    // Ours: parse and check every pointer, then import in one transaction.
    QElapsedTimer t;
    t.start();
    evidence::EvidenceTree tree;
    tree.allowlist = list;
    tree.pointers.reserve(files.size());
    for (const auto& [path, bytes] : files) {
        evidence::Pointer p = evidence::parsePointer(bytes, path);
        evidence::checkPointer(p, &list);
        tree.pointers.push_back(std::move(p));
    }
    const double parseMs = ms(t);
    t.restart();
    store::EvidenceStore evidenceStore(**db);
    Result<store::EvidenceImportReport> report = evidenceStore.importTree(tree);
    const double importMs = ms(t);
    if (!report || report->added != kCoordinates * kPointersPerCoordinate) {
        std::fprintf(stderr, "bench: import failed\n");
        return 1;
    }

    // Peer: the sqlite3 program inserting the same rows into the same schema, and the aggregate query.
    const QString peerDb = tmp.filePath(QStringLiteral("peer.sqlite"));
    { auto fresh = db::Database::open(peerDb); }
    const QString sqlFile = tmp.filePath(QStringLiteral("insert.sql"));
    {
        QFile f(sqlFile);
        f.open(QIODevice::WriteOnly);
        f.write("PRAGMA journal_mode=WAL;\nPRAGMA synchronous=NORMAL;\nBEGIN;\n");
        for (const evidence::Pointer& p : tree.pointers) {
            const evidence::Attestation& a = *p.attestation();
            f.write(QStringLiteral(
                        "INSERT INTO evidence_pointers (path, sha256, content, layout, recipe, source_dir, "
                        "signer_issuer, signer_identity, signer_slug, signer_class, rekor_log_index, "
                        "attested_at, "
                        "bundle_digest, bundle_oci, predicate_type, valid, problems, imported_at) VALUES "
                        "(%1, %2, %3, 'per-source', %4, %5, %6, %7, %8, 'community', %9, %10, %11, %12, %13, "
                        "1, '[]', "
                        "'2026-11-30T00:00:00Z');\n")
                        .arg(sqlQuote(p.file), sqlQuote(sha256Hex(p.raw)), sqlQuote(QString::fromUtf8(p.raw)),
                             sqlQuote(p.recipe), sqlQuote(p.dirSource), sqlQuote(a.signer->issuer),
                             sqlQuote(a.signer->identity), sqlQuote(p.claimedSlug()))
                        .arg(*a.signer->rekorLogIndex)
                        .arg(sqlQuote(a.attestedAtText), sqlQuote(a.bundleDigest), sqlQuote(a.bundleOci),
                             sqlQuote(a.predicateType))
                        .toUtf8());
        }
        f.write("COMMIT;\n");
    }
    auto runSqlite = [&](const QStringList& args, const QString& input) {
        QProcess p;
        if (!input.isEmpty())
            p.setStandardInputFile(input);
        QElapsedTimer pt;
        pt.start();
        p.start(QStringLiteral("sqlite3"), args);
        p.waitForFinished(600000);
        return ms(pt);
    };
    const double peerInsertMs = runSqlite({peerDb}, sqlFile);
    const double peerQueryMs = runSqlite(
        {peerDb,
         QStringLiteral(
             "SELECT recipe, count(*), sum(valid), max(attested_at), sum(signer_class='community') FROM "
             "evidence_pointers GROUP BY recipe;")},
        {});

    // First paint: query, model, a real view painted offscreen.
    t.restart();
    const double paintCpu0 = cpuMs();
    Result<std::vector<store::HealthRow>> rows = evidenceStore.health(1);
    bench::HealthView table;
    table.show(std::move(*rows));
    const double firstPaintMs = ms(t);
    const double firstPaintCpuMs = cpuMs() - paintCpu0;
    const double queryOnlyMs = [&] {
        QElapsedTimer q;
        q.start();
        (void)evidenceStore.health(1);
        return ms(q);
    }();
    t.restart();
    const double filterCpu0 = cpuMs();
    const int matching = table.filter(QStringLiteral("r0042"));
    const double filterMs = ms(t);
    const double filterCpuMs = cpuMs() - filterCpu0;

    std::printf("coordinates: %d, pointers: %zu (%d signers)\n", kCoordinates, tree.pointers.size(),
                kSigners);
    std::printf("%-58s %10.1f ms\n", "proofbench: parse + check 200,000 pointers", parseMs);
    std::printf("%-58s %10.1f ms\n", "proofbench: import into SQLite (one transaction)", importMs);
    std::printf("%-58s %10.1f ms\n", "peer: sqlite3 program, same 200,000 INSERTs, same schema",
                peerInsertMs);
    std::printf("ratio import (parse + check + insert) / peer: %.2fx (goal <= 3x); insert alone: %.2fx\n",
                (parseMs + importMs) / peerInsertMs, importMs / peerInsertMs);
    std::printf("%-58s %10.1f ms\n", "proofbench: health query (10,000 rows)", queryOnlyMs);
    std::printf("%-58s %10.1f ms\n", "peer: sqlite3 program, aggregate query by recipe", peerQueryMs);
    std::printf("%-58s %10.1f ms (goal <= 300 ms), CPU %.1f ms\n",
                "proofbench: first paint (query + model + painted view)", firstPaintMs, firstPaintCpuMs);
    std::printf("%-58s %10.1f ms (goal <= 50 ms), CPU %.1f ms, %d rows match\n",
                "proofbench: filter 'r0042' and repaint", filterMs, filterCpuMs, matching);
    return 0;
}
