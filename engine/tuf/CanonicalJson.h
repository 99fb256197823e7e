// Canonical JSON as TUF signs it (the OLPC form securesystemslib and go-tuf write): object keys
// sorted by code point, no whitespace, strings escaped only where JSON requires a backslash (`\`
// and `"`; everything else, control characters and non-ASCII included, as raw UTF-8), integers
// only (a floating-point number has no canonical form and is refused), true, false and null.
// A TUF signature covers these bytes of the metadata's "signed" object.
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QJsonValue>

namespace pb::tuf {

// The canonical bytes of `value`; an Error naming the field (dotted path from `field`) when the
// value holds a number that is not an integer, or nests deeper than kMaxDepth.
Result<QByteArray> canonicalJson(const QJsonValue& value, const QString& field = {});

inline constexpr int kMaxCanonicalDepth = 64;

} // namespace pb::tuf
