#include "ops/VerifyBatch.h"
#include "core/Plural.h"
#include "sigstore/Crypto.h"

#include "core/Files.h"
#include "receipts/Kinds.h"
#include "sigstore/TrustedRoot.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>

#include <atomic>
#include <numeric>
#include <optional>

namespace pb::ops {

namespace {

// One manifest row, as read (the verification runs later, on a pool thread).
struct Job {
    QString name, expected, mode, identity, issuer;
    std::optional<sigstore::Artifact> digest; // useDigest: the row's artifact_digest
    VerifyBatchCase out;
};

sigstore::VerificationResult inputsFailed(const QString& bundlePath, const QString& why) {
    sigstore::VerificationResult r;
    r.bundleFile = bundlePath;
    r.steps.push_back({QStringLiteral("inputs"), sigstore::StepState::Failed, why, {}, {}});
    return r;
}

// Verifies one case; a file that cannot be read fails the case at its "inputs" step.
sigstore::VerificationResult runCase(const QDir& dir, const Job& job, const sigstore::TrustedRoot* common,
                                     bool useDigest) {
    sigstore::Policy policy;
    if (job.mode == QLatin1String("key")) {
        auto key = readFileLimited(dir.filePath(QStringLiteral("key.pub")), limits::kSmallFile,
                                   QStringLiteral("the public key"));
        policy.publicKeyPem = key ? *key : QByteArray();
    } else {
        policy.identity = job.identity;
        policy.issuer = job.issuer;
    }
    std::optional<sigstore::TrustedRoot> own;
    if (!common)
        if (auto r = sigstore::loadTrustedRoot(dir.filePath(QStringLiteral("trusted_root.json"))); r)
            own = std::move(*r);
    const sigstore::TrustedRoot* root = common ? common : own ? &*own : nullptr;
    const QString bundlePath = dir.filePath(QStringLiteral("bundle.sigstore.json"));
    auto bundle = readFileLimited(bundlePath, limits::kDocumentFile, QStringLiteral("the bundle"));
    std::optional<Result<QByteArray>> artifactBytes;
    if (!useDigest)
        artifactBytes = readFileLimited(dir.filePath(QStringLiteral("artifact")), limits::kDocumentFile,
                                        QStringLiteral("the artifact"));
    if (!root)
        return inputsFailed(bundlePath, QStringLiteral("no readable trusted root"));
    if (!bundle)
        return inputsFailed(bundlePath, bundle.error().toString());
    if (artifactBytes && !*artifactBytes)
        return inputsFailed(bundlePath, artifactBytes->error().toString());
    const sigstore::Artifact artifact =
        useDigest ? *job.digest : sigstore::Artifact::fromBytes(std::move(**artifactBytes));
    return sigstore::verifyBundle(*bundle, bundlePath, artifact, *root, policy);
}

// Runs job(i) for every i in [0, count) on Qt's global thread pool (the calling thread joins in),
// stopping early when `cancel` is set; after each, done(i) runs under a lock. Returns whether every
// job ran. Each worker gives back OpenSSL's per-thread state after its jobs (see
// crypto::releasePoolThreadState).
template <typename Job, typename Done>
bool runConcurrently(qint64 count, const std::atomic_bool* cancel, Job job, Done done) {
    std::vector<qint64> indexes(static_cast<size_t>(count));
    std::iota(indexes.begin(), indexes.end(), qint64(0));
    std::atomic<qint64> ran{0};
    QMutex lock;
    QThread* const caller = QThread::currentThread();
    QtConcurrent::blockingMap(indexes, [&](qint64 i) {
        if (cancel && cancel->load())
            return;
        job(i);
        sigstore::crypto::releasePoolThreadState(caller);
        ++ran;
        QMutexLocker locked(&lock);
        done(i);
    });
    return ran.load() == count;
}

sigstore::VerificationResult verifyOne(const BundleVerification& item, const sigstore::Policy& policy) {
    if (!item.root)
        return inputsFailed(item.bundleFile, QStringLiteral("no trusted root"));
    if (item.parsed)
        return sigstore::verifyBundle(*item.parsed, item.bundleFile, item.artifact, *item.root, policy);
    return sigstore::verifyBundle(item.bundleJson, item.bundleFile, item.artifact, *item.root, policy);
}

// The items' policies, each public key decoded once however many bundles it is to verify.
std::vector<sigstore::Policy> preparePolicies(const std::vector<BundleVerification>& items) {
    std::vector<sigstore::Policy> out;
    out.reserve(items.size());
    QHash<QByteArray, std::shared_ptr<const sigstore::PreparedKey>> keys;
    for (const BundleVerification& item : items) {
        sigstore::Policy p = item.policy;
        if (p.keyMode() && !p.preparedKey) {
            auto it = keys.constFind(p.publicKeyPem);
            if (it == keys.constEnd()) {
                p.prepare();
                keys.insert(p.publicKeyPem, p.preparedKey);
            } else {
                p.preparedKey = *it;
            }
        }
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace

Result<std::vector<sigstore::VerificationResult>>
verifyBundles(const Context& ctx, const std::vector<BundleVerification>& items, const QString& what) {
    std::vector<sigstore::VerificationResult> results(items.size());
    const std::vector<sigstore::Policy> policies = preparePolicies(items);
    const qint64 total = qint64(items.size());
    qint64 done = 0;
    ctx.progress(0, total, QStringLiteral("verifying %1 %2").arg(total).arg(what));
    const bool complete = runConcurrently(
        total, ctx.cancelFlag(),
        [&](qint64 i) { results[size_t(i)] = verifyOne(items[size_t(i)], policies[size_t(i)]); },
        [&](qint64 i) {
            const qint64 n = ++done;
            ctx.progress(n, total,
                         QStringLiteral("%1 of %2: %3").arg(n).arg(total).arg(items[size_t(i)].bundleFile));
        });
    if (!complete)
        return makeError(QStringLiteral("cancelled after %1 of %2 %3").arg(done).arg(total).arg(what));
    return results;
}

std::vector<sigstore::VerificationResult> verifyBundles(const std::vector<BundleVerification>& items) {
    std::vector<sigstore::VerificationResult> results(items.size());
    const std::vector<sigstore::Policy> policies = preparePolicies(items);
    runConcurrently(
        qint64(items.size()), nullptr,
        [&](qint64 i) { results[size_t(i)] = verifyOne(items[size_t(i)], policies[size_t(i)]); },
        [](qint64) {});
    return results;
}

Result<VerifyBatchOutcome> verifyBatch(const Context& ctx, const VerifyBatchRequest& request) {
    const QString& manifest = request.manifestPath;
    auto text = readFileLimited(manifest, limits::kDocumentFile, QStringLiteral("the manifest"));
    if (!text)
        return text.error();
    std::optional<sigstore::TrustedRoot> common;
    if (!request.trustedRootPath.isEmpty()) {
        auto r = sigstore::loadTrustedRoot(request.trustedRootPath);
        if (!r)
            return r.error();
        common = std::move(*r);
    }

    VerifyBatchOutcome outcome;
    std::vector<Job> jobs;
    const QList<QByteArray> lines = text->split('\n');
    for (int i = 1; i < lines.size(); ++i) { // line 1 is the header
        if (lines.at(i).trimmed().isEmpty())
            continue;
        const QStringList c = QString::fromUtf8(lines.at(i)).split(QLatin1Char('\t'));
        if (c.size() < 7) {
            outcome.unreadableLines.push_back(
                makeError(QStringLiteral("expected at least 7 tab-separated columns, found %1").arg(c.size()),
                          manifest, i + 1));
            continue;
        }
        Job job{c.at(0), c.at(1), c.at(2), c.at(3), c.at(4), std::nullopt, {}};
        if (request.useDigest) {
            auto d = sigstore::Artifact::fromDigest(c.at(6));
            if (!d) {
                outcome.unreadableLines.push_back(
                    makeError(QStringLiteral("artifact_digest: %1").arg(d.error().message), manifest, i + 1));
                continue;
            }
            job.digest = std::move(*d);
        }
        jobs.push_back(std::move(job));
    }

    // The cases are independent: spread over the cores. The trusted root is only read.
    const QDir base = QFileInfo(manifest).dir();
    const sigstore::TrustedRoot* root = common ? &*common : nullptr;
    const qint64 total = qint64(jobs.size());
    qint64 done = 0;
    ctx.progress(0, total,
                 QStringLiteral("verifying %1")
                     .arg(counted(qint64(total), QStringLiteral("case"), QStringLiteral("cases"))));
    const bool complete = runConcurrently(
        total, ctx.cancelFlag(),
        [&](qint64 i) {
            Job& job = jobs[size_t(i)];
            job.out.name = job.name;
            job.out.expected = job.expected;
            job.out.result = runCase(QDir(base.filePath(QStringLiteral("cases/") + job.name)), job, root,
                                     request.useDigest);
            job.out.asExpected = job.expected.isEmpty() || job.out.verdict() == job.expected;
        },
        [&](qint64 i) {
            const qint64 n = ++done;
            ctx.progress(n, total,
                         QStringLiteral("%1 of %2: %3").arg(n).arg(total).arg(jobs[size_t(i)].name));
        });
    if (!complete)
        return makeError(QStringLiteral("cancelled after %1 of %2")
                             .arg(done)
                             .arg(counted(qint64(total), QStringLiteral("case"), QStringLiteral("cases"))),
                         manifest);

    for (Job& job : jobs) {
        outcome.verified += job.out.result.verified ? 1 : 0;
        outcome.asExpected += job.out.asExpected ? 1 : 0;
        outcome.cases.push_back(std::move(job.out));
    }
    if (common)
        outcome.trustedRootSha256 = QString::fromLatin1(common->sha256.toHex());

    receipts::ReceiptDraft d;
    d.kind = receipts::kinds::VerifyBatch;
    d.parameters = QJsonObject{{QStringLiteral("useDigest"), request.useDigest},
                               {QStringLiteral("trustedRootSha256"),
                                common ? outcome.trustedRootSha256 : QStringLiteral("per case")},
                               {QStringLiteral("cases"), outcome.total()},
                               {QStringLiteral("verified"), outcome.verified},
                               {QStringLiteral("asExpected"), outcome.asExpected},
                               {QStringLiteral("unreadableLines"), int(outcome.unreadableLines.size())}};
    d.inputs.push_back(receipts::Artifact::bytes(manifest, *text));
    d.result = outcomeOf(outcome.ok());
    d.message = QStringLiteral("%1: %2 verified, %3 as expected")
                    .arg(counted(qint64(outcome.total()), QStringLiteral("case"), QStringLiteral("cases")))
                    .arg(outcome.verified)
                    .arg(outcome.asExpected);
    if (auto r = record(ctx, d); !r)
        return r.error();
    return outcome;
}

} // namespace pb::ops
