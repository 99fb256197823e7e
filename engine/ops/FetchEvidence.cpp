#include "ops/FetchEvidence.h"
#include "core/Plural.h"
#include "ops/TrustedRoots.h"

#include "db/Database.h"
#include "oci/Layout.h"
#include "ops/ImportEvidence.h"
#include "receipts/Kinds.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QMutex>
#include <QMutexLocker>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace pb::ops {

namespace {

QString checkDetail(const evidence::BundleCheck& check, bool signaturePulled) {
    QStringList parts;
    if (check.exitCode >= 2) {
        for (const evidence::CheckStep& s : check.steps)
            if (s.status == evidence::StepStatus::Failed) {
                parts << QStringLiteral("%1: %2").arg(s.name, s.detail);
                break;
            }
        if (parts.isEmpty())
            parts << QStringLiteral("incomplete bundle");
    } else if (check.exitCode == 1) {
        parts << QStringLiteral("the bundle records failed tests");
    }
    if (check.signature)
        parts << (check.signature->verified
                      ? QStringLiteral("signature verified")
                      : QStringLiteral("signature: %1").arg(check.signature->summary()));
    else if (check.signaturePresent)
        parts << QStringLiteral("signature pulled, not checked (no trusted root)");
    else
        parts << (signaturePulled ? QStringLiteral("signature pulled")
                                  : QStringLiteral("no signature referrer"));
    return parts.join(QStringLiteral("; "));
}

// Pull, load and check one pointer's bundle (no database): runs on the op's pool.
FetchedBundle fetchOne(const evidence::Pointer& pointer, int index, const FetchEvidenceRequest& request,
                       const QString& cache, const evidence::SignatureCheck& signature, const Context& ctx) {
    FetchedBundle b;
    b.pointer = pointer;
    auto emitEvent = [&](FetchedState s, qint64 done = 0, qint64 total = -1) {
        if (request.onEvent)
            request.onEvent(FetchEvent{index, s, done, total});
    };
    if (ctx.cancelled()) {
        b.state = FetchedState::Cancelled;
        b.error = b.detail = QStringLiteral("cancelled before it started");
        return b;
    }
    emitEvent(FetchedState::Fetching);
    oci::ClientOptions opts = request.client;
    opts.cancel = ctx.cancelFlag();
    // The pull's bytes so far (the client counts across its blobs), at most ~10 times a second and
    // whenever they change after a pause.
    QElapsedTimer clock;
    qint64 posted = -1;
    opts.progress = [&](qint64 done, qint64 total, const QString&) {
        if (done == posted || (clock.isValid() && clock.elapsed() < 100 && done != total))
            return;
        clock.start();
        posted = done;
        emitEvent(FetchedState::Fetching, done, total);
    };
    oci::Client client(opts);
    Result<oci::EvidenceFetch> fetched = oci::fetchEvidence(client, pointer, cache);
    if (!fetched) {
        b.state = ctx.cancelled() ? FetchedState::Cancelled : FetchedState::Failed;
        b.error = b.detail = fetched.error().toString();
        b.exitCode = 3;
        return b;
    }
    b.fetch = *fetched;
    emitEvent(FetchedState::Checking);
    Result<evidence::SummaryBundle> bundle = evidence::loadSummaryBundle(fetched->dir);
    if (!bundle) {
        b.state = FetchedState::Invalid;
        b.error = b.detail = bundle.error().toString();
        b.exitCode = 2;
        return b;
    }
    bundle->ociManifestDigest = fetched->bundleDigest;
    b.check = evidence::checkBundle(*bundle, &pointer, &signature);
    b.exitCode = b.check->exitCode;
    b.state = b.exitCode == 0   ? FetchedState::Valid
              : b.exitCode == 1 ? FetchedState::ValidFailedPhases
                                : FetchedState::Invalid;
    b.detail = checkDetail(*b.check, fetched->signaturePulled);
    return b;
}

} // namespace

QJsonObject FetchedBundle::toJson() const {
    QJsonObject r{{QStringLiteral("pointer"), pointer.file}};
    if (!fetch) {
        r.insert(QStringLiteral("error"), error);
        r.insert(QStringLiteral("exit"), 3);
    } else if (!check) {
        r.insert(QStringLiteral("error"), error);
    } else {
        r.insert(QStringLiteral("fetch"), fetch->toJson());
        r.insert(QStringLiteral("check"), check->toJson());
        r.insert(QStringLiteral("exit"), check->exitCode);
    }
    return r;
}

int FetchEvidenceOutcome::valid() const {
    return int(std::count_if(bundles.begin(), bundles.end(), [](const FetchedBundle& b) {
        return b.state == FetchedState::Valid || b.state == FetchedState::ValidFailedPhases;
    }));
}

int FetchEvidenceOutcome::failed() const {
    return int(std::count_if(bundles.begin(), bundles.end(), [](const FetchedBundle& b) {
        return b.state == FetchedState::Failed || b.state == FetchedState::Invalid;
    }));
}

