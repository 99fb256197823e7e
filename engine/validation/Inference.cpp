// Inference report importers. Each format is read into the same InferenceResult: latencies in
// milliseconds, throughputs per second. Units are taken from the report (a metric's "unit" field or
// the "(ms)" in a CSV label), never assumed from the tool, except for inference-perf, whose lifecycle
// JSON carries no units and always writes seconds.
#include "validation/Inference.h"

#include "core/Files.h"
#include <cmath>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace pb::validation {

QString perfKindName(PerfKind k) {
    switch (k) {
    case PerfKind::Nccl:
        return QStringLiteral("nccl");
    case PerfKind::AIPerf:
        return QStringLiteral("aiperf");
    case PerfKind::GenAIPerf:
        return QStringLiteral("genai-perf");
    case PerfKind::InferencePerf:
        return QStringLiteral("inference-perf");
    }
    return {};
}

std::optional<PerfKind> perfKindFromName(const QString& name) {
    for (PerfKind k : {PerfKind::Nccl, PerfKind::AIPerf, PerfKind::GenAIPerf, PerfKind::InferencePerf})
        if (name.compare(perfKindName(k), Qt::CaseInsensitive) == 0)
            return k;
    return std::nullopt;
}

namespace {

// Factor that turns a latency written in `unit` into milliseconds; nullopt for a unit that is not time.
std::optional<double> toMsFactor(QString unit) {
    unit = unit.trimmed().toLower();
    if (unit.isEmpty() || unit == QLatin1String("ms") || unit == QLatin1String("msec") ||
        unit == QLatin1String("milliseconds"))
        return 1.0;
    if (unit == QLatin1String("s") || unit == QLatin1String("sec") || unit == QLatin1String("seconds"))
        return 1000.0;
    if (unit == QLatin1String("us") || unit == QLatin1String("usec") || unit == QLatin1String("microseconds"))
        return 1e-3;
    if (unit == QLatin1String("ns") || unit == QLatin1String("nsec") || unit == QLatin1String("nanoseconds"))
        return 1e-6;
    return std::nullopt;
}

std::optional<double> num(const QJsonValue& v) {
    if (v.isDouble())
        return v.toDouble();
    return std::nullopt;
}

std::optional<qint64> count(std::optional<double> v) {
    if (!v)
        return std::nullopt;
    return static_cast<qint64>(*v + (*v >= 0 ? 0.5 : -0.5));
}

Error fieldError(const QString& file, const QString& field, const QString& why) {
    return makeError(why, file, 0, field);
}

// ---- AIPerf / GenAI-Perf JSON ---------------------------------------------------------------------

// One metric object {unit, avg, p50, ...} as a distribution in milliseconds.
Result<Distribution> jsonDistribution(const QJsonObject& m, const QString& file, const QString& field,
                                      double fixedFactor = 0) {
    double f = fixedFactor;
    if (f == 0) {
        const auto factor = toMsFactor(m.value(QLatin1String("unit")).toString());
        if (!factor)
            return fieldError(
                file, field + QLatin1String(".unit"),
                QStringLiteral("'%1' is not a unit of time").arg(m.value(QLatin1String("unit")).toString()));
        f = *factor;
    }
    auto get = [&](const char* k) -> std::optional<double> {
        const auto v = num(m.value(QLatin1String(k)));
        return v ? std::optional<double>(*v * f) : std::nullopt;
    };
    Distribution d;
    d.avg = get("avg");
    if (!d.avg)
        d.avg = get("mean");
    d.min = get("min");
    d.max = get("max");
    d.p50 = get("p50");
    if (!d.p50)
        d.p50 = get("median");
    d.p90 = get("p90");
    d.p95 = get("p95");
    d.p99 = get("p99");
    return d;
}

Result<InferenceResult> aiperfJson(const QJsonObject& root, PerfKind kind, const QString& file) {
    InferenceResult r;
    r.kind = kind;
    QJsonObject metrics = root;
    QString prefix;
    const bool records =
        root.value(QLatin1String("records")).isObject() || root.value(QLatin1String("records")).isArray();
    if (records) {
        prefix = QStringLiteral("records.");
        const QJsonValue rec = root.value(QLatin1String("records"));
        if (rec.isObject()) {
            metrics = rec.toObject();
        } else {
            metrics = {};
            for (const QJsonValue& e : rec.toArray())
                metrics.insert(e.toObject().value(QLatin1String("tag")).toString(), e);
        }
    }
    r.format = kind == PerfKind::GenAIPerf ? QStringLiteral("genai-perf-json")
               : records                   ? QStringLiteral("aiperf-records-json")
                                           : QStringLiteral("aiperf-json");
    for (const char* k : {"aiperf_version", "genai_perf_version", "version"})
        if (root.value(QLatin1String(k)).isString()) {
            r.toolVersion = root.value(QLatin1String(k)).toString();
            break;
        }

    // A scalar metric: {avg: X}. Present but malformed is an error; absent is nullopt.
    std::optional<Error> err;
    auto scalar = [&](const QString& tag) -> std::optional<double> {
        const QJsonValue v = metrics.value(tag);
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if (!v.isObject()) {
            if (!err)
                err = fieldError(file, prefix + tag, QStringLiteral("must be an object with an 'avg'"));
            return std::nullopt;
        }
        const QJsonValue a = v.toObject().value(QLatin1String("avg"));
        if (a.isUndefined() || a.isNull())
            return std::nullopt;
        if (!a.isDouble()) {
            if (!err)
                err = fieldError(file, prefix + tag + QLatin1String(".avg"),
                                 QStringLiteral("must be a number"));
            return std::nullopt;
        }
        return a.toDouble();
    };
    auto dist = [&](std::initializer_list<const char*> tags, Distribution* out) {
        for (const char* t : tags) {
            const QJsonValue v = metrics.value(QLatin1String(t));
            if (!v.isObject())
                continue;
            auto d = jsonDistribution(v.toObject(), file, prefix + QLatin1String(t));
            if (!d) {
                if (!err)
                    err = d.error();
                return;
            }
            *out = *d;
            return;
        }
    };

    r.outputTokensPerSec = scalar(QStringLiteral("output_token_throughput"));
    r.requestsPerSec = scalar(QStringLiteral("request_throughput"));
    r.requests = count(scalar(QStringLiteral("request_count")));
    r.errors = count(scalar(QStringLiteral("error_request_count")));
    if (auto dur = scalar(QStringLiteral("benchmark_duration"))) {
        const QString unit = metrics.value(QLatin1String("benchmark_duration"))
                                 .toObject()
                                 .value(QLatin1String("unit"))
                                 .toString();
        const auto f = toMsFactor(unit.isEmpty() ? QStringLiteral("sec") : unit);
        r.durationSec = *dur * (f ? *f : 1000.0) / 1000.0;
    }
    dist({"time_to_first_token", "ttft"}, &r.ttftMs);
    dist({"inter_token_latency", "itl"}, &r.itlMs);
    dist({"request_latency"}, &r.requestLatencyMs);
    if (err)
        return *err;

    if (!r.errors) {
        // error_summary [{error_details, count}] when the count metric is absent.
        const QJsonArray summary = root.value(QLatin1String("error_summary")).toArray();
        qint64 n = 0;
        for (const QJsonValue& e : summary)
            n += static_cast<qint64>(e.toObject().value(QLatin1String("count")).toDouble());
        if (!summary.isEmpty())
            r.errors = n;
    }
    // Every request failed: no throughput is a result, not a malformed file.
    if (!r.outputTokensPerSec && !(r.errors && *r.errors > 0))
        return fieldError(file, prefix + QLatin1String("output_token_throughput.avg"),
                          QStringLiteral("missing"));
    return r;
}

// ---- inference-perf lifecycle JSON ----------------------------------------------------------------

Result<InferenceResult> inferencePerfJson(const QJsonObject& root, const QString& file) {
    InferenceResult r;
    r.kind = PerfKind::InferencePerf;
    r.format = QStringLiteral("inference-perf-json");
    const QJsonValue sv = root.value(QLatin1String("successes"));
    if (!sv.isObject())
        return fieldError(file, QStringLiteral("successes"), QStringLiteral("missing"));
    const QJsonObject successes = sv.toObject();
    const QJsonObject failures = root.value(QLatin1String("failures")).toObject();
    const auto ok = count(num(successes.value(QLatin1String("count"))));
    const auto failed = count(num(failures.value(QLatin1String("count"))));
    r.errors = failed ? failed : std::optional<qint64>(0);
    if (ok)
        r.requests = *ok + failed.value_or(0);

    // Latencies: lifecycle reports nest them under "latency"; the Prometheus report puts them directly
    // under "successes". Both are seconds.
    const QJsonObject lat = successes.value(QLatin1String("latency")).isObject()
                                ? successes.value(QLatin1String("latency")).toObject()
                                : successes;
    const QString latPrefix = successes.value(QLatin1String("latency")).isObject()
                                  ? QStringLiteral("successes.latency.")
                                  : QStringLiteral("successes.");
    auto dist = [&](const char* key, Distribution* out) -> Status {
        const QJsonValue v = lat.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return {};
        if (!v.isObject())
            return fieldError(file, latPrefix + QLatin1String(key), QStringLiteral("must be an object"));
        auto d = jsonDistribution(v.toObject(), file, latPrefix + QLatin1String(key), 1000.0);
        if (!d)
            return d.error();
        *out = *d;
        return {};
    };
    if (Status s = dist("time_to_first_token", &r.ttftMs); !s)
        return s.error();
    if (Status s = dist("inter_token_latency", &r.itlMs); !s)
        return s.error();
    if (Status s = dist("request_latency", &r.requestLatencyMs); !s)
        return s.error();

    const QJsonObject tp = successes.value(QLatin1String("throughput")).toObject();
    r.outputTokensPerSec = num(tp.value(QLatin1String("output_tokens_per_sec")));
    r.requestsPerSec = num(tp.value(QLatin1String("requests_per_sec")));
    const QJsonObject load = root.value(QLatin1String("load_summary")).toObject();
    r.durationSec = num(load.value(QLatin1String("send_duration")));

    const bool allFailed = ok.value_or(0) == 0 && failed.value_or(0) > 0;
    const bool prometheus = !successes.value(QLatin1String("latency")).isObject() &&
                            !successes.contains(QLatin1String("throughput"));
    if (!r.outputTokensPerSec && !allFailed && !prometheus)
        return fieldError(file, QStringLiteral("successes.throughput.output_tokens_per_sec"),
                          QStringLiteral("missing"));
    return r;
}

// ---- CSV (AIPerf and GenAI-Perf) --------------------------------------------------------------------

// One CSV record: quoted fields may hold commas ("1,146.31"); "" inside quotes is a quote.
QStringList csvFields(const QString& line) {
    QStringList out;
    QString cur;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"')) {
                    cur += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                cur += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << cur;
            cur.clear();
        } else {
            cur += c;
        }
    }
    out << cur;
    return out;
}

