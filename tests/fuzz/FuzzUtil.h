// Shared by the fuzz targets: the input as Qt bytes without a copy, and a one-byte selector for
// targets that drive several parsers.
#pragma once

#include <QByteArray>

#include <cstddef>
#include <cstdint>

namespace pbfuzz {

inline QByteArray bytes(const uint8_t* data, size_t size) {
    // fromRawData would alias libFuzzer's buffer; a copy keeps ASan's bounds exact.
    return QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

} // namespace pbfuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