int FetchEvidenceOutcome::imported() const {
    return int(
        std::count_if(bundles.begin(), bundles.end(), [](const FetchedBundle& b) { return b.imported; }));
}

Result<FetchEvidenceOutcome> fetchEvidence(const Context& ctx, const FetchEvidenceRequest& request) {
    const QString cache = request.cacheDir.isEmpty() ? oci::Layout::defaultCacheDir() : request.cacheDir;
    // Signatures are checked (and imported) against what the caller gave, else the database's
    // default trusted root, as an evidence import does.
    std::optional<sigstore::TrustedRoot> storedRoot;
    evidence::SignatureCheck signature;
    if (request.signature) {
        signature = *request.signature;
    } else {
        auto def = resolveTrustedRoot(ctx, QString());
        if (!def)
            return def.error();
        storedRoot = std::move(*def);
        signature.root = storedRoot ? &*storedRoot : nullptr;
    }

    const int n = int(request.pointers.size());
    FetchEvidenceOutcome outcome;
    outcome.bundles.resize(size_t(n));
    {
        QThreadPool pool;
        pool.setMaxThreadCount(std::max(1, request.concurrency));
        QMutex progressMutex;
        int finished = 0;
        ctx.progress(0, n,
                     QStringLiteral("fetching %1")
                         .arg(counted(qint64(n), QStringLiteral("bundle"), QStringLiteral("bundles"))));
        std::vector<QFuture<void>> running;
        for (int i = 0; i < n; ++i)
            running.push_back(QtConcurrent::run(&pool, [&, i] {
                FetchedBundle b = fetchOne(request.pointers[size_t(i)], i, request, cache, signature, ctx);
                if (request.onEvent)
                    request.onEvent(FetchEvent{i, b.state, 0, -1, &b});
                QMutexLocker lock(&progressMutex);
                outcome.bundles[size_t(i)] = std::move(b);
                ++finished;
                ctx.progress(
                    finished, n,
                    QStringLiteral("%1 of %2 fetched and checked")
                        .arg(finished)
                        .arg(counted(qint64(n), QStringLiteral("bundle"), QStringLiteral("bundles"))));
            }));
        for (QFuture<void>& f : running)
            f.waitForFinished();
    }
    outcome.cancelled = ctx.cancelled();
    for (const FetchedBundle& b : outcome.bundles)
        outcome.worst = std::max(outcome.worst, b.exitCode);

    // What was fetched is imported, and the run is receipted, in one transaction.
    auto done = transact<int>(ctx, [&]() -> Result<std::pair<int, receipts::ReceiptDraft>> {
        // Each fetched bundle through the evidence import operation (its evidence.import-bundles
        // receipt in a savepoint of this transaction).
        for (FetchedBundle& b : outcome.bundles) {
            if (!b.fetch)
                continue;
            Result<ImportEvidenceBundlesOutcome> imported =
                importEvidenceBundles(ctx, ImportEvidenceBundlesRequest{b.fetch->dir, signature});
            if (!imported)
                return makeError(
                    QStringLiteral("%1: not imported: %2").arg(b.pointer.file, imported.error().toString()));
            b.imported = imported->bundles() > 0;
        }
        receipts::ReceiptDraft d;
        d.kind = receipts::kinds::EvidenceFetch;
        d.parameters = QJsonObject{{QStringLiteral("pointers"), n},
                                   {QStringLiteral("cache"), cache},
                                   {QStringLiteral("exit"), outcome.worst}};
        for (const FetchedBundle& b : outcome.bundles) {
            d.inputs.push_back(receipts::Artifact::bytes(b.pointer.file, b.pointer.raw));
            if (const evidence::Attestation* a = b.pointer.attestation();
                a && b.fetch && a->bundleDigest.startsWith(QLatin1String("sha256:")))
                d.outputs.push_back(receipts::Artifact::digest(a->bundleOci, a->bundleDigest.mid(7)));
        }
        // In name order: the same pointers give the same receipt whatever order they were listed in.
        auto byName = [](const receipts::Artifact& x, const receipts::Artifact& y) {
            return x.name < y.name;
        };
        std::stable_sort(d.inputs.begin(), d.inputs.end(), byName);
        std::stable_sort(d.outputs.begin(), d.outputs.end(), byName);
        d.result = outcome.worst == 0 && !outcome.cancelled   ? receipts::Outcome::Ok
                   : outcome.worst == 1 && !outcome.cancelled ? receipts::Outcome::Partial
                                                              : receipts::Outcome::Failed;
        d.message = QStringLiteral("%1 bundles: %2 valid, %3 failed or invalid; worst exit %4%5")
                        .arg(n)
                        .arg(outcome.valid())
                        .arg(outcome.failed())
                        .arg(outcome.worst)
                        .arg(outcome.cancelled ? QStringLiteral(", cancelled") : QString());
        return std::pair<int, receipts::ReceiptDraft>{0, std::move(d)};
    });
    if (!done)
        return done.error(); // nothing was imported: the transaction rolled back
    return outcome;
}

} // namespace pb::ops