// "1,146.31" -> 1146.31 (thousands separators as GenAI-Perf writes them).
std::optional<double> csvNumber(QString s) {
    s = s.trimmed();
    s.remove(QLatin1Char(','));
    if (s.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double v = s.toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

// "Time to First Token (ms)" -> {"time to first token", "ms"}.
std::pair<QString, QString> csvLabel(const QString& label) {
    QString name = label.trimmed();
    QString unit;
    if (name.endsWith(QLatin1Char(')'))) {
        const qsizetype open = name.lastIndexOf(QLatin1Char('('));
        if (open > 0) {
            unit = name.mid(open + 1, name.size() - open - 2).trimmed();
            name = name.left(open).trimmed();
        }
    }
    return {name.toLower(), unit};
}

namespace {

// Every figure Proofbench reads must be finite and not negative (`inf` would pass any floor); rows
// it does not read (e.g. AIPerf's signed "OSL Mismatch Diff %") are left alone.
Status checkReadFigures(const QStringList& f, const QStringList& header, const QString& name,
                        const QString& file, int lineNo, const QString& field) {
    static const QStringList kRead = {
        QStringLiteral("output token throughput"), QStringLiteral("request throughput"),
        QStringLiteral("request count"),           QStringLiteral("error request count"),
        QStringLiteral("benchmark duration"),      QStringLiteral("time to first token"),
        QStringLiteral("inter token latency"),     QStringLiteral("request latency")};
    if (!kRead.contains(name))
        return {};
    for (qsizetype col = 1; col < f.size(); ++col) {
        QString cell = f.at(col).trimmed();
        cell.remove(QLatin1Char(','));
        bool ok = false;
        const double v = cell.toDouble(&ok);
        if (ok && (!std::isfinite(v) || v < 0))
            return makeError(QStringLiteral("%1 '%2' for '%3' is %4")
                                 .arg(header.value(col, QStringLiteral("value")), f.at(col).trimmed(),
                                      f.value(0).trimmed(),
                                      std::isfinite(v) ? QStringLiteral("negative")
                                                       : QStringLiteral("not a finite number")),
                             file, lineNo, field);
    }
    return {};
}

// A row of a two-column "Metric,Value" block: throughputs, counts and the duration.
Status readSingleValue(InferenceResult& r, const QStringList& f, const QString& name, const QString& unit,
                       const QString& file, int lineNo, const QString& field) {
    const auto v = csvNumber(f.value(1));
    if (!v) {
        if (f.value(1).trimmed().isEmpty())
            return {};
        return makeError(QStringLiteral("'%1' is not a number").arg(f.value(1)), file, lineNo, field);
    }
    if (name == QLatin1String("output token throughput"))
        r.outputTokensPerSec = v;
    else if (name == QLatin1String("request throughput"))
        r.requestsPerSec = v;
    else if (name == QLatin1String("request count"))
        r.requests = count(v);
    else if (name == QLatin1String("error request count"))
        r.errors = count(v);
    else if (name == QLatin1String("benchmark duration")) {
        const auto ms = toMsFactor(unit.isEmpty() ? QStringLiteral("sec") : unit);
        r.durationSec = *v * (ms ? *ms : 1000.0) / 1000.0;
    }
    return {};
}

// The distribution field a statistics column fills (avg/mean, min, max, p50/median, p90, p95, p99).
std::optional<double>* distributionSlot(Distribution& d, const QString& col) {
    if (col == QLatin1String("avg") || col == QLatin1String("mean"))
        return &d.avg;
    if (col == QLatin1String("min"))
        return &d.min;
    if (col == QLatin1String("max"))
        return &d.max;
    if (col == QLatin1String("p50") || col == QLatin1String("median"))
        return &d.p50;
    if (col == QLatin1String("p90"))
        return &d.p90;
    if (col == QLatin1String("p95"))
        return &d.p95;
    if (col == QLatin1String("p99"))
        return &d.p99;
    return nullptr;
}

// A latency row of a statistics block, in milliseconds.
Result<Distribution> readDistribution(const QStringList& f, const QStringList& header, double factor,
                                      const QString& file, int lineNo, const QString& field) {
    Distribution d;
    for (qsizetype i = 1; i < header.size() && i < f.size(); ++i) {
        const QString& col = header.at(i);
        std::optional<double>* slot = distributionSlot(d, col);
        if (!slot)
            continue;
        const auto v = csvNumber(f.at(i));
        if (!v && !f.at(i).trimmed().isEmpty())
            return makeError(QStringLiteral("'%1' is not a number").arg(f.at(i)), file, lineNo,
                             field + QLatin1Char('.') + col);
        if (v)
            *slot = *v * factor;
    }
    return d;
}

} // namespace

Result<InferenceResult> inferenceCsv(const QString& text, PerfKind kind, const QString& file) {
    InferenceResult r;
    r.kind = kind;
    r.format = kind == PerfKind::GenAIPerf ? QStringLiteral("genai-perf-csv") : QStringLiteral("aiperf-csv");
    QStringList header;
    int lineNo = 0;
    bool sawHeader = false;
    for (QString line : text.split(QLatin1Char('\n'))) {
        ++lineNo;
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty()) {
            header.clear(); // a blank line ends a block
            continue;
        }
        const QStringList f = csvFields(line);
        if (header.isEmpty()) {
            if (f.value(0).trimmed().compare(QLatin1String("Metric"), Qt::CaseInsensitive) != 0)
                return makeError(QStringLiteral("expected a 'Metric,...' header line"), file, lineNo);
            header = f;
            for (QString& h : header)
                h = h.trimmed().toLower();
            sawHeader = true;
            continue;
        }
        const auto [name, unit] = csvLabel(f.value(0));
        const QString field = QStringLiteral("%1").arg(f.value(0).trimmed());
        if (Status st = checkReadFigures(f, header, name, file, lineNo, field); !st)
            return st.error();
        if (header.size() == 2 && header.at(1) == QLatin1String("value")) {
            if (Status st = readSingleValue(r, f, name, unit, file, lineNo, field); !st)
                return st.error();
            continue;
        }
        Distribution* target = nullptr;
        if (name == QLatin1String("time to first token"))
            target = &r.ttftMs;
        else if (name == QLatin1String("inter token latency"))
            target = &r.itlMs;
        else if (name == QLatin1String("request latency"))
            target = &r.requestLatencyMs;
        if (!target)
            continue;
        const auto factor = toMsFactor(unit);
        if (!factor)
            return makeError(QStringLiteral("'%1' is not a unit of time").arg(unit), file, lineNo, field);
        Result<Distribution> d = readDistribution(f, header, *factor, file, lineNo, field);
        if (!d)
            return d.error();
        *target = *d;
    }
    if (!sawHeader)
        return makeError(QStringLiteral("no 'Metric,...' table"), file);
    if (!r.outputTokensPerSec && !(r.errors && *r.errors > 0))
        return fieldError(file, QStringLiteral("Output Token Throughput"), QStringLiteral("missing"));
    return r;
}

} // namespace

