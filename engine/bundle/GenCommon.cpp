#include "bundle/GenCommon.h"

#include "yaml/GoYaml.h"

#include <QFile>
#include <QRegularExpression>

#include <algorithm>

namespace pb::bundle::gen {

using yaml::Node;

QByteArray templateText(const QString& resource) {
    QFile f(QStringLiteral(":/bundle/") + resource);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QByteArray fill(QByteArray text, const std::vector<std::pair<const char*, QByteArray>>& fields) {
    for (const auto& [key, value] : fields)
        text.replace(QByteArray("@") + key + "@", value);
    return text;
}

void put(BundleTree& tree, const QString& path, QByteArray bytes, bool exec) {
    tree.files.push_back({path, std::move(bytes), exec});
}

QByteArray valuesFile(const QString& what, const Node& values) {
    QByteArray out = documentHeader(what);
    if (values.isMap() && !values.entries.empty()) {
        yaml::GoEncodeOptions o;
        o.indent = 2;
        o.sortKeys = true;
        out += yaml::goEncode(values, o);
    }
    return out;
}

QByteArray encodeOrdered(const Node& doc) {
    yaml::GoEncodeOptions o;
    o.indent = 2;
    o.sortKeys = false;
    return yaml::goEncode(doc, o);
}

Node strSeq(const QStringList& items) {
    Node seq = Node::seq();
    for (const QString& i : items)
        seq.items.push_back(Node::str(i.toStdString()));
    return seq;
}

Node kv(std::initializer_list<std::pair<const char*, Node>> entries) {
    Node m = Node::map();
    for (const auto& [k, v] : entries)
        m.set(k, v);
    return m;
}

Node s(const QString& v) {
    return Node::str(v.toStdString());
}

Node sortedKeys(const Node& n) {
    Node out = n;
    if (n.isMap()) {
        std::sort(
            out.entries.begin(), out.entries.end(),
            [](const yaml::MapEntry& a, const yaml::MapEntry& b) { return a.key.scalar < b.key.scalar; });
        for (yaml::MapEntry& e : out.entries)
            e.value = sortedKeys(e.value);
    } else if (n.isSeq()) {
        for (Node& i : out.items)
            i = sortedKeys(i);
    }
    return out;
}

QByteArray documentHeader(const QString& what) {
    return "# " + what.toUtf8() + " (written by Proofbench bundle generate)\n---\n";
}

bool isDnsSubdomain(const QString& name) {
    static const QRegularExpression re(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    return !name.isEmpty() && name.size() <= 253 && re.match(name).hasMatch();
}

QString normalizeVersion(const QString& v) {
    return v.startsWith(QLatin1Char('v')) ? v.mid(1) : v;
}

QString effectiveChart(const GenComponent& c) {
    return c.chart.isEmpty() ? c.name : c.chart;
}

QString urlSlug(const QString& url, const QString& fallback) {
    QString t = url.toLower();
    for (const char* scheme : {"oci://", "https://", "http://"})
        if (t.startsWith(QLatin1String(scheme)))
            t = t.mid(static_cast<qsizetype>(qstrlen(scheme)));
    if (t.endsWith(QLatin1Char('/')))
        t.chop(1);
    if (t.endsWith(QLatin1String(".git")))
        t.chop(4);
    static const QRegularExpression other(QStringLiteral("[^a-z0-9-]+"));
    t.replace(other, QStringLiteral("-"));
    while (t.startsWith(QLatin1Char('-')))
        t.remove(0, 1);
    while (t.endsWith(QLatin1Char('-')))
        t.chop(1);
    if (t.size() > 63) {
        t.truncate(63);
        while (t.endsWith(QLatin1Char('-')))
            t.chop(1);
    }
    return t.isEmpty() ? fallback : t;
}

} // namespace pb::bundle::gen
