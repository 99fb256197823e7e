#include "receipts/Canonical.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace pb::receipts {

namespace {

void appendString(QByteArray& out, const QString& s) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    QString plain;
    auto flush = [&] {
        out += plain.toUtf8();
        plain.clear();
    };
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        const char* esc = nullptr;
        switch (u) {
        case u'"':
            esc = "\\\"";
            break;
        case u'\\':
            esc = "\\\\";
            break;
        case u'\b':
            esc = "\\b";
            break;
        case u'\f':
            esc = "\\f";
            break;
        case u'\n':
            esc = "\\n";
            break;
        case u'\r':
            esc = "\\r";
            break;
        case u'\t':
            esc = "\\t";
            break;
        default:
            break;
        }
        if (esc) {
            flush();
            out += esc;
        } else if (u < 0x20) {
            flush();
            out += "\\u00";
            out += hex[(u >> 4) & 0xf];
            out += hex[u & 0xf];
        } else {
            plain += c;
        }
    }
    flush();
    out += '"';
}

void append(QByteArray& out, const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out += "null";
        return;
    case QJsonValue::Bool:
        out += v.toBool() ? "true" : "false";
        return;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) <= 9007199254740992.0)
            out += QByteArray::number(static_cast<qint64>(d));
        else if (std::isfinite(d))
            out += QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
        else
            out += "null"; // JSON has no infinities; JSON.stringify writes null
        return;
    }
    case QJsonValue::String:
        appendString(out, v.toString());
        return;
    case QJsonValue::Array: {
        out += '[';
        bool first = true;
        for (const QJsonValue& item : v.toArray()) {
            if (!first)
                out += ',';
            first = false;
            append(out, item);
        }
        out += ']';
        return;
    }
    case QJsonValue::Object: {
        const QJsonObject o = v.toObject();
        QStringList keys = o.keys();
        std::sort(keys.begin(), keys.end()); // QString's operator< compares UTF-16 code units
        out += '{';
        bool first = true;
        for (const QString& k : keys) {
            if (!first)
                out += ',';
            first = false;
            appendString(out, k);
            out += ':';
            append(out, o.value(k));
        }
        out += '}';
        return;
    }
    }
}

} // namespace

QByteArray canonicalJson(const QJsonValue& value) {
    QByteArray out;
    append(out, value);
    return out;
}

} // namespace pb::receipts
