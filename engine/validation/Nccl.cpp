// nccl-tests output parser. Works on bytes, one line at a time, without QString or regex on the hot
// path: most of a NCCL_DEBUG=INFO log is noise, so each line is rejected after a memchr for '#' and a
// look at its last character, and only lines that end like a data row are split into fields (from the
// right, so any prefix before the size column is ignored).
#include "validation/Nccl.h"

#include "core/Files.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

namespace pb::validation {

namespace {

using Sv = std::string_view;

enum class Col { Size, Count, Type, Redop, Root, Time, AlgBw, BusBw, Wrong, Timestamp, Other };

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

Sv trim(Sv s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool startsWith(Sv s, Sv prefix) {
    return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

bool toInt(Sv s, qint64* out) {
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    long long v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return false;
    *out = v;
    return true;
}

bool toDouble(Sv s, double* out) {
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return false;
    *out = v;
    return true;
}

// The first whitespace-delimited word of s.
Sv firstWord(Sv s) {
    s = trim(s);
    size_t i = 0;
    while (i < s.size() && !isSpace(s[i]))
        ++i;
    return s.substr(0, i);
}

QString latin1(Sv s) {
    return QString::fromLatin1(s.data(), static_cast<qsizetype>(s.size()));
}

// Splits s into words, left to right; false when there are more than `max`.
template <size_t N> bool splitWords(Sv s, Sv (&out)[N], size_t* n) {
    *n = 0;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isSpace(s[i]))
            ++i;
        if (i >= s.size())
            break;
        const size_t b = i;
        while (i < s.size() && !isSpace(s[i]))
            ++i;
        if (*n == N)
            return false;
        out[(*n)++] = s.substr(b, i - b);
    }
    return true;
}

constexpr size_t kMaxCols = 64;

} // namespace

double NcclResult::peakBusBw() const {
    double peak = 0;
    for (const NcclRow& r : rows)
        peak = std::max({peak, r.oopBusBw, r.ipBusBw});
    return peak;
}

struct NcclParser::Impl {
    NcclResult result;
    // Where each kept size is in result.rows, and the row of the last line read.
    using Key = std::tuple<qint64, qint64, QString, QString>; // size, root, type, redop
    std::map<Key, size_t> index;
    qint64 newSizes = 0; // distinct sizes seen since the last thinning (decides which are kept)
    std::optional<NcclRow> last;
    QByteArray carry;      // the unfinished last line of the previous chunk (at most kMaxLine bytes)
    bool skipping = false; // inside a line already known to be too long
    int maxRank = -1;
    double busSum = 0;
    qint64 busCount = 0;

    // Column layout of the current table. Until a header is seen the standard layout of current
    // nccl-tests is assumed, so a log whose header was lost (rotated away) still yields its rows.
    std::vector<Col> cols;
    bool hasTimestamp = false;
    int sizeAt = -1;

    Impl() { setDefaultLayout(); }

    void setDefaultLayout() {
        cols = {Col::Size,  Col::Count, Col::Type, Col::Redop, Col::Root,  Col::Time, Col::AlgBw,
                Col::BusBw, Col::Wrong, Col::Time, Col::AlgBw, Col::BusBw, Col::Wrong};
        hasTimestamp = false;
    }

    void feed(const char* p, qsizetype n) {
        result.bytes += n;
        const char* end = p + n;
        while (p < end) {
            const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
            const char* stop = nl ? nl : end;
            const qsizetype len = stop - p;
            if (skipping) {
                if (nl)
                    skipping = false; // the long line ends here
            } else if (carry.size() + len > kMaxLine) {
                ++result.longLinesSkipped;
                ++result.lines;
                carry.clear();
                skipping = nl == nullptr;
            } else if (!nl) {
                carry.append(p, len);
            } else if (!carry.isEmpty()) {
                carry.append(p, len);
                line(Sv(carry.constData(), static_cast<size_t>(carry.size())));
                carry.clear();
            } else {
                line(Sv(p, static_cast<size_t>(len)));
            }
            p = nl ? nl + 1 : end;
        }
    }

    NcclResult finish() {
        if (!skipping && !carry.isEmpty())
            line(Sv(carry.constData(), static_cast<size_t>(carry.size())));
        carry.clear();
        skipping = false;
        if (last) {
            // The log's last row is kept, and kept last.
            const auto at = index.find(keyOf(*last));
            if (at != index.end())
                result.rows.erase(result.rows.begin() + qsizetype(at->second));
            result.rows.push_back(*last);
        }
        NcclResult out = std::move(result);
        out.ranks = std::max(out.ranks, maxRank + 1);
        out.computedAvgBusBw = busCount ? busSum / static_cast<double>(busCount) : 0;
        *this = Impl();
        return out;
    }

