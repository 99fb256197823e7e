#include "JsonPath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <vector>

namespace fakecluster {

namespace {

struct Node {
    enum Kind { Text, Literal, Path, Range, End } kind = Text;
    QString text; // Text, Literal: what is printed; Path, Range: the expression
};

// The template split into text and {actions}; false on an unclosed brace.
bool parseTemplate(const QString& t, std::vector<Node>* nodes, QString* error) {
    QString text;
    for (qsizetype i = 0; i < t.size(); ++i) {
        if (t[i] != QLatin1Char('{')) {
            text += t[i];
            continue;
        }
        if (!text.isEmpty())
            nodes->push_back({Node::Text, text});
        text.clear();
        // The action runs to the first '}' outside a quoted string.
        qsizetype j = i + 1;
        bool quoted = false;
        for (; j < t.size(); ++j) {
            if (quoted && t[j] == QLatin1Char('\\')) {
                ++j;
                continue;
            }
            if (t[j] == QLatin1Char('"'))
                quoted = !quoted;
            else if (!quoted && t[j] == QLatin1Char('}'))
                break;
        }
        if (j >= t.size()) {
            *error = QStringLiteral("unclosed action");
            return false;
        }
        const QString action = t.mid(i + 1, j - i - 1).trimmed();
        if (action == QLatin1String("end")) {
            nodes->push_back({Node::End, {}});
        } else if (action.startsWith(QLatin1String("range "))) {
            nodes->push_back({Node::Range, action.mid(6).trimmed()});
        } else if (action.startsWith(QLatin1Char('"'))) {
            QString lit;
            for (qsizetype k = 1; k + 1 < action.size(); ++k) {
                if (action[k] == QLatin1Char('\\') && k + 2 < action.size()) {
                    const QChar e = action[++k];
                    lit += e == QLatin1Char('n')   ? QStringLiteral("\n")
                           : e == QLatin1Char('t') ? QStringLiteral("\t")
                                                   : QString(e);
                } else {
                    lit += action[k];
                }
            }
            nodes->push_back({Node::Literal, lit});
        } else {
            nodes->push_back({Node::Path, action});
        }
        i = j;
    }
    if (!text.isEmpty())
        nodes->push_back({Node::Text, text});
    return true;
}

QString scalarText(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return d == std::floor(d) ? QString::number(static_cast<qint64>(d)) : QString::number(d);
    }
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    default:
        return QStringLiteral("<nil>");
    }
}

using Values = std::vector<QJsonValue>;

Values evalPath(const QString& expr, const Values& in, QString* error);

// [?(@.path OP literal)] or [?(@.path)] over one array's elements.
Values filter(const QString& cond, const QJsonArray& arr, QString* error) {
    QString lhs = cond, rhs;
    bool negate = false, compare = false;
    for (const char* op : {"==", "!="}) {
        const qsizetype at = cond.indexOf(QLatin1String(op));
        if (at >= 0) {
            lhs = cond.left(at).trimmed();
            rhs = cond.mid(at + 2).trimmed();
            negate = op[0] == '!';
            compare = true;
            break;
        }
    }
    if (rhs.size() >= 2 && (rhs.startsWith(QLatin1Char('"')) || rhs.startsWith(QLatin1Char('\''))))
        rhs = rhs.mid(1, rhs.size() - 2);
    Values out;
    for (const QJsonValue& e : arr) {
        const Values got = evalPath(lhs, {e}, error);
        if (!error->isEmpty())
            return {};
        bool keep = !got.empty();
        if (compare)
            keep = (keep && scalarText(got.front()) == rhs) != negate;
        if (keep)
            out.push_back(e);
    }
    return out;
}

