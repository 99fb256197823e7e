// AICR's scoring of performance checks, applied to parsed results. The numbers and words follow
// what AICR's validators print, so a run scored here reads like one scored on the cluster.
#include "validation/Score.h"

#include <cmath>

namespace pb::validation {

QString verdictName(Verdict v) {
    switch (v) {
    case Verdict::Passed:
        return QStringLiteral("passed");
    case Verdict::Failed:
        return QStringLiteral("failed");
    case Verdict::Skipped:
        return QStringLiteral("skipped");
    }
    return {};
}

namespace {

constexpr double kFloorTolerance = 0.9;   // measured >= 0.9 x threshold
constexpr double kCeilingTolerance = 1.1; // measured <= 1.1 x threshold

// Comparator (possibly absent), then a number, then optional unit words: ">= 300 GB/s", "<=2000ms".
struct Parsed {
    QString op;
    double value = 0;
};

std::optional<Parsed> parseValue(const QString& written) {
    QString v = written.trimmed();
    Parsed p;
    for (const char* op : {">=", "<=", ">", "<"}) // longest first
        if (v.startsWith(QLatin1String(op))) {
            p.op = QString::fromLatin1(op);
            v = v.mid(p.op.size()).trimmed();
            break;
        }
    // The leading number: digits, one dot, an exponent; thousands separators are allowed ("50,000").
    qsizetype i = 0;
    QString digits;
    if (i < v.size() && (v.at(i) == QLatin1Char('+') || v.at(i) == QLatin1Char('-')))
        digits += v.at(i++);
    bool any = false;
    for (; i < v.size(); ++i) {
        const QChar c = v.at(i);
        if (c.isDigit()) {
            digits += c;
            any = true;
        } else if (c == QLatin1Char('.')) {
            digits += c;
        } else if (c == QLatin1Char(',') && any && i + 1 < v.size() && v.at(i + 1).isDigit()) {
            continue;
        } else if ((c == QLatin1Char('e') || c == QLatin1Char('E')) && any && i + 1 < v.size() &&
                   (v.at(i + 1).isDigit() || v.at(i + 1) == QLatin1Char('+') ||
                    v.at(i + 1) == QLatin1Char('-'))) {
            digits += c;
            digits += v.at(++i);
        } else {
            break;
        }
    }
    if (!any)
        return std::nullopt;
    bool ok = false;
    p.value = digits.toDouble(&ok);
    if (!ok || !std::isfinite(p.value))
        return std::nullopt;
    // What follows must be a unit (letters, '/', '%'), not more numbers or another comparator.
    const QString rest = v.mid(i).trimmed();
    for (const QChar c : rest)
        if (!(c.isLetter() || c == QLatin1Char('/') || c == QLatin1Char('%') || c == QLatin1Char(' ') ||
              c == QLatin1Char('-') || c == QLatin1Char('_')))
            return std::nullopt;
    return p;
}

const catalog::Constraint* find(const std::vector<catalog::Constraint>& constraints, const QString& name) {
    for (const catalog::Constraint& c : constraints)
        if (c.name == name)
            return &c;
    return nullptr;
}

QString fmt(double v) {
    return QString::number(v, 'f', 2);
}

// AICR prints thresholds as written ("Constraint: >= 300 → true").
QString arrow() {
    return QString(QChar(0x2192));
}

} // namespace

std::optional<Threshold> parseThreshold(const catalog::Constraint& c) {
    const auto p = parseValue(c.value);
    if (!p || p->op.isEmpty())
        return std::nullopt;
    Threshold t;
    t.constraint = c.name;
    t.written = c.value.trimmed();
    t.op = p->op;
    t.value = p->value;
    t.tolerance = p->op.startsWith(QLatin1Char('>')) ? kFloorTolerance : kCeilingTolerance;
    return t;
}

CheckScore scoreNccl(const QString& check, const NcclResult& result,
                     const std::vector<catalog::Constraint>& constraints) {
    CheckScore s;
    s.check = check;
    const catalog::Constraint* c = find(constraints, check);
    if (!c) {
        s.verdict = Verdict::Skipped;
        s.message =
            QStringLiteral("no '%1' constraint in the recipe's performance phase; nothing to check against")
                .arg(check);
        return s;
    }
    if (result.rows.empty()) {
        s.verdict = Verdict::Failed;
        s.message = QStringLiteral("the NCCL log has no nccl-tests result rows");
        return s;
    }
    // AICR strips any comparator from an NCCL threshold: the value is always a floor, so a bare number
    // counts too.
    const auto p = parseValue(c->value);
    if (!p) {
        s.verdict = Verdict::Failed;
        s.message = QStringLiteral("constraint %1 = '%2' is not a threshold (a number, optionally after >=)")
                        .arg(check, c->value);
        return s;
    }
    Threshold t;
    t.constraint = check;
    t.written = c->value.trimmed();
    t.op = QStringLiteral(">=");
    t.value = p->value;
    t.tolerance = kFloorTolerance;

    ScoredMetric m;
    m.name = QStringLiteral("busbw");
    m.unit = QStringLiteral("GB/s");
    m.measured = result.lastOopBusBw();
    m.threshold = t;
    m.pass = m.measured >= t.effective();
    s.metrics.push_back(m);
    s.stdoutLines << QStringLiteral("NCCL All Reduce bandwidth (%1): %2 GB/s").arg(check, fmt(m.measured))
                  << QStringLiteral("Constraint: %1 %2 %3")
                         .arg(t.written, arrow(), m.pass ? QStringLiteral("true") : QStringLiteral("false"));

    // Named transports must show in the NCCL_DEBUG=INFO log.
    QString transport;
    if (check.endsWith(QLatin1String("-net"))) {
        if (result.netPlugin.isEmpty())
            transport =
                QStringLiteral("NET transport not shown: no 'NCCL INFO Using network' line in the log "
                               "(is NCCL_DEBUG=INFO set?)");
        else if (result.netPlugin.compare(QLatin1String("Socket"), Qt::CaseInsensitive) == 0)
            transport =
                QStringLiteral("NET transport not used: NCCL used network 'Socket', not a fabric plugin "
                               "such as 'AWS Libfabric' or 'IB'");
        else
            s.stdoutLines << QStringLiteral("NCCL network: %1").arg(result.netPlugin);
    } else if (check.endsWith(QLatin1String("-nvls"))) {
        QStringList missing;
        if (!result.nvlsMulticast)
            missing << QStringLiteral("'NVLS multicast support is available'");
        if (!result.nvlsComm)
            missing << QStringLiteral("'NVLS comm 0x...'");
        if (!missing.isEmpty())
            transport = QStringLiteral("NVLS transport not shown: the log lacks %1")
                            .arg(missing.join(QStringLiteral(" and ")));
        else
            s.stdoutLines << QStringLiteral("NCCL NVLS: multicast available, NVLS communicator built");
    }

    if (!transport.isEmpty()) {
        s.verdict = Verdict::Failed;
        s.message = transport;
    } else if (m.pass) {
        s.verdict = Verdict::Passed;
        s.message = QStringLiteral("NCCL bandwidth %1 GB/s satisfies constraint %2 (at least %3 GB/s, 90%)")
                        .arg(fmt(m.measured), t.written, fmt(t.effective()));
    } else {
        s.verdict = Verdict::Failed;
        s.message = QStringLiteral(
                        "NCCL bandwidth %1 GB/s does not satisfy constraint %2 (needs at least %3 GB/s, 90%)")
                        .arg(fmt(m.measured), t.written, fmt(t.effective()));
    }
    return s;
}

std::optional<QString> thresholdProblem(const catalog::Constraint& c) {
    if (c.name.startsWith(QLatin1String("nccl-all-reduce-bw"))) {
        if (parseValue(c.value))
            return std::nullopt;
        return QStringLiteral("%1 = '%2' needs a bandwidth in GB/s, optionally after >= (e.g. '>= 300')")
            .arg(c.name, c.value);
    }
    const char* op = c.name == QLatin1String("inference-throughput") ? ">="
                     : c.name == QLatin1String("inference-ttft-p99") ? "<="
                                                                     : nullptr;
    if (!op)
        return std::nullopt;
    const std::optional<Threshold> t = parseThreshold(c);
    if (t && t->op == QLatin1String(op))
        return std::nullopt;
    return QStringLiteral("%1 = '%2' needs %3 and a number (e.g. '%3 %4')")
        .arg(c.name, c.value, QLatin1String(op),
             c.name == QLatin1String("inference-throughput") ? QStringLiteral("4000")
                                                             : QStringLiteral("2000 ms"));
}

CheckScore scoreInference(const QString& check, const InferenceResult& result,
                          const std::vector<catalog::Constraint>& constraints, double gpuScale) {
    CheckScore s;
    s.check = check;
    const catalog::Constraint* tc = find(constraints, QStringLiteral("inference-throughput"));
    const catalog::Constraint* lc = find(constraints, QStringLiteral("inference-ttft-p99"));
    if (!tc && !lc) {
        s.verdict = Verdict::Skipped;
        s.message = QStringLiteral(
            "no inference-throughput or inference-ttft-p99 constraint in the recipe's performance phase");
        return s;
    }
    if (!(gpuScale > 0) || !std::isfinite(gpuScale))
        gpuScale = 1.0;

    QStringList failures;
    auto requireOp = [&](const catalog::Constraint& c, const char* op) -> std::optional<Threshold> {
        const auto t = parseThreshold(c);
        if (!t || t->op != QLatin1String(op)) {
            failures << QStringLiteral("constraint %1 = '%2' must use %3 and a number")
                            .arg(c.name, c.value, QLatin1String(op));
            return std::nullopt;
        }
        return t;
    };

    if (result.outputTokensPerSec)
        s.stdoutLines << QStringLiteral("RESULT: Inference throughput: %1 tokens/sec")
                             .arg(fmt(*result.outputTokensPerSec));
    if (result.ttftMs.p99)
        s.stdoutLines << QStringLiteral("RESULT: Inference TTFT p99: %1 ms").arg(fmt(*result.ttftMs.p99));

    if (tc) {
        if (auto t = requireOp(*tc, ">=")) {
            t->value *= gpuScale; // partially used node: the gate shrinks with the GPUs benchmarked
            ScoredMetric m;
            m.name = QStringLiteral("output-throughput");
            m.unit = QStringLiteral("tokens/s");
            m.threshold = t;
            if (!result.outputTokensPerSec) {
                m.pass = false;
                failures << QStringLiteral("the report has no output token throughput%1")
                                .arg(result.errors && *result.errors > 0
                                         ? QStringLiteral(" (%1 requests failed)").arg(*result.errors)
                                         : QString());
            } else {
                m.measured = *result.outputTokensPerSec;
                m.pass = m.measured >= t->effective();
                if (!m.pass)
                    failures << QStringLiteral("throughput %1 tokens/sec is below %2 (90% of %3)")
                                    .arg(fmt(m.measured), fmt(t->effective()), fmt(t->value));
            }
            s.stdoutLines << QStringLiteral("Throughput constraint: %1 %2 %3")
                                 .arg(t->written, arrow(),
                                      m.pass ? QStringLiteral("PASS") : QStringLiteral("FAIL"));
            s.metrics.push_back(m);
        }
    }
    if (lc) {
        if (auto t = requireOp(*lc, "<=")) {
            ScoredMetric m;
            m.name = QStringLiteral("ttft-p99");
            m.unit = QStringLiteral("ms");
            m.threshold = t;
            if (!result.ttftMs.p99) {
                m.pass = false;
                failures << QStringLiteral("the report has no TTFT p99");
            } else {
                m.measured = *result.ttftMs.p99;
                m.pass = m.measured <= t->effective();
                if (!m.pass)
                    failures << QStringLiteral("TTFT p99 %1 ms is above %2 (110% of %3)")
                                    .arg(fmt(m.measured), fmt(t->effective()), fmt(t->value));
            }
            s.stdoutLines << QStringLiteral("TTFT p99 constraint: %1 %2 %3")
                                 .arg(t->written, arrow(),
                                      m.pass ? QStringLiteral("PASS") : QStringLiteral("FAIL"));
            s.metrics.push_back(m);
        }
    }
    if (failures.isEmpty()) {
        s.verdict = Verdict::Passed;
        QStringList parts;
        for (const ScoredMetric& m : s.metrics)
            parts << QStringLiteral("%1 %2 %3 (%4 %5)")
                         .arg(m.name, fmt(m.measured), m.unit, m.threshold->op,
                              fmt(m.threshold->effective()));
        s.message = QStringLiteral("inference within constraints: %1").arg(parts.join(QStringLiteral(", ")));
    } else {
        s.verdict = Verdict::Failed;
        s.message = failures.join(QStringLiteral("; "));
    }
    return s;
}

} // namespace pb::validation