    void line(Sv s) {
        ++result.lines;
        while (!s.empty() && isSpace(s.back()))
            s.remove_suffix(1);
        if (s.empty())
            return;
        if (const void* hash = std::memchr(s.data(), '#', s.size())) {
            const size_t at = static_cast<size_t>(static_cast<const char*>(hash) - s.data());
            if (comment(s.substr(at + 1)))
                return;
        }
        const char last = s.back();
        if ((isDigit(last) || last == 'A') && row(s))
            return;
        markers(s);
    }

    // "# ..." lines: header, footer, devices, versions. True when the line was one of them.
    bool comment(Sv c) {
        const Sv t = trim(c);
        if (startsWith(t, "Rank ")) {
            qint64 r = 0;
            if (!toInt(firstWord(t.substr(5)), &r))
                return false;
            ++result.ranks;
            maxRank = std::max(maxRank, static_cast<int>(r));
            return true;
        }
        if (startsWith(t, "Avg bus bandwidth")) {
            const size_t colon = t.find(':');
            if (colon == Sv::npos)
                return false;
            Sv rest = trim(t.substr(colon + 1));
            const Sv num = firstWord(rest);
            double v = 0;
            if (!toDouble(num, &v))
                return false;
            if ((!std::isfinite(v) || v < 0) && result.badLine == 0) {
                result.badLine = result.lines;
                result.badValue =
                    QStringLiteral("Avg bus bandwidth '%1' is %2")
                        .arg(latin1(num), std::isfinite(v) ? QStringLiteral("negative")
                                                           : QStringLiteral("not a finite number"));
                return true;
            }
            result.footerAvgBusBw = v;
            result.footerCheck = latin1(firstWord(rest.substr(num.size())));
            return true;
        }
        if (startsWith(t, "nccl-tests version ")) {
            result.testsVersion = latin1(firstWord(t.substr(19)));
            return true;
        }
        if (startsWith(t, "Collective test starting:")) {
            result.collective = latin1(firstWord(t.substr(25)));
            return true;
        }
        return header(t);
    }

    bool header(Sv t) {
        Sv words[kMaxCols];
        size_t n = 0;
        if (!splitWords(t, words, &n) || n < 8)
            return false;
        std::vector<Col> layout;
        layout.reserve(n);
        int busbw = 0, need = 0;
        bool ts = false;
        for (size_t i = 0; i < n; ++i) {
            const Sv w = words[i];
            Col c = Col::Other;
            if (w == "size")
                c = Col::Size, need |= 1;
            else if (w == "count")
                c = Col::Count, need |= 2;
            else if (w == "type")
                c = Col::Type, need |= 4;
            else if (w == "redop")
                c = Col::Redop, need |= 8;
            else if (w == "root")
                c = Col::Root;
            else if (w == "time" || w == "cputime")
                c = Col::Time, need |= 16;
            else if (w == "algbw")
                c = Col::AlgBw, need |= 32;
            else if (w == "busbw")
                c = Col::BusBw, ++busbw;
            else if (w == "#wrong" || w == "error" || w == "wrong")
                c = Col::Wrong;
            else if (w == "timestamp")
                c = Col::Timestamp, ts = true;
            layout.push_back(c);
        }
        if (need != 63 || busbw != 2 || layout.front() != Col::Size)
            return false;
        cols = std::move(layout);
        hasTimestamp = ts;
        result.headerFound = true;
        return true;
    }

    // A data row: the last words of the line, as many as the header has columns (a timestamp column
    // prints as date and time, two words). Anything before them is a prefix and is ignored.
    bool row(Sv s) {
        const size_t ncols = cols.size();
        const size_t want = ncols + (hasTimestamp ? 1 : 0);
        Sv words[kMaxCols];
        size_t got = 0;
        // Words from the right.
        size_t i = s.size();
        while (got < want && i > 0) {
            while (i > 0 && isSpace(s[i - 1]))
                --i;
            if (i == 0)
                break;
            const size_t e = i;
            while (i > 0 && !isSpace(s[i - 1]))
                --i;
            words[want - 1 - got] = s.substr(i, e - i);
            ++got;
        }
        if (got == want && fill(words, want))
            return true;
        // A timestamp written as one word.
        if (hasTimestamp && got >= ncols && fill(words + (want - ncols), ncols))
            return true;
        return false;
    }

