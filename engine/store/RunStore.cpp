#include "store/RunStore.h"
#include "store/IdPrefix.h"

#include "db/BulkInsert.h"

#include "store/Returning.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <map>

namespace pb::store {

using validation::CheckRun;
using validation::CheckState;
using validation::RunResult;

namespace {

QString iso(const QDateTime& t) {
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}
QDateTime parseTime(const QVariant& v) {
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t : QDateTime::fromString(v.toString(), Qt::ISODate);
}
// Text columns are NOT NULL: an unset QString binds as "" rather than NULL.
QString text(const QString& s) {
    return s.isNull() ? QStringLiteral("") : s;
}
QByteArray json(const QJsonObject& o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
QByteArray json(const QJsonArray& a) {
    return QJsonDocument(a).toJson(QJsonDocument::Compact);
}

CheckState stateFromName(const QString& s) {
    for (CheckState st : {CheckState::Pending, CheckState::Running, CheckState::Passed, CheckState::Failed,
                          CheckState::Skipped, CheckState::Other})
        if (validation::checkStateName(st) == s)
            return st;
    return CheckState::Other;
}

validation::RunState runStateFromName(const QString& s) {
    using validation::RunState;
    for (RunState st : {RunState::Running, RunState::Passed, RunState::Failed, RunState::Cancelled,
                        RunState::Error, RunState::ReadinessFailed, RunState::Incomplete, RunState::Skipped})
        if (validation::runStateName(st) == s)
            return st;
    return RunState::Passed; // "imported"
}

QJsonValue opt(const std::optional<double>& v) {
    return v ? QJsonValue(*v) : QJsonValue();
}
std::optional<double> opt(const QJsonValue& v) {
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

QJsonObject distJson(const validation::Distribution& d) {
    return QJsonObject{{QStringLiteral("avg"), opt(d.avg)}, {QStringLiteral("min"), opt(d.min)},
                       {QStringLiteral("max"), opt(d.max)}, {QStringLiteral("p50"), opt(d.p50)},
                       {QStringLiteral("p90"), opt(d.p90)}, {QStringLiteral("p95"), opt(d.p95)},
                       {QStringLiteral("p99"), opt(d.p99)}};
}
validation::Distribution distFrom(const QJsonObject& o) {
    validation::Distribution d;
    d.avg = opt(o.value(QStringLiteral("avg")));
    d.min = opt(o.value(QStringLiteral("min")));
    d.max = opt(o.value(QStringLiteral("max")));
    d.p50 = opt(o.value(QStringLiteral("p50")));
    d.p90 = opt(o.value(QStringLiteral("p90")));
    d.p95 = opt(o.value(QStringLiteral("p95")));
    d.p99 = opt(o.value(QStringLiteral("p99")));
    return d;
}

QJsonObject ncclDetail(const validation::NcclResult& r) {
    return QJsonObject{
        {QStringLiteral("kind"), QStringLiteral("nccl")},
        {QStringLiteral("collective"), r.collective},
        {QStringLiteral("ncclVersion"), r.ncclVersion},
        {QStringLiteral("testsVersion"), r.testsVersion},
        {QStringLiteral("ranks"), r.ranks},
        {QStringLiteral("footerAvgBusBw"), opt(r.footerAvgBusBw)},
        {QStringLiteral("computedAvgBusBw"), r.computedAvgBusBw},
        {QStringLiteral("netPlugin"), r.netPlugin},
        {QStringLiteral("nvlsMulticast"), r.nvlsMulticast},
        {QStringLiteral("nvlsComm"), r.nvlsComm},
        {QStringLiteral("lines"), r.lines},
        {QStringLiteral("bytes"), r.bytes},
        {QStringLiteral("rowsRead"), r.rowsRead},
        {QStringLiteral("repeatedRows"), r.repeatedRows},
        {QStringLiteral("decimation"), r.decimation},
        {QStringLiteral("types"), QJsonArray{r.rows.empty() ? QString() : r.rows.back().type,
                                             r.rows.empty() ? QString() : r.rows.back().redop}}};
}

QJsonObject inferenceDetail(const validation::InferenceResult& r) {
    return QJsonObject{
        {QStringLiteral("kind"), validation::perfKindName(r.kind)},
        {QStringLiteral("format"), r.format},
        {QStringLiteral("toolVersion"), r.toolVersion},
        {QStringLiteral("outputTokensPerSec"), opt(r.outputTokensPerSec)},
        {QStringLiteral("requestsPerSec"), opt(r.requestsPerSec)},
        {QStringLiteral("ttftMs"), distJson(r.ttftMs)},
        {QStringLiteral("itlMs"), distJson(r.itlMs)},
        {QStringLiteral("requestLatencyMs"), distJson(r.requestLatencyMs)},
        {QStringLiteral("requests"), r.requests ? QJsonValue(double(*r.requests)) : QJsonValue()},
        {QStringLiteral("errors"), r.errors ? QJsonValue(double(*r.errors)) : QJsonValue()},
        {QStringLiteral("durationSec"), opt(r.durationSec)}};
}

validation::InferenceResult inferenceFrom(const QJsonObject& o) {
    validation::InferenceResult r;
    r.kind = validation::perfKindFromName(o.value(QStringLiteral("kind")).toString())
                 .value_or(validation::PerfKind::AIPerf);
    r.format = o.value(QStringLiteral("format")).toString();
    r.toolVersion = o.value(QStringLiteral("toolVersion")).toString();
    r.outputTokensPerSec = opt(o.value(QStringLiteral("outputTokensPerSec")));
    r.requestsPerSec = opt(o.value(QStringLiteral("requestsPerSec")));
    r.ttftMs = distFrom(o.value(QStringLiteral("ttftMs")).toObject());
    r.itlMs = distFrom(o.value(QStringLiteral("itlMs")).toObject());
    r.requestLatencyMs = distFrom(o.value(QStringLiteral("requestLatencyMs")).toObject());
    if (o.value(QStringLiteral("requests")).isDouble())
        r.requests = qint64(o.value(QStringLiteral("requests")).toDouble());
    if (o.value(QStringLiteral("errors")).isDouble())
        r.errors = qint64(o.value(QStringLiteral("errors")).toDouble());
    r.durationSec = opt(o.value(QStringLiteral("durationSec")));
    return r;
}

Status exec(QSqlQuery& q, const QString& what) {
    if (!q.exec())
        return sqlError(q, what);
    return {};
}

// The scored metrics of a check, with their thresholds.
Status writeMetrics(QSqlDatabase& db, qint64 checkId, const CheckRun& c) {
    if (!c.score)
        return {};
    QSqlQuery m(db);
    m.prepare(QStringLiteral(
        "INSERT INTO run_metrics (check_id, name, unit, value, constraint_text, threshold, effective, pass) "
        "VALUES (?,?,?,?,?,?,?,?)"));
    for (const validation::ScoredMetric& sm : c.score->metrics) {
        m.addBindValue(checkId);
        m.addBindValue(sm.name);
        m.addBindValue(sm.unit);
        m.addBindValue(sm.measured);
        m.addBindValue(sm.threshold ? QVariant(sm.threshold->written)
                                    : QVariant(QMetaType(QMetaType::QString)));
        m.addBindValue(sm.threshold ? QVariant(sm.threshold->value) : QVariant(QMetaType(QMetaType::Double)));
        m.addBindValue(sm.threshold ? QVariant(sm.threshold->effective())
                                    : QVariant(QMetaType(QMetaType::Double)));
        m.addBindValue(sm.pass ? 1 : 0);
        if (Status s = exec(m, QStringLiteral("run_metrics")); !s)
            return s;
    }
    return {};
}

// The NCCL rows and inference distributions of a check as series points: batch inserts through
// one prepared statement.
Status writeSeries(QSqlDatabase& db, qint64 checkId, const CheckRun& c) {
    QVariantList ids, names, xs, ys;
    auto point = [&](const char* series, double x, double y) {
        ids << checkId; // its position in the lists is its seq
        names << QString::fromLatin1(series);
        xs << x;
        ys << y;
    };
    if (c.nccl)
        for (const validation::NcclRow& r : c.nccl->rows) {
            const double x = double(r.sizeBytes);
            point("nccl.oop.busbw", x, r.oopBusBw);
            point("nccl.ip.busbw", x, r.ipBusBw);
            point("nccl.oop.algbw", x, r.oopAlgBw);
            point("nccl.ip.algbw", x, r.ipAlgBw);
            point("nccl.oop.time", x, r.oopTimeUs);
            point("nccl.ip.time", x, r.ipTimeUs);
        }
    if (c.inference) {
        auto dist = [&](const char* series, const validation::Distribution& d) {
            const std::pair<double, std::optional<double>> pts[] = {
                {-1, d.min}, {0, d.avg}, {50, d.p50}, {90, d.p90}, {95, d.p95}, {99, d.p99}, {100, d.max}};
            for (const auto& [x, y] : pts)
                if (y)
                    point(series, x, *y);
        };
        dist("ttft", c.inference->ttftMs);
        dist("itl", c.inference->itlMs);
        dist("latency", c.inference->requestLatencyMs);
    }
    if (!ids.isEmpty()) {
        // The engine's bulk path, in the order the points were made (run_series is read back by id).
        db::BulkInsert series(db, QStringLiteral("run_series"),
                              {QStringLiteral("check_id"), QStringLiteral("series"), QStringLiteral("x"),
                               QStringLiteral("y"), QStringLiteral("seq")});
        for (qsizetype i = 0; i < ids.size(); ++i)
            if (Status st = series.add({ids[i], names[i], xs[i], ys[i], i}); !st)
                return st;
        return series.finish();
    }
    return {};
}

Status writeCheck(QSqlDatabase& db, qint64 runId, int seq, const CheckRun& c) {
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO run_checks (run_id, seq, phase, name, state, exit_code, message, image, job, pod, "
        "started_at, finished_at, "
        "duration_ms, log, result_lines, extra, verdict, score_message, detail, cause, k8s_reason) VALUES "
        "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
        "ON CONFLICT (run_id, name) DO UPDATE SET seq = excluded.seq, phase = excluded.phase, state = "
        "excluded.state, "
        "exit_code = excluded.exit_code, message = excluded.message, image = excluded.image, job = "
        "excluded.job, pod = excluded.pod, "
        "started_at = excluded.started_at, finished_at = excluded.finished_at, duration_ms = "
        "excluded.duration_ms, log = excluded.log, "
        "result_lines = excluded.result_lines, extra = excluded.extra, verdict = excluded.verdict, "
        "score_message = excluded.score_message, detail = excluded.detail, cause = excluded.cause, "
        "k8s_reason = excluded.k8s_reason"));
    QJsonObject detail;
    if (c.nccl)
        detail = ncclDetail(*c.nccl);
    else if (c.inference)
        detail = inferenceDetail(*c.inference);
    q.addBindValue(runId);
    q.addBindValue(seq);
    q.addBindValue(text(c.phase));
    q.addBindValue(c.name);
    q.addBindValue(validation::checkStateName(c.state));
    q.addBindValue(c.exitCode >= 0 ? QVariant(c.exitCode) : QVariant(QMetaType(QMetaType::Int)));
    q.addBindValue(text(c.message));
    q.addBindValue(text(c.image));
    q.addBindValue(text(c.job));
    q.addBindValue(text(c.pod));
    q.addBindValue(nullable(iso(c.started)));
    q.addBindValue(nullable(iso(c.finished)));
    q.addBindValue(c.durationMs);
    q.addBindValue(c.log.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(c.log));
    q.addBindValue(QString::fromUtf8(json(QJsonArray::fromStringList(c.resultLines))));
    q.addBindValue(QString::fromUtf8(json(c.extra)));
    q.addBindValue(c.score ? QVariant(validation::verdictName(c.score->verdict))
                           : QVariant(QMetaType(QMetaType::QString)));
    q.addBindValue(text(c.score ? c.score->message : QString()));
    q.addBindValue(QString::fromUtf8(json(detail)));
    q.addBindValue(text(c.cause));
    q.addBindValue(text(c.k8sReason));
    if (Status s = exec(q, QStringLiteral("run_checks")); !s)
        return s;

    QSqlQuery idq(db);
    idq.prepare(QStringLiteral("SELECT id FROM run_checks WHERE run_id = ? AND name = ?"));
    idq.addBindValue(runId);
    idq.addBindValue(c.name);
    if (!idq.exec() || !idq.next())
        return sqlError(idq, QStringLiteral("run_checks"));
    const qint64 checkId = idq.value(0).toLongLong();
    for (const char* table :
         {"DELETE FROM run_metrics WHERE check_id = ?", "DELETE FROM run_series WHERE check_id = ?"}) {
        QSqlQuery del(db);
        del.prepare(QLatin1String(table));
        del.addBindValue(checkId);
        if (Status s = exec(del, QStringLiteral("run_metrics")); !s)
            return s;
    }
    if (Status st = writeMetrics(db, checkId, c); !st)
        return st;
    return writeSeries(db, checkId, c);
}

QJsonArray readinessJson(const std::vector<validation::ConstraintCheck>& checks) {
    QJsonArray out;
    for (const validation::ConstraintCheck& c : checks)
        out.append(
            QJsonObject{{QStringLiteral("name"), c.constraint.name},
                        {QStringLiteral("value"), c.constraint.value},
                        {QStringLiteral("source"), c.source},
                        {QStringLiteral("measured"), c.measured},
                        {QStringLiteral("outcome"),
                         c.outcome == validation::ConstraintOutcome::Passed   ? QStringLiteral("passed")
                         : c.outcome == validation::ConstraintOutcome::Failed ? QStringLiteral("failed")
                                                                              : QStringLiteral("unknown")},
                        {QStringLiteral("detail"), c.detail}});
    return out;
}

const char* kSummaryColumns =
    "SELECT r.id, r.run_uid, r.source, r.state, r.reason, r.recipe_name, r.coordinate, r.context, r.server, "
    "r.phases, "
    "r.started_at, r.finished_at, r.evidence_dir, "
    "(SELECT count(*) FROM run_checks c WHERE c.run_id = r.id), "
    "(SELECT count(*) FROM run_checks c WHERE c.run_id = r.id AND c.state = 'passed'), "
    "(SELECT count(*) FROM run_checks c WHERE c.run_id = r.id AND c.state = 'failed'), "
    "(SELECT count(*) FROM run_checks c WHERE c.run_id = r.id AND c.state = 'skipped'), "
    "(SELECT count(*) FROM run_checks c WHERE c.run_id = r.id AND c.state = 'other'), "
    "(SELECT count(*) FROM run_leftovers l WHERE l.run_id = r.id AND l.removed_at IS NULL), r.time_source "
    "FROM runs r ";

RunSummary readSummary(const QSqlQuery& q) {
    RunSummary s;
    s.id = q.value(0).toLongLong();
    s.runUid = q.value(1).toString();
    s.source = q.value(2).toString();
    s.state = q.value(3).toString();
    s.reason = q.value(4).toString();
    s.recipeName = q.value(5).toString();
    s.coordinate = q.value(6).toString();
    s.context = q.value(7).toString();
    s.server = q.value(8).toString();
    s.phases = q.value(9).toString();
    s.startedAt = parseTime(q.value(10));
    s.finishedAt = parseTime(q.value(11));
    s.evidenceDir = q.value(12).toString();
    s.checks = q.value(13).toInt();
    s.passed = q.value(14).toInt();
    s.failed = q.value(15).toInt();
    s.skipped = q.value(16).toInt();
    s.other = q.value(17).toInt();
    s.leftovers = q.value(18).toInt();
    s.timeKnown = q.value(19).toString() != QLatin1String("unknown");
    return s;
}

} // namespace

Result<qint64> RunStore::begin(const RunHeader& h, const QString& runUid, const std::vector<CheckRun>& plan) {
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(m_db.sql());
    q.prepare(
        QStringLiteral("INSERT INTO runs (run_uid, source, state, recipe_name, coordinate, catalog_version, "
                       "criteria, context, server, "
                       "namespace, phases, tool_version, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
                       "RETURNING id"));
    QStringList phases;
    for (const CheckRun& c : plan)
        if (!phases.contains(c.phase))
            phases << c.phase;
    q.addBindValue(runUid);
    q.addBindValue(text(h.source));
    q.addBindValue(QStringLiteral("running"));
    q.addBindValue(text(h.recipeName));
    q.addBindValue(h.coordinate.isEmpty() ? h.recipeName : h.coordinate);
    q.addBindValue(text(h.catalogVersion));
    q.addBindValue(QString::fromUtf8(json(h.criteria)));
    q.addBindValue(text(h.context));
    q.addBindValue(text(h.server));
    q.addBindValue(text(h.namespace_));
    q.addBindValue(phases.join(QLatin1Char(',')));
    q.addBindValue(text(h.toolVersion));
    q.addBindValue(iso(QDateTime::currentDateTimeUtc()));
    Result<qint64> inserted = execReturningId(q, QStringLiteral("runs"));
    if (!inserted)
        return inserted.error();
    const qint64 id = *inserted;
    for (size_t i = 0; i < plan.size(); ++i)
        if (Status s = writeCheck(m_db.sql(), id, int(i), plan[i]); !s)
            return s.error();
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the run"), m_db.path());
    return id;
}

Status RunStore::saveCheck(qint64 runId, int seq, const CheckRun& check) {
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    if (Status s = writeCheck(m_db.sql(), runId, seq, check); !s)
        return s;
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the check"), m_db.path());
    return {};
}

Status RunStore::finish(qint64 runId, const RunResult& r, const QString& evidenceDir) {
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("UPDATE runs SET state = ?, reason = ?, finished_at = ?, snapshot_yaml = ?, "
                             "readiness = ?, evidence_dir = ?, "
                             "started_at = coalesce(?, started_at) WHERE id = ?"));
    q.addBindValue(validation::runStateName(r.state));
    q.addBindValue(text(r.reason));
    q.addBindValue(nullable(iso(r.finished.isValid() ? r.finished : QDateTime::currentDateTimeUtc())));
    q.addBindValue(r.snapshot ? QVariant(r.snapshot->toYaml()) : QVariant(QMetaType(QMetaType::QByteArray)));
    q.addBindValue(QString::fromUtf8(json(readinessJson(r.readiness))));
    q.addBindValue(text(evidenceDir));
    q.addBindValue(nullable(iso(r.started)));
    q.addBindValue(runId);
    if (Status s = exec(q, QStringLiteral("runs")); !s)
        return s;
    for (size_t i = 0; i < r.checks.size(); ++i)
        if (Status s = writeCheck(m_db.sql(), runId, int(i), r.checks[i]); !s)
            return s;
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the run"), m_db.path());
    return {};
}

Result<qint64> RunStore::saveImported(const RunHeader& header, const RunResult& result, const QStringList&) {
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("INSERT INTO runs (run_uid, source, state, reason, recipe_name, coordinate, "
                             "catalog_version, criteria, context, "
                             "server, namespace, phases, tool_version, started_at, finished_at, time_source, "
                             "source_digest) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id"));
    q.addBindValue(text(result.runId));
    q.addBindValue(QStringLiteral("import"));
    q.addBindValue(validation::runStateName(result.state));
    q.addBindValue(text(result.reason));
    q.addBindValue(text(header.recipeName));
    q.addBindValue(header.coordinate.isEmpty() ? header.recipeName : header.coordinate);
    q.addBindValue(text(header.catalogVersion));
    q.addBindValue(QString::fromUtf8(json(header.criteria)));
    q.addBindValue(text(header.context));
    q.addBindValue(text(header.server));
    q.addBindValue(text(header.namespace_));
    q.addBindValue(result.phasesRun.join(QLatin1Char(',')));
    q.addBindValue(text(header.toolVersion));
    q.addBindValue(iso(result.started.isValid() ? result.started : QDateTime::currentDateTimeUtc()));
    q.addBindValue(iso(result.finished.isValid() ? result.finished : QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(header.timeSource));
    q.addBindValue(nullable(header.sourceDigest));
    Result<qint64> inserted = execReturningId(q, QStringLiteral("runs"));
    if (!inserted)
        return inserted.error();
    const qint64 id = *inserted;
    for (size_t i = 0; i < result.checks.size(); ++i)
        if (Status s = writeCheck(m_db.sql(), id, int(i), result.checks[i]); !s)
            return s.error();
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the run"), m_db.path());
    return id;
}

Result<std::vector<RunSummary>> RunStore::list(const QString& coordinate, int limit) const {
    QSqlQuery q(m_db.sql());
    q.prepare(QString::fromLatin1(kSummaryColumns) +
              (coordinate.isEmpty() ? QString() : QStringLiteral("WHERE r.coordinate = ? ")) +
              // Runs of unknown time are not "newest": dated runs first (newest first), then those.
              QStringLiteral("ORDER BY CASE WHEN r.time_source = 'unknown' THEN 1 ELSE 0 END, "
                             "r.started_at DESC, r.id DESC LIMIT ?"));
    if (!coordinate.isEmpty())
        q.addBindValue(coordinate);
    q.addBindValue(limit);
    if (!q.exec())
        return sqlError(q, QStringLiteral("runs"));
    std::vector<RunSummary> out;
    while (q.next())
        out.push_back(readSummary(q));
    return out;
}

Result<QStringList> RunStore::coordinates() const {
    QSqlQuery q(m_db.sql());
    if (!q.exec(QStringLiteral(
            "SELECT DISTINCT coordinate FROM runs WHERE coordinate <> '' ORDER BY coordinate")))
        return sqlError(q, QStringLiteral("runs"));
    QStringList out;
    while (q.next())
        out << q.value(0).toString();
    return out;
}

namespace {

// One readiness constraint as runs.readiness keeps it.
validation::ConstraintCheck readinessFrom(const QJsonObject& o) {
    validation::ConstraintCheck c;
    c.constraint.name = o.value(QStringLiteral("name")).toString();
    c.constraint.value = o.value(QStringLiteral("value")).toString();
    c.source = o.value(QStringLiteral("source")).toString();
    c.measured = o.value(QStringLiteral("measured")).toString();
    const QString outcome = o.value(QStringLiteral("outcome")).toString();
    c.outcome = outcome == QLatin1String("passed")   ? validation::ConstraintOutcome::Passed
                : outcome == QLatin1String("failed") ? validation::ConstraintOutcome::Failed
                                                     : validation::ConstraintOutcome::Unknown;
    c.detail = o.value(QStringLiteral("detail")).toString();
    return c;
}

// A check's columns of run_checks (id, phase, name, ...), without its score and detail.
CheckRun checkFromRow(const QSqlQuery& q) {
    CheckRun c;
    c.phase = q.value(1).toString();
    c.name = q.value(2).toString();
    c.state = stateFromName(q.value(3).toString());
    c.exitCode = q.value(4).isNull() ? -1 : q.value(4).toInt();
    c.message = q.value(5).toString();
    c.image = q.value(6).toString();
    c.job = q.value(7).toString();
    c.pod = q.value(8).toString();
    c.started = parseTime(q.value(9));
    c.finished = parseTime(q.value(10));
    c.durationMs = q.value(11).toLongLong();
    c.log = q.value(12).toByteArray();
    for (const QJsonValue& v : QJsonDocument::fromJson(q.value(13).toByteArray()).array())
        c.resultLines << v.toString();
    c.extra = QJsonDocument::fromJson(q.value(14).toByteArray()).object();
    c.cause = q.value(18).toString();
    c.k8sReason = q.value(19).toString();
    return c;
}

// A check's score: its verdict and message, and its metrics from run_metrics.
Result<validation::CheckScore> loadScore(QSqlDatabase& db, qint64 checkId, const QString& checkName,
                                         const QString& verdict, const QString& message) {
    validation::CheckScore s;
    s.check = checkName;
    s.verdict = verdict == QLatin1String("passed")   ? validation::Verdict::Passed
                : verdict == QLatin1String("failed") ? validation::Verdict::Failed
                                                     : validation::Verdict::Skipped;
    s.message = message;
    QSqlQuery m(db);
    m.prepare(QStringLiteral("SELECT name, unit, value, constraint_text, threshold, effective, pass FROM "
                             "run_metrics WHERE check_id = ? ORDER BY id"));
    m.addBindValue(checkId);
    if (!m.exec())
        return sqlError(m, QStringLiteral("run_metrics"));
    while (m.next()) {
        validation::ScoredMetric sm;
        sm.name = m.value(0).toString();
        sm.unit = m.value(1).toString();
        sm.measured = m.value(2).toDouble();
        if (!m.value(3).isNull()) {
            validation::Threshold t;
            t.constraint = checkName;
            t.written = m.value(3).toString();
            t.value = m.value(4).toDouble();
            t.tolerance = t.value != 0 ? m.value(5).toDouble() / t.value : 1;
            t.op = catalog::parseConstraintValue(t.written).op;
            sm.threshold = t;
        }
        sm.pass = m.value(6).toInt() == 1;
        s.metrics.push_back(sm);
    }
    return s;
}

// One size row per message size, from the nccl.* series points.
Status loadNcclRows(QSqlDatabase& db, qint64 checkId, const QJsonArray& types, validation::NcclResult& n) {
    QSqlQuery sq(db);
    // Points of one size are merged into one row: for a size that repeats, the point written last
    // (the larger seq) wins.
    sq.prepare(QStringLiteral("SELECT series, x, y FROM run_series WHERE check_id = ? AND "
                              "substr(series, 1, 5) = 'nccl.' ORDER BY x, series, seq"));
    sq.addBindValue(checkId);
    if (!sq.exec())
        return sqlError(sq, QStringLiteral("run_series"));
    std::map<qint64, validation::NcclRow> rows;
    while (sq.next()) {
        const qint64 size = qint64(sq.value(1).toDouble());
        validation::NcclRow& row = rows[size];
        row.sizeBytes = size;
        row.type = types.at(0).toString();
        row.redop = types.at(1).toString();
        const QString series = sq.value(0).toString();
        const double y = sq.value(2).toDouble();
        if (series == QLatin1String("nccl.oop.busbw"))
            row.oopBusBw = y;
        else if (series == QLatin1String("nccl.ip.busbw"))
            row.ipBusBw = y;
        else if (series == QLatin1String("nccl.oop.algbw"))
            row.oopAlgBw = y;
        else if (series == QLatin1String("nccl.ip.algbw"))
            row.ipAlgBw = y;
        else if (series == QLatin1String("nccl.oop.time"))
            row.oopTimeUs = y;
        else if (series == QLatin1String("nccl.ip.time"))
            row.ipTimeUs = y;
    }
    for (auto& [size, row] : rows)
        n.rows.push_back(row);
    return {};
}

// An NCCL check's result: the detail's fields and its rows.
Result<validation::NcclResult> loadNccl(QSqlDatabase& db, qint64 checkId, const QJsonObject& detail) {
    validation::NcclResult n;
    n.collective = detail.value(QStringLiteral("collective")).toString();
    n.ncclVersion = detail.value(QStringLiteral("ncclVersion")).toString();
    n.testsVersion = detail.value(QStringLiteral("testsVersion")).toString();
    n.ranks = detail.value(QStringLiteral("ranks")).toInt();
    n.footerAvgBusBw = opt(detail.value(QStringLiteral("footerAvgBusBw")));
    n.computedAvgBusBw = detail.value(QStringLiteral("computedAvgBusBw")).toDouble();
    n.netPlugin = detail.value(QStringLiteral("netPlugin")).toString();
    n.nvlsMulticast = detail.value(QStringLiteral("nvlsMulticast")).toBool();
    n.nvlsComm = detail.value(QStringLiteral("nvlsComm")).toBool();
    n.lines = qint64(detail.value(QStringLiteral("lines")).toDouble());
    n.bytes = qint64(detail.value(QStringLiteral("bytes")).toDouble());
    n.repeatedRows = qint64(detail.value(QStringLiteral("repeatedRows")).toDouble());
    n.decimation = std::max(1, detail.value(QStringLiteral("decimation")).toInt(1));
    if (Status st = loadNcclRows(db, checkId, detail.value(QStringLiteral("types")).toArray(), n); !st)
        return st.error();
    // Runs stored before rowsRead was recorded read every row they kept.
    n.rowsRead = detail.contains(QStringLiteral("rowsRead"))
                     ? qint64(detail.value(QStringLiteral("rowsRead")).toDouble())
                     : qint64(n.rows.size());
    return n;
}

} // namespace

Result<qint64> RunStore::findRun(const QString& uidOrPrefix) const {
    return findByPrefix(m_db,
                        IdLookup{"runs", "run_uid", QStringLiteral("run"), QStringLiteral("run id"),
                                 QStringLiteral("proofbench runs list")},
                        uidOrPrefix);
}

Result<StoredRun> RunStore::load(qint64 id) const {
    StoredRun run;
    {
        QSqlQuery q(m_db.sql());
        q.prepare(QString::fromLatin1(kSummaryColumns) + QStringLiteral("WHERE r.id = ?"));
        q.addBindValue(id);
        if (!q.exec())
            return sqlError(q, QStringLiteral("runs"));
        if (!q.next())
            return makeError(QStringLiteral("no run %1 in this database").arg(id), m_db.path());
        run.summary = readSummary(q);
    }
    {
        QSqlQuery q(m_db.sql());
        q.prepare(QStringLiteral("SELECT catalog_version, criteria, namespace, tool_version, snapshot_yaml, "
                                 "readiness FROM runs WHERE id = ?"));
        q.addBindValue(id);
        if (!q.exec() || !q.next())
            return sqlError(q, QStringLiteral("runs"));
        run.header.source = run.summary.source;
        run.header.recipeName = run.summary.recipeName;
        run.header.coordinate = run.summary.coordinate;
        run.header.context = run.summary.context;
        run.header.server = run.summary.server;
        run.header.catalogVersion = q.value(0).toString();
        run.header.criteria = QJsonDocument::fromJson(q.value(1).toByteArray()).object();
        run.header.namespace_ = q.value(2).toString();
        run.header.toolVersion = q.value(3).toString();
        run.snapshotYaml = q.value(4).toByteArray();
        for (const QJsonValue& v : QJsonDocument::fromJson(q.value(5).toByteArray()).array())
            run.result.readiness.push_back(readinessFrom(v.toObject()));
    }
    RunResult& r = run.result;
    r.runId = run.summary.runUid;
    r.state = runStateFromName(run.summary.state);
    r.reason = run.summary.reason;
    r.started = run.summary.startedAt;
    r.finished = run.summary.finishedAt;
    r.phasesRun = run.summary.phases.split(QLatin1Char(','), Qt::SkipEmptyParts);

    QSqlQuery q(m_db.sql());
    q.prepare(QStringLiteral("SELECT id, phase, name, state, exit_code, message, image, job, pod, "
                             "started_at, finished_at, duration_ms, log, "
                             "result_lines, extra, verdict, score_message, detail, cause, k8s_reason FROM "
                             "run_checks WHERE run_id = ? ORDER BY seq, name"));
    q.addBindValue(id);
    if (!q.exec())
        return sqlError(q, QStringLiteral("run_checks"));
    // Every check row is read before its metrics and series are: another statement on the
    // connection while a forward-only PostgreSQL result is being read discards its remaining rows.
    struct CheckRow {
        qint64 id;
        CheckRun check;
        QJsonObject detail;
        QVariant verdict;
        QString scoreMessage;
    };
    std::vector<CheckRow> rows;
    while (q.next())
        rows.push_back({q.value(0).toLongLong(), checkFromRow(q),
                        QJsonDocument::fromJson(q.value(17).toByteArray()).object(), q.value(15),
                        q.value(16).toString()});
    q.finish();
    for (CheckRow& row : rows) {
        CheckRun& c = row.check;
        if (!row.verdict.isNull()) {
            Result<validation::CheckScore> score =
                loadScore(m_db.sql(), row.id, c.name, row.verdict.toString(), row.scoreMessage);
            if (!score)
                return score.error();
            c.score = *score;
        }
        const QString kind = row.detail.value(QStringLiteral("kind")).toString();
        if (kind == QLatin1String("nccl")) {
            Result<validation::NcclResult> n = loadNccl(m_db.sql(), row.id, row.detail);
            if (!n)
                return n.error();
            c.nccl = *n;
        } else if (!kind.isEmpty()) {
            c.inference = inferenceFrom(row.detail);
        }
        r.checks.push_back(std::move(c));
    }
    Result<std::vector<RunLeftover>> left = leftovers(id);
    if (!left)
        return left.error();
    for (const RunLeftover& l : *left)
        r.leftovers.push_back({l.path, l.error});
    return run;
}

Result<std::vector<HistoryPoint>> RunStore::history(const QString& coordinate, const QString& metric) const {
    QSqlQuery q(m_db.sql());
    q.prepare(
        QStringLiteral("SELECT r.id, r.started_at, c.name, m.name, m.unit, m.value, m.effective, m.pass, "
                       "r.source, r.context, r.run_uid, c.image, r.time_source, c.state FROM run_metrics m "
                       "JOIN run_checks c ON c.id = m.check_id JOIN runs r ON r.id = c.run_id "
                       "WHERE r.coordinate = ? %1ORDER BY r.started_at, r.id, m.id")
            .arg(metric.isEmpty() ? QString() : QStringLiteral("AND m.name = ? ")));
    q.addBindValue(text(coordinate));
    if (!metric.isEmpty())
        q.addBindValue(metric);
    if (!q.exec())
        return sqlError(q, QStringLiteral("run_metrics"));
    std::vector<HistoryPoint> out;
    while (q.next()) {
        HistoryPoint p;
        p.runId = q.value(0).toLongLong();
        p.at = parseTime(q.value(1));
        p.check = q.value(2).toString();
        p.metric = q.value(3).toString();
        p.unit = q.value(4).toString();
        p.value = q.value(5).toDouble();
        if (!q.value(6).isNull())
            p.effectiveThreshold = q.value(6).toDouble();
        p.pass = q.value(7).toInt() == 1;
        const QString source = q.value(8).toString();
        if (source == QLatin1String("import")) {
            // The file it was parsed from (kept in the check's image column).
            const QString file = q.value(11).toString();
            p.source = QStringLiteral("import %1").arg(file.section(QLatin1Char('/'), -1));
        } else {
            const QString context = q.value(9).toString();
            p.source = context.isEmpty() ? QStringLiteral("run %1").arg(q.value(10).toString())
                                         : QStringLiteral("%1 run %2").arg(context, q.value(10).toString());
        }
        p.timeKnown = q.value(12).toString() != QLatin1String("unknown");
        p.checkFailed = q.value(13).toString() == QLatin1String("failed");
        out.push_back(p);
    }
    return out;
}

QJsonObject checkToJson(const CheckRun& c, bool withLog) {
    QJsonObject o{{QStringLiteral("phase"), c.phase},
                  {QStringLiteral("name"), c.name},
                  {QStringLiteral("status"), validation::checkStateName(c.state)},
                  {QStringLiteral("exitCode"), c.exitCode},
                  {QStringLiteral("message"), c.message},
                  {QStringLiteral("durationMs"), c.durationMs},
                  {QStringLiteral("image"), c.image},
                  {QStringLiteral("job"), c.job},
                  {QStringLiteral("resultLines"), QJsonArray::fromStringList(c.resultLines)}};
    if (!c.extra.isEmpty())
        o.insert(QStringLiteral("extra"), c.extra);
    if (!c.cause.isEmpty())
        o.insert(QStringLiteral("cause"), c.cause);
    if (!c.k8sReason.isEmpty())
        o.insert(QStringLiteral("reason"), c.k8sReason);
    if (c.score) {
        QJsonArray metrics;
        for (const validation::ScoredMetric& m : c.score->metrics) {
            QJsonObject mo{{QStringLiteral("name"), m.name},
                           {QStringLiteral("unit"), m.unit},
                           {QStringLiteral("value"), m.measured},
                           {QStringLiteral("pass"), m.pass}};
            if (m.threshold) {
                mo.insert(QStringLiteral("constraint"), m.threshold->written);
                mo.insert(QStringLiteral("threshold"), m.threshold->value);
                mo.insert(QStringLiteral("effectiveThreshold"), m.threshold->effective());
            }
            metrics.append(mo);
        }
        o.insert(QStringLiteral("score"),
                 QJsonObject{{QStringLiteral("verdict"), validation::verdictName(c.score->verdict)},
                             {QStringLiteral("message"), c.score->message},
                             {QStringLiteral("metrics"), metrics}});
    }
    if (c.nccl) {
        QJsonObject n = ncclDetail(*c.nccl);
        n.insert(QStringLiteral("lastOopBusBw"), c.nccl->lastOopBusBw());
        n.insert(QStringLiteral("lastSizeBytes"), double(c.nccl->lastSizeBytes()));
        n.insert(QStringLiteral("peakBusBw"), c.nccl->peakBusBw());
        n.insert(QStringLiteral("rows"), int(c.nccl->rows.size()));
        n.insert(QStringLiteral("rowsRead"), double(c.nccl->rowsRead));
        if (const QString kept = c.nccl->keptNote(); !kept.isEmpty())
            n.insert(QStringLiteral("kept"), kept);
        o.insert(QStringLiteral("nccl"), n);
    }
    if (c.inference)
        o.insert(QStringLiteral("inference"), inferenceDetail(*c.inference));
    if (withLog)
        o.insert(QStringLiteral("log"), QString::fromUtf8(c.log));
    return o;
}

QJsonObject runToJson(const RunResult& r, bool withLogs) {
    QJsonArray checks;
    for (const CheckRun& c : r.checks)
        checks.append(checkToJson(c, withLogs));
    QJsonObject o{{QStringLiteral("runId"), r.runId},
                  {QStringLiteral("state"), validation::runStateName(r.state)},
                  {QStringLiteral("reason"), r.reason},
                  {QStringLiteral("started"), iso(r.started)},
                  {QStringLiteral("finished"), iso(r.finished)},
                  {QStringLiteral("phases"), QJsonArray::fromStringList(r.phasesRun)},
                  {QStringLiteral("readiness"), readinessJson(r.readiness)},
                  {QStringLiteral("checks"), checks},
                  {QStringLiteral("exitCode"), r.exitCode()}};
    if (!r.leftovers.empty()) {
        QJsonArray left;
        for (const RunResult::Leftover& l : r.leftovers)
            left.append(QJsonObject{{QStringLiteral("path"), l.path}, {QStringLiteral("error"), l.error}});
        o.insert(QStringLiteral("leftovers"), left);
    }
    if (r.snapshot) {
        const validation::NodeInfo* n = r.snapshot->firstGpuNode();
        o.insert(QStringLiteral("cluster"),
                 QJsonObject{{QStringLiteral("serverVersion"), r.snapshot->serverVersion},
                             {QStringLiteral("nodes"), int(r.snapshot->nodes.size())},
                             {QStringLiteral("gpuNodes"), r.snapshot->gpuNodeCount()},
                             {QStringLiteral("gpuProduct"), n ? n->gpuProduct : QString()},
                             {QStringLiteral("gpusPerNode"), n ? n->gpus : 0}});
    }
    return o;
}

Status RunStore::saveLeftovers(qint64 runId, const std::vector<RunResult::Leftover>& left) {
    if (left.empty())
        return {};
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    const QString now = iso(QDateTime::currentDateTimeUtc());
    for (const RunResult::Leftover& l : left) {
        QSqlQuery q(m_db.sql());
        q.prepare(QStringLiteral(
            "INSERT INTO run_leftovers (run_id, path, error, recorded_at) VALUES (?,?,?,?) "
            "ON CONFLICT (run_id, path) DO UPDATE SET error = excluded.error, removed_at = NULL"));
        q.addBindValue(runId);
        q.addBindValue(l.path);
        q.addBindValue(text(l.error));
        q.addBindValue(now);
        if (Status s = exec(q, QStringLiteral("run_leftovers")); !s)
            return s;
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the leftovers"), m_db.path());
    return {};
}

Result<std::vector<RunLeftover>> RunStore::leftovers(qint64 runId, bool includeRemoved) const {
    QSqlQuery q(m_db.sql());
    QStringList where;
    if (runId != 0)
        where << QStringLiteral("l.run_id = ?");
    if (!includeRemoved)
        where << QStringLiteral("l.removed_at IS NULL");
    q.prepare(
        QStringLiteral(
            "SELECT l.run_id, r.run_uid, r.context, r.server, l.path, l.error, l.recorded_at, l.removed_at "
            "FROM run_leftovers l JOIN runs r ON r.id = l.run_id %1ORDER BY l.run_id, l.id")
            .arg(where.isEmpty() ? QString()
                                 : QStringLiteral("WHERE %1 ").arg(where.join(QStringLiteral(" AND ")))));
    if (runId != 0)
        q.addBindValue(runId);
    if (!q.exec())
        return sqlError(q, QStringLiteral("run_leftovers"));
    std::vector<RunLeftover> out;
    while (q.next()) {
        RunLeftover l;
        l.runId = q.value(0).toLongLong();
        l.runUid = q.value(1).toString();
        l.context = q.value(2).toString();
        l.server = q.value(3).toString();
        l.path = q.value(4).toString();
        l.error = q.value(5).toString();
        l.recordedAt = parseTime(q.value(6));
        if (!q.value(7).isNull())
            l.removedAt = parseTime(q.value(7));
        out.push_back(l);
    }
    return out;
}

Status RunStore::markLeftovers(qint64 runId, const QStringList& removed,
                               const std::vector<RunResult::Leftover>& still) {
    Transaction tx(m_db.sql());
    if (!tx.started())
        return makeError(QStringLiteral("cannot start a transaction: %1").arg(tx.errorText()), m_db.path());
    const QString now = iso(QDateTime::currentDateTimeUtc());
    for (const QString& path : removed) {
        QSqlQuery q(m_db.sql());
        q.prepare(QStringLiteral("UPDATE run_leftovers SET removed_at = ? WHERE run_id = ? AND path = ?"));
        q.addBindValue(now);
        q.addBindValue(runId);
        q.addBindValue(path);
        if (Status s = exec(q, QStringLiteral("run_leftovers")); !s)
            return s;
    }
    for (const RunResult::Leftover& l : still) {
        QSqlQuery q(m_db.sql());
        q.prepare(QStringLiteral("UPDATE run_leftovers SET error = ? WHERE run_id = ? AND path = ?"));
        q.addBindValue(text(l.error));
        q.addBindValue(runId);
        q.addBindValue(l.path);
        if (Status s = exec(q, QStringLiteral("run_leftovers")); !s)
            return s;
    }
    if (!tx.commit())
        return makeError(QStringLiteral("cannot commit the leftovers"), m_db.path());
    return {};
}

} // namespace pb::store