namespace {

// A parsed report whose numbers are not all finite and non-negative is refused, naming the figure.
Result<InferenceResult> finiteOrError(Result<InferenceResult> r, const QString& file) {
    if (!r)
        return r;
    QString bad;
    auto look = [&](const char* name, const std::optional<double>& v) {
        if (bad.isEmpty() && v && (!std::isfinite(*v) || *v < 0))
            bad = QStringLiteral("%1 is %2 (%3)")
                      .arg(QLatin1String(name), std::isfinite(*v) ? QStringLiteral("negative")
                                                                  : QStringLiteral("not a finite number"))
                      .arg(*v);
    };
    auto dist = [&](const char* name, const Distribution& d) {
        const QString n = QLatin1String(name);
        for (const auto& [suffix, v] :
             {std::pair{"avg", d.avg}, std::pair{"min", d.min}, std::pair{"max", d.max},
              std::pair{"p50", d.p50}, std::pair{"p90", d.p90}, std::pair{"p95", d.p95},
              std::pair{"p99", d.p99}})
            look(QStringLiteral("%1 %2").arg(n, QLatin1String(suffix)).toLatin1().constData(), v);
    };
    look("output token throughput", r->outputTokensPerSec);
    look("request throughput", r->requestsPerSec);
    look("duration", r->durationSec);
    dist("time to first token", r->ttftMs);
    dist("inter-token latency", r->itlMs);
    dist("request latency", r->requestLatencyMs);
    if (r->requests && *r->requests < 0)
        bad = QStringLiteral("request count is negative (%1)").arg(*r->requests);
    if (r->errors && *r->errors < 0)
        bad = QStringLiteral("error count is negative (%1)").arg(*r->errors);
    if (!bad.isEmpty())
        return makeError(bad, file);
    return r;
}

} // namespace