    // A figure that parsed but cannot be a measurement (inf, nan, negative): the first is kept.
    QString rowProblem;
    void badFigure(const char* what, Sv text, double v) {
        if (rowProblem.isEmpty())
            rowProblem = QStringLiteral("%1 '%2' is %3")
                             .arg(QLatin1String(what), latin1(text),
                                  std::isfinite(v) ? QStringLiteral("negative")
                                                   : QStringLiteral("not a finite number"));
    }
    void checkFigure(const char* what, Sv text, double v) {
        if (!std::isfinite(v) || v < 0)
            badFigure(what, text, v);
    }

    bool fill(const Sv* w, size_t n) {
        NcclRow r;
        int times = 0, algs = 0, buses = 0, wrongs = 0;
        size_t k = 0;
        rowProblem.clear();
        for (size_t c = 0; c < cols.size(); ++c, ++k) {
            if (k >= n)
                return false;
            const Sv v = w[k];
            switch (cols[c]) {
            case Col::Size:
                if (!toInt(v, &r.sizeBytes))
                    return false;
                checkFigure("size", v, double(r.sizeBytes));
                break;
            case Col::Count:
                if (!toInt(v, &r.count))
                    return false;
                checkFigure("count", v, double(r.count));
                break;
            case Col::Root:
                if (!toInt(v, &r.root))
                    return false;
                break;
            case Col::Type:
            case Col::Redop:
                if (!isAlpha(v.front()))
                    return false;
                (cols[c] == Col::Type ? r.type : r.redop) = latin1(v);
                break;
            case Col::Time: {
                double d = 0;
                if (!toDouble(v, &d))
                    return false;
                checkFigure("time", v, d);
                (times++ == 0 ? r.oopTimeUs : r.ipTimeUs) = d;
                break;
            }
            case Col::AlgBw: {
                double d = 0;
                if (!toDouble(v, &d))
                    return false;
                checkFigure("algbw", v, d);
                (algs++ == 0 ? r.oopAlgBw : r.ipAlgBw) = d;
                break;
            }
            case Col::BusBw: {
                double d = 0;
                if (!toDouble(v, &d))
                    return false;
                checkFigure("busbw", v, d);
                (buses++ == 0 ? r.oopBusBw : r.ipBusBw) = d;
                break;
            }
            case Col::Wrong: {
                double d = 0;
                if (v != "N/A" && !toDouble(v, &d))
                    return false;
                (wrongs++ == 0 ? r.oopWrong : r.ipWrong) = latin1(v);
                break;
            }
            case Col::Timestamp:
                if (!isDigit(v.front()))
                    return false;
                if (n == cols.size() + 1)
                    ++k; // date and time
                break;
            case Col::Other: {
                double d = 0;
                if (v != "N/A" && !toDouble(v, &d))
                    return false;
                break;
            }
            }
        }
        if (k != n || buses != 2)
            return false;
        if (!rowProblem.isEmpty()) {
            if (result.badLine == 0) {
                result.badLine = result.lines;
                result.badValue = rowProblem;
            }
            return true; // a row, but not a measurement
        }
        busSum += r.oopBusBw + r.ipBusBw;
        busCount += 2;
        keep(std::move(r));
        return true;
    }

    static Key keyOf(const NcclRow& r) { return Key{r.sizeBytes, r.root, r.type, r.redop}; }

    // One row per size (the newest figures), at most kMaxRows of them.
    void keep(NcclRow r) {
        ++result.rowsRead;
        last = r;
        const Key key = keyOf(r);
        if (const auto at = index.find(key); at != index.end()) {
            ++result.repeatedRows;
            result.rows[at->second] = std::move(r);
            return;
        }
        if (newSizes++ % result.decimation != 0)
            return;
        if (result.rows.size() >= size_t(NcclResult::kMaxRows))
            thin();
        index.emplace(key, result.rows.size());
        result.rows.push_back(std::move(r));
    }

    // Every second kept size goes; from now on one new size in twice as many is kept.
    void thin() {
        std::vector<NcclRow> kept;
        kept.reserve(result.rows.size() / 2 + 1);
        for (size_t i = 0; i < result.rows.size(); i += 2)
            kept.push_back(std::move(result.rows[i]));
        result.rows = std::move(kept);
        result.decimation *= 2;
        newSizes = 1;
        index.clear();
        for (size_t i = 0; i < result.rows.size(); ++i)
            index.emplace(keyOf(result.rows[i]), i);
    }

