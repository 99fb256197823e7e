#include "catalog/VersionOrder.h"

#include <QRegularExpression>
#include <QTimeZone>

#include <algorithm>

namespace pb::catalog {

namespace {

bool isNumeric(const QString& s) {
    if (s.isEmpty())
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); });
}

int compareIdentifier(const QString& a, const QString& b) {
    const bool an = isNumeric(a), bn = isNumeric(b);
    if (an && bn) {
        if (a.size() != b.size())
            return a.size() < b.size() ? -1 : 1; // no leading zeros: longer is larger
        return a.compare(b);
    }
    if (an != bn)
        return an ? -1 : 1; // numeric identifiers have lower precedence
    return a.compare(b);
}

// Runs of digits compare as numbers, everything else as text: sample-2 < sample-10.
int naturalCompare(const QString& a, const QString& b) {
    qsizetype i = 0, j = 0;
    auto isDigit = [](QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); };
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && isDigit(a[ei]))
                ++ei;
            while (ej < b.size() && isDigit(b[ej]))
                ++ej;
            QStringView na = QStringView(a).mid(i, ei - i), nb = QStringView(b).mid(j, ej - j);
            while (na.size() > 1 && na.front() == QLatin1Char('0'))
                na = na.mid(1);
            while (nb.size() > 1 && nb.front() == QLatin1Char('0'))
                nb = nb.mid(1);
            if (na.size() != nb.size())
                return na.size() < nb.size() ? -1 : 1;
            if (const int c = na.compare(nb); c != 0)
                return c;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j] ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size())
        return i < a.size() ? 1 : -1;
    return a.compare(b);
}

} // namespace

std::optional<SemVer> parseSemVer(const QString& label) {
    static const QRegularExpression re(QStringLiteral(
        R"(^v?(0|[1-9]\d{0,17})\.(0|[1-9]\d{0,17})\.(0|[1-9]\d{0,17})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$)"));
    const QRegularExpressionMatch m = re.match(label);
    if (!m.hasMatch())
        return std::nullopt;
    SemVer v;
    v.major = m.captured(1).toLongLong();
    v.minor = m.captured(2).toLongLong();
    v.patch = m.captured(3).toLongLong();
    if (m.hasCaptured(4) && !m.captured(4).isEmpty()) {
        v.prerelease = m.captured(4).split(QLatin1Char('.'));
        for (const QString& id : std::as_const(v.prerelease))
            if (isNumeric(id) && id.size() > 1 && id.startsWith(QLatin1Char('0')))
                return std::nullopt; // SemVer forbids leading zeros in numeric identifiers
    }
    return v;
}

int compareSemVer(const SemVer& a, const SemVer& b) {
    for (auto [x, y] :
         {std::pair{a.major, b.major}, std::pair{a.minor, b.minor}, std::pair{a.patch, b.patch}})
        if (x != y)
            return x < y ? -1 : 1;
    if (a.prerelease.isEmpty() || b.prerelease.isEmpty()) {
        if (a.prerelease.isEmpty() == b.prerelease.isEmpty())
            return 0;
        return a.prerelease.isEmpty() ? 1 : -1; // a pre-release comes before its release
    }
    const qsizetype n = std::min(a.prerelease.size(), b.prerelease.size());
    for (qsizetype i = 0; i < n; ++i)
        if (const int c = compareIdentifier(a.prerelease[i], b.prerelease[i]); c != 0)
            return c;
    if (a.prerelease.size() == b.prerelease.size())
        return 0;
    return a.prerelease.size() < b.prerelease.size() ? -1 : 1;
}

QDateTime labelDate(const QString& label) {
    static const QRegularExpression re(
        QStringLiteral(R"((?:^|[^0-9])((?:19|20)\d\d)-(\d\d)-(\d\d)(?:[^0-9]|$))"));
    const QRegularExpressionMatch m = re.match(label);
    if (!m.hasMatch())
        return {};
    const QDate d(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    if (!d.isValid())
        return {};
    return QDateTime(d, QTime(0, 0), Qt::UTC);
}

QString orderBasis(const VersionOrderKey& key) {
    if (parseSemVer(key.label))
        return QStringLiteral("semantic version");
    if (key.commitDate.isValid())
        return QStringLiteral("commit date");
    if (labelDate(key.label).isValid())
        return QStringLiteral("date in label");
    return QStringLiteral("label");
}

namespace {

std::vector<int> orderOf(const std::vector<VersionOrderKey>& keys);

} // namespace

std::vector<int> versionOrder(const std::vector<VersionOrderKey>& keys) {
    // Samples first, each group in its own order.
    std::vector<VersionOrderKey> groups[2];
    std::vector<int> indices[2];
    for (int i = 0; i < static_cast<int>(keys.size()); ++i) {
        const int g = keys[i].sample ? 0 : 1;
        groups[g].push_back(keys[i]);
        indices[g].push_back(i);
    }
    std::vector<int> out;
    out.reserve(keys.size());
    for (int g = 0; g < 2; ++g)
        for (int i : orderOf(groups[g]))
            out.push_back(indices[g][static_cast<std::size_t>(i)]);
    return out;
}

namespace {

std::vector<int> orderOf(const std::vector<VersionOrderKey>& keys) {
    struct Item {
        int index;
        std::optional<SemVer> semver;
        QDateTime date; // the item's own date
    };
    std::vector<Item> semvers, others;
    for (int i = 0; i < static_cast<int>(keys.size()); ++i) {
        Item it{i, parseSemVer(keys[i].label), keys[i].commitDate};
        if (it.semver) {
            semvers.push_back(std::move(it));
        } else {
            if (!it.date.isValid())
                it.date = labelDate(keys[i].label);
            others.push_back(std::move(it));
        }
    }
    std::stable_sort(semvers.begin(), semvers.end(), [&](const Item& a, const Item& b) {
        if (const int c = compareSemVer(*a.semver, *b.semver); c != 0)
            return c < 0;
        return keys[a.index].label < keys[b.index].label; // v1.0.0 and 1.0.0: a fixed order
    });
    std::stable_sort(others.begin(), others.end(), [&](const Item& a, const Item& b) {
        if (a.date.isValid() != b.date.isValid())
            return !a.date.isValid(); // undated first
        if (a.date.isValid() && a.date != b.date)
            return a.date < b.date;
        return naturalCompare(keys[a.index].label, keys[b.index].label) < 0;
    });
    // Merge dates: a semantic version with no date of its own carries the latest date seen before it.
    QDateTime carried;
    for (Item& it : semvers) {
        if (it.date.isValid() && (!carried.isValid() || it.date > carried))
            carried = it.date;
        it.date = carried;
    }
    std::vector<int> out;
    out.reserve(keys.size());
    std::size_t s = 0, o = 0;
    while (s < semvers.size() || o < others.size()) {
        bool takeSemver;
        if (o == others.size())
            takeSemver = true;
        else if (s == semvers.size())
            takeSemver = false;
        else if (!semvers[s].date.isValid())
            takeSemver = true; // an undated release precedes dated catalogs
        else if (!others[o].date.isValid())
            takeSemver = false;
        else
            takeSemver = semvers[s].date <= others[o].date;
        out.push_back(takeSemver ? semvers[s++].index : others[o++].index);
    }
    return out;
}

} // namespace

} // namespace pb::catalog