namespace {

// The time an AIPerf JSON report records: its epoch timestamps first (records.max_response_timestamp,
// or a top-level one, in ns: unambiguous), then end_time/start_time when they carry a zone. A zoneless
// end_time is kept as text (naiveTime): it is the writer's local time, which the report does not name.
void readReportTime(const QJsonObject& o, InferenceResult& r) {
    for (const QJsonObject& where : {o.value(QStringLiteral("records")).toObject(), o}) {
        const QJsonValue v = where.value(QStringLiteral("max_response_timestamp"));
        const double ns =
            v.isObject() ? v.toObject().value(QStringLiteral("avg")).toDouble(-1) : v.toDouble(-1);
        if (std::isfinite(ns) && ns > 1e18 && ns < 1e19) { // 2001..2286 in ns
            r.recordedAt = QDateTime::fromMSecsSinceEpoch(qint64(ns / 1e6), Qt::UTC);
            break;
        }
    }
    for (const char* key : {"end_time", "start_time"}) {
        const QString text = o.value(QLatin1String(key)).toString();
        const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!t.isValid())
            continue;
        if (t.timeSpec() == Qt::LocalTime) {
            if (r.naiveTime.isEmpty())
                r.naiveTime = text;
            continue;
        }
        if (!r.recordedAt.isValid())
            r.recordedAt = t.toUTC();
        break;
    }
}

} // namespace

