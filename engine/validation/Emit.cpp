#include "validation/Emit.h"

#include "catalog/Digest.h"
#include "core/Files.h"
#include "core/Hash.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace pb::validation {

namespace {

constexpr int kMaxStdoutLines = 2000; // per test; the head of an NCCL log is noise, the tail is the table

QString ctrfStatus(CheckState s) {
    switch (s) {
    case CheckState::Passed:
        return QStringLiteral("passed");
    case CheckState::Failed:
        return QStringLiteral("failed");
    case CheckState::Skipped:
        return QStringLiteral("skipped");
    case CheckState::Pending:
        return QStringLiteral("pending");
    case CheckState::Running:
    case CheckState::Other:
        return QStringLiteral("other");
    }
    return QStringLiteral("other");
}

QJsonArray stdoutLines(const CheckRun& c) {
    QList<QByteArray> lines = c.log.split('\n');
    while (!lines.isEmpty() && lines.back().trimmed().isEmpty())
        lines.removeLast();
    QJsonArray out;
    if (lines.size() > kMaxStdoutLines) {
        out.append(QStringLiteral("[%1 earlier lines omitted]").arg(lines.size() - kMaxStdoutLines));
        lines = lines.mid(lines.size() - kMaxStdoutLines);
    }
    for (QByteArray& l : lines) {
        if (l.endsWith('\r'))
            l.chop(1);
        out.append(QString::fromUtf8(l));
    }
    if (c.score)
        for (const QString& s : c.score->stdoutLines)
            out.append(s);
    return out;
}

QJsonObject metricsJson(const CheckRun& c) {
    QJsonObject extra = c.extra;
    if (c.score && !c.score->metrics.empty()) {
        QJsonArray metrics;
        for (const ScoredMetric& m : c.score->metrics) {
            QJsonObject o{{QStringLiteral("name"), m.name},
                          {QStringLiteral("unit"), m.unit},
                          {QStringLiteral("value"), m.measured},
                          {QStringLiteral("pass"), m.pass}};
            if (m.threshold) {
                o.insert(QStringLiteral("constraint"), m.threshold->written);
                o.insert(QStringLiteral("effectiveThreshold"), m.threshold->effective());
            }
            metrics.append(o);
        }
        extra.insert(QStringLiteral("proofbenchMetrics"), metrics);
    }
    return extra;
}

} // namespace

