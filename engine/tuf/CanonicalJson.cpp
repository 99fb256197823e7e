#include "tuf/CanonicalJson.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pb::tuf {

namespace {

void appendString(QByteArray& out, const QString& s) {
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (char c : utf8) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

QString child(const QString& field, const QString& key) {
    return field.isEmpty() ? key : field + QLatin1Char('.') + key;
}

Status append(QByteArray& out, const QJsonValue& v, const QString& field, int depth) {
    if (depth > kMaxCanonicalDepth)
        return makeError(QStringLiteral("nested deeper than %1 levels").arg(kMaxCanonicalDepth), {}, 0,
                         field);
    switch (v.type()) {
    case QJsonValue::Null:
        out += "null";
        return {};
    case QJsonValue::Bool:
        out += v.toBool() ? "true" : "false";
        return {};
    case QJsonValue::Double: {
        // Qt keeps a JSON number written without fraction or exponent (and within 64 bits) as an
        // integer; anything else arrives as a double, which canonical JSON cannot express.
        const QVariant var = v.toVariant();
        if (var.typeId() == QMetaType::LongLong || var.typeId() == QMetaType::Int) {
            out += QByteArray::number(var.toLongLong());
            return {};
        }
        return makeError(QStringLiteral("the number %1 is not an integer; canonical JSON has only integers")
                             .arg(v.toDouble()),
                         {}, 0, field);
    }
    case QJsonValue::String:
        appendString(out, v.toString());
        return {};
    case QJsonValue::Array: {
        out += '[';
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (i)
                out += ',';
            if (Status s = append(out, a.at(i), field + QStringLiteral("[%1]").arg(i), depth + 1); !s)
                return s;
        }
        out += ']';
        return {};
    }
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        // Code-point order is the order of the UTF-8 bytes (QJsonObject's own order is by UTF-16
        // code units, which differs above U+FFFF).
        std::vector<std::pair<QByteArray, QString>> keys;
        keys.reserve(size_t(o.size()));
        for (auto it = o.begin(); it != o.end(); ++it)
            keys.emplace_back(it.key().toUtf8(), it.key());
        std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += '{';
        bool first = true;
        for (const auto& [utf8, key] : keys) {
            if (!first)
                out += ',';
            first = false;
            appendString(out, key);
            out += ':';
            if (Status s = append(out, o.value(key), child(field, key), depth + 1); !s)
                return s;
        }
        out += '}';
        return {};
    }
    case QJsonValue::Undefined:
        break;
    }
    return makeError(QStringLiteral("a value JSON cannot hold"), {}, 0, field);
}

} // namespace

Result<QByteArray> canonicalJson(const QJsonValue& value, const QString& field) {
    QByteArray out;
    if (Status s = append(out, value, field, 0); !s)
        return s.error();
    return out;
}

} // namespace pb::tuf
