// Small protobuf-JSON readers shared by the trusted-root and bundle parsers (internal).
#pragma once

#include "core/Result.h"
#include "sigstore/TrustedRoot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

namespace pb::sigstore::detail {

// The proto3 JSON mapping, as every Sigstore JSON input (bundle, trusted root) is read: a field is
// found under its lowerCamelCase JSON name or its proto field name, and `null` is the same as an
// absent field (an undefined QJsonValue is returned for both). Unknown fields are never looked at.
inline QJsonValue field(const QJsonObject& o, const char* camel, const char* snake = nullptr) {
    const auto it = o.constFind(QLatin1String(camel));
    if (it != o.constEnd() && !it->isNull())
        return *it;
    if (snake) {
        const auto sit = o.constFind(QLatin1String(snake));
        if (sit != o.constEnd() && !sit->isNull())
            return *sit;
    }
    return QJsonValue(QJsonValue::Undefined);
}

// A proto3 enum: its value name, or its number mapped through `names` (index = number). Absent (or
// null) is the zero value, names[0], as proto3 JSON leaves it out. An unknown number gives an empty
// string, which every caller rejects as unsupported.
template <size_t N>
QString enumField(const QJsonObject& o, const char* camel, const char* snake, const char* const (&names)[N]) {
    const QJsonValue v = field(o, camel, snake);
    if (v.isUndefined() || v.isNull())
        return QLatin1String(names[0]);
    if (v.isString())
        return v.toString();
    if (v.isDouble()) {
        const double d = v.toDouble();
        const int n = int(d);
        if (double(n) == d && n >= 0 && size_t(n) < N)
            return QLatin1String(names[n]);
    }
    return {};
}

// int64 as protojson writes it (a decimal string) or as a JSON number.
inline std::optional<qint64> toInt64(const QJsonValue& v) {
    if (v.isString()) {
        bool ok = false;
        const qint64 n = v.toString().toLongLong(&ok, 10);
        if (!ok || v.toString().startsWith(QLatin1Char('+')) || v.toString().contains(QLatin1Char(' ')))
            return std::nullopt;
        return n;
    }
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d != static_cast<double>(static_cast<qint64>(d)))
            return std::nullopt;
        return static_cast<qint64>(d);
    }
    return std::nullopt;
}

class Reader {
  public:
    explicit Reader(QString file) : m_file(std::move(file)) {}
    Error error(const QString& field, const QString& message) const {
        return makeError(message, m_file, 0, field);
    }

    // bytes field: required when `required`, strictly decoded.
    Result<QByteArray> bytes(const QJsonObject& o, const QString& path, const char* camel, const char* snake,
                             bool required) const {
        const QJsonValue v = field(o, camel, snake);
        const QString where =
            path.isEmpty() ? QLatin1String(camel) : path + QLatin1Char('.') + QLatin1String(camel);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                return error(where, QStringLiteral("missing"));
            return QByteArray();
        }
        if (!v.isString())
            return error(where, QStringLiteral("expected a base64 string"));
        auto decoded = decodeBase64Strict(v.toString());
        if (!decoded)
            return error(where, QStringLiteral("not valid base64"));
        if (required && decoded->isEmpty())
            return error(where, QStringLiteral("empty"));
        return *decoded;
    }

    // The document's top-level object, or an error naming the offset.
    Result<QJsonObject> object(const QByteArray& json) const {
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
        if (perr.error != QJsonParseError::NoError)
            return error(
                {},
                QStringLiteral("not valid JSON at offset %1: %2").arg(perr.offset).arg(perr.errorString()));
        if (!doc.isObject())
            return error({}, QStringLiteral("not a JSON object"));
        return doc.object();
    }

    const QString& file() const { return m_file; }

  private:
    QString m_file;
};

} // namespace pb::sigstore::detail