Result<InferenceResult> parseInference(QByteArrayView bytes, PerfKind kind, const QString& file) {
    return finiteOrError(parseInferenceUnchecked(bytes, kind, file), file);
}

Result<InferenceResult> parseInferenceUnchecked(QByteArrayView bytes, PerfKind kind, const QString& file) {
    if (kind == PerfKind::Nccl)
        return makeError(QStringLiteral("an nccl-tests log is not an inference report (use the NCCL parser)"),
                         file);
    qsizetype i = 0;
    if (bytes.size() >= 3 && bytes.first(3) == QByteArrayView("\xEF\xBB\xBF"))
        i = 3; // UTF-8 byte order mark
    while (i < bytes.size() && QChar::isSpace(static_cast<uchar>(bytes.at(i))))
        ++i;
    if (i == bytes.size())
        return makeError(QStringLiteral("empty report"), file);
    const QByteArrayView body = bytes.sliced(i);
    if (body.front() == '{') {
        QJsonParseError pe{};
        const QJsonDocument doc = QJsonDocument::fromJson(body.toByteArray(), &pe);
        if (pe.error != QJsonParseError::NoError)
            return makeError(
                QStringLiteral("invalid JSON at offset %1: %2").arg(pe.offset).arg(pe.errorString()), file);
        if (kind == PerfKind::InferencePerf)
            return inferencePerfJson(doc.object(), file);
        Result<InferenceResult> r = aiperfJson(doc.object(), kind, file);
        if (r)
            readReportTime(doc.object(), *r);
        return r;
    }
    if (kind == PerfKind::InferencePerf)
        return makeError(QStringLiteral("inference-perf reports are JSON (summary_lifecycle_metrics.json)"),
                         file);
    Result<InferenceResult> r = inferenceCsv(QString::fromUtf8(body), kind, file);
    if (r) {
        static const QByteArrayView label("Maximum Response Timestamp (ns),");
        const qsizetype at = body.indexOf(label);
        if (at >= 0) {
            const qsizetype end = body.indexOf('\n', at);
            bool ok = false;
            const double ns =
                body.sliced(at + label.size(), (end < 0 ? body.size() : end) - at - label.size())
                    .toByteArray()
                    .trimmed()
                    .toDouble(&ok);
            if (ok && std::isfinite(ns) && ns > 0)
                r->recordedAt = QDateTime::fromMSecsSinceEpoch(qint64(ns / 1e6), Qt::UTC);
        }
    }
    return r;
}