// One bracket's content applied to each value.
Values bracket(const QString& inner, const Values& in, QString* error) {
    Values out;
    for (const QJsonValue& v : in) {
        if (inner == QLatin1String("*")) {
            if (v.isArray())
                for (const QJsonValue& e : v.toArray())
                    out.push_back(e);
            else if (v.isObject())
                for (const QJsonValue& e : v.toObject())
                    out.push_back(e);
        } else if (inner.startsWith(QLatin1String("?(")) && inner.endsWith(QLatin1Char(')'))) {
            if (!v.isArray())
                continue;
            const Values kept = filter(inner.mid(2, inner.size() - 3), v.toArray(), error);
            out.insert(out.end(), kept.begin(), kept.end());
        } else if (inner.startsWith(QLatin1Char('\'')) || inner.startsWith(QLatin1Char('"'))) {
            const QJsonValue e = v.toObject().value(inner.mid(1, inner.size() - 2));
            if (!e.isUndefined())
                out.push_back(e);
        } else {
            bool ok = false;
            int index = inner.toInt(&ok);
            if (!ok) {
                *error = QStringLiteral("unsupported bracket [%1]").arg(inner);
                return {};
            }
            if (!v.isArray()) {
                *error = QStringLiteral("%1 is not array or slice").arg(scalarText(v));
                return {};
            }
            const QJsonArray arr = v.toArray();
            if (index < 0)
                index += arr.size();
            if (index < 0 || index >= arr.size()) {
                *error = QStringLiteral("array index out of bounds: index %1, length %2")
                             .arg(inner)
                             .arg(arr.size());
                return {};
            }
            out.push_back(arr.at(index));
        }
    }
    return out;
}

Values evalPath(const QString& expr, const Values& in, QString* error) {
    Values cur = in;
    qsizetype i = 0;
    if (expr.startsWith(QLatin1Char('@')))
        i = 1;
    while (i < expr.size()) {
        const QChar c = expr[i];
        if (c == QLatin1Char('.')) {
            QString key;
            ++i;
            while (i < expr.size() && expr[i] != QLatin1Char('.') && expr[i] != QLatin1Char('[')) {
                if (expr[i] == QLatin1Char('\\') && i + 1 < expr.size())
                    ++i;
                key += expr[i++];
            }
            if (key.isEmpty())
                continue; // "." alone: the current value
            Values next;
            for (const QJsonValue& v : cur) {
                const QJsonValue e = v.toObject().value(key);
                if (v.isObject() && !e.isUndefined())
                    next.push_back(e);
            }
            cur = std::move(next);
        } else if (c == QLatin1Char('[')) {
            // The bracket ends at the first ']' outside quotes and parentheses.
            int depth = 0;
            bool quoted = false;
            qsizetype j = i + 1;
            for (; j < expr.size(); ++j) {
                if (expr[j] == QLatin1Char('"') || expr[j] == QLatin1Char('\''))
                    quoted = !quoted;
                else if (!quoted && expr[j] == QLatin1Char('('))
                    ++depth;
                else if (!quoted && expr[j] == QLatin1Char(')'))
                    --depth;
                else if (!quoted && depth == 0 && expr[j] == QLatin1Char(']'))
                    break;
            }
            if (j >= expr.size()) {
                *error = QStringLiteral("unterminated [ in %1").arg(expr);
                return {};
            }
            cur = bracket(expr.mid(i + 1, j - i - 1).trimmed(), cur, error);
            if (!error->isEmpty())
                return {};
            i = j + 1;
        } else {
            *error = QStringLiteral("unrecognized character in action: %1").arg(c);
            return {};
        }
    }
    return cur;
}

// Evaluates nodes[*pos...] against `data` until an End (consumed) or the last node.
QString run(const std::vector<Node>& nodes, size_t* pos, const QJsonValue& data, QString* error) {
    QString out;
    while (*pos < nodes.size() && error->isEmpty()) {
        const Node& n = nodes[*pos];
        ++*pos;
        switch (n.kind) {
        case Node::End:
            return out;
        case Node::Text:
        case Node::Literal:
            out += n.text;
            break;
        case Node::Path: {
            const Values vs = evalPath(n.text, {data}, error);
            for (size_t k = 0; k < vs.size(); ++k)
                out += (k ? QStringLiteral(" ") : QString()) + scalarText(vs[k]);
            break;
        }
        case Node::Range: {
            const Values vs = evalPath(n.text, {data}, error);
            const size_t body = *pos;
            size_t after = body;
            // An empty range still has to find its {end}.
            if (vs.empty()) {
                QString ignored;
                run(nodes, &after, QJsonValue(), &ignored);
            }
            for (const QJsonValue& v : vs) {
                size_t p = body;
                out += run(nodes, &p, v, error);
                after = p;
            }
            *pos = after;
            break;
        }
        }
    }
    return out;
}

} // namespace

QString evalJsonPath(const QString& tmpl, const QJsonValue& data, QString* error) {
    std::vector<Node> nodes;
    error->clear();
    if (!parseTemplate(tmpl, &nodes, error))
        return {};
    size_t pos = 0;
    QString out;
    while (pos < nodes.size() && error->isEmpty())
        out += run(nodes, &pos, data, error);
    return out;
}

} // namespace fakecluster