QByteArray ctrfReport(const RunResult& run, const QString& phase, const QString& toolVersion) {
    QJsonArray tests;
    int passed = 0, failed = 0, skipped = 0, pending = 0, other = 0;
    qint64 start = 0, stop = 0;
    for (const CheckRun& c : run.checks) {
        if (c.phase != phase)
            continue;
        const QString status = ctrfStatus(c.state);
        passed += status == QLatin1String("passed");
        failed += status == QLatin1String("failed");
        skipped += status == QLatin1String("skipped");
        pending += status == QLatin1String("pending");
        other += status == QLatin1String("other");
        if (c.started.isValid())
            start =
                start == 0 ? c.started.toMSecsSinceEpoch() : std::min(start, c.started.toMSecsSinceEpoch());
        if (c.finished.isValid())
            stop = std::max(stop, c.finished.toMSecsSinceEpoch());
        QJsonObject t{{QStringLiteral("name"), c.name},
                      {QStringLiteral("status"), status},
                      {QStringLiteral("duration"), c.durationMs},
                      {QStringLiteral("suite"), QJsonArray{phase}},
                      {QStringLiteral("stdout"), stdoutLines(c)}};
        if (!c.message.isEmpty())
            t.insert(QStringLiteral("message"), c.message);
        QJsonObject extra = metricsJson(c);
        if (c.state == CheckState::Other || c.state == CheckState::Pending) {
            // Why it could not run or finish: the fault's class and Kubernetes' own reason.
            if (!c.cause.isEmpty())
                extra.insert(QStringLiteral("cause"), c.cause);
            if (!c.k8sReason.isEmpty())
                extra.insert(QStringLiteral("reason"), c.k8sReason);
        }
        if (!extra.isEmpty())
            t.insert(QStringLiteral("extra"), extra);
        tests.append(t);
    }
    const QJsonObject summary{{QStringLiteral("tests"), int(tests.size())},
                              {QStringLiteral("passed"), passed},
                              {QStringLiteral("failed"), failed},
                              {QStringLiteral("skipped"), skipped},
                              {QStringLiteral("pending"), pending},
                              {QStringLiteral("other"), other},
                              {QStringLiteral("start"), start},
                              {QStringLiteral("stop"), stop}};
    const QJsonObject doc{
        {QStringLiteral("reportFormat"), QStringLiteral("CTRF")},
        {QStringLiteral("specVersion"), QStringLiteral("0.0.1")},
        {QStringLiteral("results"),
         QJsonObject{
             {QStringLiteral("tool"), QJsonObject{{QStringLiteral("name"), QStringLiteral("proofbench")},
                                                  {QStringLiteral("version"), toolVersion}}},
             {QStringLiteral("summary"), summary},
             {QStringLiteral("tests"), tests},
             {QStringLiteral("environment"), QJsonObject{{QStringLiteral("runId"), run.runId}}}}}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

namespace {

// manifest.json's file list: every file's path, size, sha256 and (for JSON) media type.
QJsonArray manifestFiles(const QMap<QString, QByteArray>& files) {
    QJsonArray list;
    for (auto it = files.cbegin(); it != files.cend(); ++it) {
        QJsonObject f{{QStringLiteral("path"), it.key()},
                      {QStringLiteral("size"), it.value().size()},
                      {QStringLiteral("sha256"), QStringLiteral("sha256:") + sha256Hex(it.value())}};
        if (it.key().endsWith(QLatin1String(".json")))
            f.insert(QStringLiteral("mediaType"), QStringLiteral("application/json"));
        list.append(f);
    }
    return list;
}

// The predicate's phases: passed, failed and skipped per phase with its CTRF report's digest. A
// check fails only on its own verdict: one that could not run or finish (`other`, or never
// started) is counted apart and listed in `incompleteChecks`.
QJsonObject phaseSummary(const RunResult& run, const QMap<QString, QByteArray>& files,
                         QJsonArray& incompleteChecks) {
    QJsonObject phases;
    for (const QString& phase : run.phasesRun) {
        int passed = 0, failed = 0, skipped = 0, other = 0;
        for (const CheckRun& c : run.checks) {
            if (c.phase != phase)
                continue;
            passed += c.state == CheckState::Passed;
            failed += c.state == CheckState::Failed;
            skipped += c.state == CheckState::Skipped;
            if (c.state == CheckState::Other || c.state == CheckState::Pending ||
                c.state == CheckState::Running) {
                ++other;
                incompleteChecks.append(QJsonObject{
                    {QStringLiteral("name"), c.name},
                    {QStringLiteral("phase"), phase},
                    {QStringLiteral("cause"), c.cause.isEmpty() ? QStringLiteral("other") : c.cause},
                    {QStringLiteral("reason"), c.k8sReason},
                    {QStringLiteral("message"), c.message}});
            }
        }
        QJsonObject ph{
            {QStringLiteral("passed"), passed},
            {QStringLiteral("failed"), failed},
            {QStringLiteral("skipped"), skipped},
            {QStringLiteral("ctrfDigest"),
             QStringLiteral("sha256:") + sha256Hex(files.value(QStringLiteral("ctrf/%1.json").arg(phase)))}};
        if (other > 0)
            ph.insert(QStringLiteral("other"), other);
        phases.insert(phase, ph);
    }
    return phases;
}

// The cluster the run read: Kubernetes version, node counts, the first GPU node's model and OS.
QJsonObject clusterFingerprint(const ClusterSnapshot& s) {
    const NodeInfo* n = s.firstGpuNode();
    QJsonObject fp{
        {QStringLiteral("k8sVersion"), QJsonObject{{QStringLiteral("value"), s.serverVersion}}},
        {QStringLiteral("nodeCount"), QJsonObject{{QStringLiteral("value"), int(s.nodes.size())}}},
        {QStringLiteral("gpuNodeCount"), QJsonObject{{QStringLiteral("value"), s.gpuNodeCount()}}}};
    if (n) {
        fp.insert(QStringLiteral("gpuModel"), QJsonObject{{QStringLiteral("value"), n->gpuProduct}});
        fp.insert(QStringLiteral("os"),
                  QJsonObject{{QStringLiteral("value"), n->osId}, {QStringLiteral("version"), n->osVersion}});
    }
    return fp;
}

} // namespace

Result<EmittedBundle> emitEvidence(const RunResult& run, const catalog::RecipeResult& recipe,
                                   const QString& outDir, const QString& toolVersion,
                                   const QString& validatorCatalogVersion) {
    EmittedBundle b;
    b.dir = QDir(outDir).absoluteFilePath(QStringLiteral("summary-bundle"));
    if (QFileInfo::exists(b.dir))
        return makeError(QStringLiteral("already exists; choose an empty --out directory"), b.dir);
    b.recipeName = recipe.recipeName();
    b.files[QStringLiteral("recipe.yaml")] = catalog::deterministicYaml(recipe);
    if (run.snapshot)
        b.files[QStringLiteral("snapshot.yaml")] = run.snapshot->toYaml();
    for (const QString& phase : run.phasesRun)
        b.files[QStringLiteral("ctrf/%1.json").arg(phase)] = ctrfReport(run, phase, toolVersion);

    const QJsonArray list = manifestFiles(b.files);
    const QByteArray manifest =
        QJsonDocument(QJsonObject{{QStringLiteral("schemaVersion"), QStringLiteral("1.0.0")},
                                  {QStringLiteral("files"), list}})
            .toJson(QJsonDocument::Indented);
    b.manifestDigest = QStringLiteral("sha256:") + sha256Hex(manifest);

    QJsonArray incompleteChecks;
    const QJsonObject phases = phaseSummary(run, b.files, incompleteChecks);
    Result<QString> digest = catalog::evidenceRecipeDigest(
        b.files[QStringLiteral("recipe.yaml")], QStringLiteral("recipe.yaml"), catalog::PredicateVersion::V3);
    if (!digest)
        return digest.error();
    b.recipeDigest = *digest;

    QJsonObject predicate{
        {QStringLiteral("schemaVersion"), QStringLiteral("1.0.0")},
        {QStringLiteral("attestedAt"),
         (run.finished.isValid() ? run.finished : QDateTime::currentDateTimeUtc())
             .toUTC()
             .toString(Qt::ISODate)},
        {QStringLiteral("aicrVersion"), QStringLiteral("proofbench-") + toolVersion},
        {QStringLiteral("validatorCatalogVersion"), validatorCatalogVersion},
        {QStringLiteral("recipe"),
         QJsonObject{{QStringLiteral("name"), b.recipeName}, {QStringLiteral("digest"), b.recipeDigest}}},
        {QStringLiteral("phases"), phases},
        {QStringLiteral("manifest"), QJsonObject{{QStringLiteral("digest"), b.manifestDigest},
                                                 {QStringLiteral("fileCount"), int(list.size())}}},
        {QStringLiteral("redaction"), QJsonObject{{QStringLiteral("policy"), QStringLiteral("full")}}}};
    if (!incompleteChecks.isEmpty()) {
        b.incomplete = true;
        predicate.insert(QStringLiteral("result"), QString::fromLatin1(kIncompleteResult));
        predicate.insert(QStringLiteral("incompleteChecks"), incompleteChecks);
    }
    if (run.snapshot)
        predicate.insert(QStringLiteral("fingerprint"), clusterFingerprint(*run.snapshot));
    const QJsonObject statement{
        {QStringLiteral("_type"), QStringLiteral("https://in-toto.io/Statement/v1")},
        {QStringLiteral("subject"),
         QJsonArray{QJsonObject{
             {QStringLiteral("name"), QStringLiteral("recipe:") + b.recipeName},
             {QStringLiteral("digest"), QJsonObject{{QStringLiteral("sha256"), b.recipeDigest}}}}}},
        {QStringLiteral("predicateType"), QStringLiteral("https://aicr.run/recipe-evidence/v3")},
        {QStringLiteral("predicate"), predicate}};
    b.files[QStringLiteral("manifest.json")] = manifest;
    b.files[QStringLiteral("statement.intoto.json")] =
        QJsonDocument(statement).toJson(QJsonDocument::Indented);

    for (auto it = b.files.cbegin(); it != b.files.cend(); ++it)
        if (Status s = writeFileAtomically(b.dir + QLatin1Char('/') + it.key(), it.value()); !s)
            return s.error();
    return b;
}

} // namespace pb::validation
