// The one canonical JSON form used for hashing: receipts (Ledger.h) and ConfigHub's digest index
// (Records.h, where upstream calls it "stableJson") are both hashed over it.
//
// Rules, exactly:
//  - object keys sorted at every depth by UTF-16 code units (JavaScript's default Array sort;
//    identical to byte order for the ASCII keys used here), arrays kept in order;
//  - no whitespace anywhere;
//  - strings escaped as JSON.stringify does: \" \\ \b \f \n \r \t, any other code point below
//    U+0020 as \u00xx (lower-case hex), everything else written as UTF-8 as is;
//  - numbers: integral values within +-2^53 in plain decimal ("1", "-5"); other numbers in the
//    shortest form that reads back to the same double;
//  - true, false, null as such.
#pragma once

#include <QByteArray>
#include <QJsonValue>

namespace pb::receipts {

QByteArray canonicalJson(const QJsonValue& value);

} // namespace pb::receipts