    // NCCL_DEBUG=INFO markers and the bare "NCCL version" line.
    void markers(Sv s) {
        size_t from = 0;
        for (;;) {
            const size_t at = s.find("NCCL ", from);
            if (at == Sv::npos)
                return;
            Sv rest = s.substr(at + 5);
            if (startsWith(rest, "version ")) {
                version(rest.substr(8));
                return;
            }
            if (startsWith(rest, "INFO ")) {
                info(trim(rest.substr(5)));
                return;
            }
            from = at + 1;
        }
    }

    void info(Sv m) {
        if (startsWith(m, "Using network ")) {
            result.netPlugin = latin1(trim(m.substr(14)));
        } else if (startsWith(m, "NCCL version ")) {
            version(m.substr(13));
        } else {
            const size_t nv = m.find("NVLS ");
            if (nv == Sv::npos)
                return;
            const Sv r = m.substr(nv + 5);
            if (startsWith(r, "multicast support is available"))
                result.nvlsMulticast = true;
            else if (startsWith(r, "comm 0x"))
                result.nvlsComm = true;
        }
    }

    void version(Sv v) {
        Sv w = firstWord(v);
        const size_t plus = w.find('+');
        if (plus != Sv::npos)
            w = w.substr(0, plus);
        if (!w.empty() && isDigit(w.front()))
            result.ncclVersion = latin1(w);
    }
};

QString NcclResult::keptNote() const {
    if (rowsRead == qint64(rows.size()))
        return {};
    return QStringLiteral("%1 rows read, %2 kept (one per message size, the newest of %3 repeats%4)")
        .arg(rowsRead)
        .arg(rows.size())
        .arg(repeatedRows)
        .arg(decimation > 1 ? QStringLiteral("; one size in %1 past %2").arg(decimation).arg(kMaxRows)
                            : QString());
}

NcclParser::NcclParser() : d(std::make_unique<Impl>()) {}
NcclParser::~NcclParser() = default;

void NcclParser::feed(QByteArrayView chunk) {
    d->feed(chunk.data(), chunk.size());
}

NcclResult NcclParser::finish() {
    return d->finish();
}

namespace {

Result<NcclResult> checked(NcclResult r, const QString& file) {
    if (r.badLine > 0)
        return makeError(r.badValue, file, int(std::min<qint64>(r.badLine, std::numeric_limits<int>::max())),
                         QStringLiteral("rows"));
    if (!r.rows.empty())
        return r;
    if (r.headerFound)
        return makeError(QStringLiteral("the nccl-tests result table has a header but no data rows"), file, 0,
                         QStringLiteral("rows"));
    return makeError(
        QStringLiteral("no nccl-tests result table (looked for a header naming size, count, type, "
                       "redop, time, algbw and busbw twice, and rows under it)"),
        file, 0, QStringLiteral("table"));
}

} // namespace

Result<NcclResult> parseNccl(QByteArrayView bytes, const QString& file) {
    NcclParser p;
    p.feed(bytes);
    return checked(p.finish(), file);
}

Result<NcclResult> parseNcclFile(const QString& path, QCryptographicHash* alsoHash) {
    QFile f(path);
    if (Status s = openInputFile(f, QStringLiteral("nccl-tests log")); !s)
        return s.error();
    if (f.size() > kMaxNcclLogBytes)
        return makeError(QStringLiteral("the log is %1 bytes, over the %2-byte limit for an nccl-tests log")
                             .arg(f.size())
                             .arg(kMaxNcclLogBytes),
                         path);
    NcclParser p;
    QByteArray buf(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    for (;;) {
        const qint64 n = f.read(buf.data(), buf.size());
        if (n < 0)
            return makeError(QStringLiteral("read failed: %1").arg(f.errorString()), path);
        if (n == 0)
            break;
        total += n;
        if (total > kMaxNcclLogBytes) // a file still being written to
            return makeError(
                QStringLiteral("the log grew past the %1-byte limit while being read").arg(kMaxNcclLogBytes),
                path);
        p.feed(QByteArrayView(buf.constData(), n));
        if (alsoHash)
            alsoHash->addData(QByteArrayView(buf.constData(), n));
    }
    return checked(p.finish(), path);
}

} // namespace pb::validation