Result<InferenceResult> parseInferenceFile(const QString& path, PerfKind kind) {
    QFile f(path);
    if (Status s = openInputFile(f, QStringLiteral("inference report")); !s)
        return s.error();
    // Reports are small (kilobytes); a file past the limit is refused, never read whole.
    if (f.size() > kMaxInferenceReportBytes)
        return makeError(
            QStringLiteral("the report is %1 bytes, over the %2-byte limit for an inference report")
                .arg(f.size())
                .arg(kMaxInferenceReportBytes),
            path);
    const QByteArray bytes = f.read(kMaxInferenceReportBytes + 1);
    if (bytes.size() > kMaxInferenceReportBytes)
        return makeError(QStringLiteral("the report grew past the %1-byte limit while being read")
                             .arg(kMaxInferenceReportBytes),
                         path);
    return parseInference(bytes, kind, path);
}

std::optional<QByteArray> extractAiperfBlock(QByteArrayView log) {
    static const QByteArrayView marker("===AIPERF-RESULT===");
    const qsizetype close = log.lastIndexOf(marker);
    if (close <= 0)
        return std::nullopt;
    const qsizetype open = log.first(close).lastIndexOf(marker);
    if (open < 0)
        return std::nullopt;
    // The block is the lines between the two marker lines.
    qsizetype begin = open + marker.size();
    const qsizetype nl = log.indexOf('\n', begin);
    if (nl < 0 || nl >= close)
        return std::nullopt;
    begin = nl + 1;
    qsizetype end = log.first(close).lastIndexOf('\n');
    if (end < begin)
        end = begin;
    return log.sliced(begin, end - begin).toByteArray().trimmed();
}

} // namespace pb::validation
