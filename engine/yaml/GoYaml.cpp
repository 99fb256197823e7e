#include "yaml/GoYaml.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace pb::yaml {

namespace {

// ---- UTF-8 ----------------------------------------------------------------------------------

std::vector<char32_t> decodeUtf8(const std::string& s) {
    std::vector<char32_t> out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        if (i + static_cast<size_t>(len) > s.size())
            len = 1;
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < len; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
        out.push_back(cp);
        i += static_cast<size_t>(len);
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// Code point of an element of either view: ASCII bytes (the fast path) or decoded UTF-32.
inline char32_t cp(char c) {
    return static_cast<char32_t>(static_cast<unsigned char>(c));
}
inline char32_t cp(char32_t c) {
    return c;
}

bool isBreak(char32_t c) {
    return c == U'\r' || c == U'\n' || c == 0x85 || c == 0x2028 || c == 0x2029;
}
bool isSpaceOrTab(char32_t c) {
    return c == U' ' || c == U'\t';
}
bool isPrintable(char32_t c) {
    return c == 0x0A || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || (c >= 0x10000 && c <= 0x10FFFF);
}

// ---- UTF-8 without decoding ------------------------------------------------------------------
// The fast path reads scalars as UTF-8 bytes. It is taken only when decodeUtf8 + appendUtf8 would
// give back the same bytes (well-formed sequences, no overlong forms), so that copying bytes is the
// same as writing the decoded code points one by one. Anything else takes the UTF-32 path.

enum class Utf8Kind { Ascii, RoundTrips, Other };

// The sequence length decodeUtf8 gives a lead byte.
inline size_t leadLength(unsigned char c) {
    return c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
}

Utf8Kind utf8Kind(std::string_view s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const size_t n = s.size();
    size_t i = 0;
    while (i < n && p[i] < 0x80)
        ++i;
    if (i == n)
        return Utf8Kind::Ascii;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        const size_t len = leadLength(c);
        if (len == 1 || i + len > n)
            return Utf8Kind::Other; // a stray continuation byte, 0xF8.., or a cut sequence
        char32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return Utf8Kind::Other;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const char32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (cp < min)
            return Utf8Kind::Other; // overlong: appendUtf8 would write it shorter
        i += len;
    }
    return Utf8Kind::RoundTrips;
}

// The code point at byte i of well-formed UTF-8, and its length in bytes.
inline char32_t cpAt(std::string_view s, size_t i, size_t* len) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    const size_t l = leadLength(c);
    char32_t v = l == 2 ? (c & 0x1F) : l == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < l; ++k)
        v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    *len = l;
    return v;
}

// Byte offset of the last code point of well-formed, non-empty UTF-8 ending at `end`.
inline size_t lastCpStart(std::string_view s, size_t end) {
    size_t i = end - 1;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
        --i;
    return i;
}

// ---- libyaml's scalar analysis (block and flow context) ------------------------------------

struct Analysis {
    bool multiline = false;
    bool flowPlain = false;
    bool blockPlain = true;
    bool single = true;
    bool block = false;
};

template <typename Seq> Analysis analyze(const Seq& v) {
    Analysis a;
    if (v.empty())
        return a;
    bool blockInd = false, flowInd = false, lineBreaks = false, special = false, tabs = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool breakSpace = false, spaceBreak = false;
    auto startsWith3 = [&](char32_t c) {
        return v.size() >= 3 && cp(v[0]) == c && cp(v[1]) == c && cp(v[2]) == c;
    };
    if (startsWith3(U'-') || startsWith3(U'.'))
        blockInd = flowInd = true;
    bool precededWs = true, prevSpace = false, prevBreak = false;
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) {
        const char32_t ch = cp(v[i]);
        const bool followedWs = i + 1 >= n || isSpaceOrTab(cp(v[i + 1])) || isBreak(cp(v[i + 1]));
        if (i == 0) {
            switch (ch) {
            case U'#':
            case U',':
            case U'[':
            case U']':
            case U'{':
            case U'}':
            case U'&':
            case U'*':
            case U'!':
            case U'|':
            case U'>':
            case U'\'':
            case U'"':
            case U'%':
            case U'@':
            case U'`':
                flowInd = blockInd = true;
                break;
            case U'?':
            case U':':
                flowInd = true;
                if (followedWs)
                    blockInd = true;
                break;
            case U'-':
                if (followedWs)
                    flowInd = blockInd = true;
                break;
            default:
                break;
            }
        } else {
            switch (ch) {
            case U',':
            case U'?':
            case U'[':
            case U']':
            case U'{':
            case U'}':
                flowInd = true;
                break;
            case U':':
                flowInd = true;
                if (followedWs)
                    blockInd = true;
                break;
            case U'#':
                if (precededWs)
                    flowInd = blockInd = true;
                break;
            default:
                break;
            }
        }
        if (ch == U'\t')
            tabs = true;
        else if (!isPrintable(ch))
            special = true;
        if (ch == U' ') {
            if (i == 0)
                leadingSpace = true;
            if (i == n - 1)
                trailingSpace = true;
            if (prevBreak)
                breakSpace = true;
            prevSpace = true;
            prevBreak = false;
        } else if (isBreak(ch)) {
            lineBreaks = true;
            if (i == 0)
                leadingBreak = true;
            if (i == n - 1)
                trailingBreak = true;
            if (prevSpace)
                spaceBreak = true;
            prevSpace = false;
            prevBreak = true;
        } else {
            prevSpace = prevBreak = false;
        }
        precededWs = isSpaceOrTab(ch) || isBreak(ch);
    }
    a.multiline = lineBreaks;
    a.flowPlain = a.blockPlain = a.single = a.block = true;
    if (leadingSpace || leadingBreak || trailingSpace || trailingBreak)
        a.flowPlain = a.blockPlain = false;
    if (trailingSpace)
        a.block = false;
    if (breakSpace)
        a.flowPlain = a.blockPlain = a.single = false;
    if (spaceBreak || tabs || special)
        a.flowPlain = a.blockPlain = a.single = false;
    if (spaceBreak || special)
        a.block = false;
    if (lineBreaks)
        a.flowPlain = a.blockPlain = false;
    if (flowInd)
        a.flowPlain = false;
    if (blockInd)
        a.blockPlain = false;
    return a;
}

// analyze() over well-formed UTF-8 without decoding it first: the same flags, in one pass over
// the bytes. Only ASCII characters are indicators; a multi-byte character is looked at only for
// the break (U+0085, U+2028, U+2029) and printable rules.
// Printable ASCII characters that are never an indicator, a space or a break, wherever they are.
constexpr std::array<bool, 256> kQuietByteTable() {
    std::array<bool, 256> t{};
    for (int b = 0x21; b < 0x7F; ++b)
        t[static_cast<size_t>(b)] = true;
    for (char c : std::string_view("#,[]{}&*!|>'\"%@`?:-"))
        t[static_cast<unsigned char>(c)] = false;
    return t;
}
constexpr std::array<bool, 256> kQuietByte = kQuietByteTable();

// What a scan of a scalar's text found, for choosing its style.
struct ScalarFlags {
    bool blockInd = false, flowInd = false, lineBreaks = false, special = false, tabs = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool breakSpace = false, spaceBreak = false;
};

// The code point at byte i is a space, tab or break (true at the end).
bool whitespaceAt(std::string_view v, size_t i) {
    if (i >= v.size())
        return true;
    size_t len = 0;
    const char32_t c = cpAt(v, i, &len);
    return isSpaceOrTab(c) || isBreak(c);
}

// Indicators: what makes a plain scalar read as something else, at its start or inside it.
// `next` is the byte after `ch`.
void markIndicators(std::string_view v, char32_t ch, size_t i, size_t next, bool precededWs, ScalarFlags& f) {
    if (i == 0) {
        switch (ch) {
        case U'#':
        case U',':
        case U'[':
        case U']':
        case U'{':
        case U'}':
        case U'&':
        case U'*':
        case U'!':
        case U'|':
        case U'>':
        case U'\'':
        case U'"':
        case U'%':
        case U'@':
        case U'`':
            f.flowInd = f.blockInd = true;
            break;
        case U'?':
        case U':':
            f.flowInd = true;
            if (whitespaceAt(v, next))
                f.blockInd = true;
            break;
        case U'-':
            if (whitespaceAt(v, next))
                f.flowInd = f.blockInd = true;
            break;
        default:
            break;
        }
        return;
    }
    switch (ch) {
    case U',':
    case U'?':
    case U'[':
    case U']':
    case U'{':
    case U'}':
        f.flowInd = true;
        break;
    case U':':
        f.flowInd = true;
        if (whitespaceAt(v, next))
            f.blockInd = true;
        break;
    case U'#':
        if (precededWs)
            f.flowInd = f.blockInd = true;
        break;
    default:
        break;
    }
}

// The styles the flags allow.
Analysis analysisOf(const ScalarFlags& f) {
    Analysis a;
    a.multiline = f.lineBreaks;
    a.flowPlain = a.blockPlain = a.single = a.block = true;
    if (f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak)
        a.flowPlain = a.blockPlain = false;
    if (f.trailingSpace)
        a.block = false;
    if (f.breakSpace)
        a.flowPlain = a.blockPlain = a.single = false;
    if (f.spaceBreak || f.tabs || f.special)
        a.flowPlain = a.blockPlain = a.single = false;
    if (f.spaceBreak || f.special)
        a.block = false;
    if (f.lineBreaks)
        a.flowPlain = a.blockPlain = false;
    if (f.flowInd)
        a.flowPlain = false;
    if (f.blockInd)
        a.blockPlain = false;
    return a;
}

Analysis analyzeUtf8(std::string_view v) {
    if (v.empty())
        return Analysis();
    ScalarFlags f;
    auto startsWith3 = [&](char c) { return v.size() >= 3 && v[0] == c && v[1] == c && v[2] == c; };
    if (startsWith3('-') || startsWith3('.'))
        f.blockInd = f.flowInd = true;
    const size_t n = v.size();
    bool precededWs = true, prevSpace = false, prevBreak = false;
    for (size_t i = 0; i < n;) {
        const auto b = static_cast<unsigned char>(v[i]);
        // The common case: a printable ASCII character that is no indicator, space or break.
        if (kQuietByte[b]) {
            prevSpace = prevBreak = false;
            precededWs = false;
            ++i;
            continue;
        }
        size_t len = 0;
        const char32_t ch = cpAt(v, i, &len);
        const bool last = i + len >= n;
        markIndicators(v, ch, i, i + len, precededWs, f);
        if (ch == U'\t')
            f.tabs = true;
        else if (!isPrintable(ch))
            f.special = true;
        if (ch == U' ') {
            if (i == 0)
                f.leadingSpace = true;
            if (last)
                f.trailingSpace = true;
            if (prevBreak)
                f.breakSpace = true;
            prevSpace = true;
            prevBreak = false;
        } else if (isBreak(ch)) {
            f.lineBreaks = true;
            if (i == 0)
                f.leadingBreak = true;
            if (last)
                f.trailingBreak = true;
            if (prevSpace)
                f.spaceBreak = true;
            prevSpace = false;
            prevBreak = true;
        } else {
            prevSpace = prevBreak = false;
        }
        precededWs = isSpaceOrTab(ch) || isBreak(ch);
        i += len;
    }
    return analysisOf(f);
}

// ---- yaml.v3's view of strings -------------------------------------------------------------

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// YYYY-M-D or YYYY-M-D[Tt ]h:mm:ss[.f][ ]*(Z|±h[:mm])?
bool looksLikeTimestamp(std::string_view s) {
    size_t i = 0;
    auto digits = [&](size_t minN, size_t maxN) {
        size_t start = i;
        while (i < s.size() && isDigit(s[i]) && i - start < maxN)
            ++i;
        return i - start >= minN;
    };
    if (!digits(4, 4) || i >= s.size() || s[i++] != '-' || !digits(1, 2) || i >= s.size() || s[i++] != '-' ||
        !digits(1, 2))
        return false;
    if (i == s.size())
        return true;
    if (s[i] == 'T' || s[i] == 't') {
        ++i;
    } else if (s[i] == ' ') {
        while (i < s.size() && s[i] == ' ')
            ++i;
    } else {
        return false;
    }
    if (!digits(1, 2) || i >= s.size() || s[i++] != ':' || !digits(2, 2) || i >= s.size() || s[i++] != ':' ||
        !digits(2, 2))
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    while (i < s.size() && s[i] == ' ')
        ++i;
    if (i == s.size())
        return true;
    if (s[i] == 'Z')
        return i + 1 == s.size();
    if (s[i] != '+' && s[i] != '-')
        return false;
    ++i;
    if (!digits(1, 2))
        return false;
    if (i < s.size() && s[i] == ':') {
        ++i;
        if (!digits(2, 2))
            return false;
    }
    return i == s.size();
}

bool isBase60Float(std::string_view s) {
    // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        ++i;
    if (i >= s.size() || !isDigit(s[i]))
        return false;
    while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
        ++i;
    int groups = 0;
    while (i < s.size() && s[i] == ':') {
        ++i;
        size_t start = i;
        while (i < s.size() && isDigit(s[i]) && i - start < 2)
            ++i;
        const size_t len = i - start;
        if (len == 0 || (len == 2 && s[start] > '5'))
            return false;
        ++groups;
    }
    if (groups == 0)
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
            ++i;
    }
    return i == s.size();
}

bool isOldBool(std::string_view s) {
    static const char* const words[] = {"y", "Y", "yes", "Yes", "YES", "on",  "On",  "ON",
                                        "n", "N", "no",  "No",  "NO",  "off", "Off", "OFF"};
    for (const char* w : words)
        if (s == w)
            return true;
    return false;
}

// Would yaml.v3 read this text, written plain, as something other than a string?
bool resolvesToNonString(std::string_view s) {
    if (s == "<<")
        return true; // merge key
    if (resolvePlainScalar(s) != Resolved::String)
        return true;
    if (!s.empty() && (isDigit(s[0]) || s[0] == '+' || s[0] == '-') && looksLikeTimestamp(s))
        return true;
    return false;
}

enum class Style { Plain, Single, Double, Literal, Folded };

Style requestedStringStyle(std::string_view s) {
    if (resolvesToNonString(s) || isOldBool(s) || isBase60Float(s))
        return Style::Double;
    if (s.find('\n') != std::string_view::npos)
        return Style::Literal;
    return Style::Plain;
}

std::string stripUnderscores(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != '_')
            out.push_back(c);
    return out;
}

// The decimal text Go prints for an integer written in any of YAML's integer syntaxes.
std::string canonicalInt(const std::string& text) {
    bool negative = false;
    std::uint64_t v = 0;
    parseGoInt(text, &negative, &v);
    std::string out = negative ? std::string("-") : std::string();
    out.append(std::to_string(v));
    return out;
}

std::string canonicalFloat(const std::string& text) {
    const std::string s = stripUnderscores(text);
    std::string lower = s;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower.find("nan") != std::string::npos)
        return ".nan";
    if (lower.find("inf") != std::string::npos)
        return lower[0] == '-' ? "-.inf" : ".inf";
    return formatGoFloat(std::strtod(s.c_str(), nullptr));
}

// ---- the emitter ---------------------------------------------------------------------------

class Emitter {
  public:
    explicit Emitter(const GoEncodeOptions& o)
        : m_opt(o), m_best(o.indent >= 2 && o.indent <= 9 ? o.indent : 2) {}

    QByteArray run(const Node& root) {
        m_out.reserve(16384);
        emitNode(root, /*parentIsSeqItem=*/false, /*simpleKey=*/false);
        // document end: finish the last line
        if (!m_indention || m_column > 0)
            putBreak();
        return QByteArray::fromStdString(m_out);
    }

  private:
    // go-yaml v3: inside a sequence item the indent just skips "- "; elsewhere it aligns to a
    // multiple of the chosen indentation.
    int increasedIndent(bool flow, bool parentIsSeqItem) const {
        if (m_indent < 0)
            return flow ? m_best : 0;
        if (parentIsSeqItem)
            return m_indent + 2;
        return m_best * ((m_indent + m_best) / m_best);
    }

    void put(char c) {
        m_out.push_back(c);
        ++m_column;
    }
    void putBreak() {
        m_out.push_back('\n');
        m_column = 0;
        m_whitespace = true;
        m_indention = true;
    }
    void writeRaw(const std::string& s, int width) {
        m_out += s;
        m_column += width;
    }

    void writeIndent() {
        const int indent = std::max(m_indent, 0);
        if (!m_indention || m_column > indent || (m_column == indent && !m_whitespace))
            putBreak();
        while (m_column < indent)
            put(' ');
        m_whitespace = true;
        m_indention = true;
    }

    void writeIndicator(const char* text, bool needWhitespace, bool isWhitespace, bool isIndention) {
        if (needWhitespace && !m_whitespace)
            put(' ');
        const size_t len = std::strlen(text);
        writeRaw(text, static_cast<int>(len));
        m_whitespace = isWhitespace;
        m_indention = m_indention && isIndention;
    }

    void emitNode(const Node& n, bool parentIsSeqItem, bool simpleKey) {
        if (n.isMap()) {
            if (m_flowLevel > 0 || n.entries.empty() || (m_opt.mode == StyleMode::PreserveStyles && n.flow))
                emitFlowMapping(n, parentIsSeqItem);
            else
                emitBlockMapping(n, parentIsSeqItem);
        } else if (n.isSeq()) {
            if (m_flowLevel > 0 || n.items.empty() || (m_opt.mode == StyleMode::PreserveStyles && n.flow))
                emitFlowSequence(n, parentIsSeqItem);
            else
                emitBlockSequence(n, parentIsSeqItem);
        } else {
            emitScalar(n, parentIsSeqItem, simpleKey);
        }
    }

    std::vector<const MapEntry*> ordered(const Node& n) const {
        std::vector<const MapEntry*> order;
        order.reserve(n.entries.size());
        for (const MapEntry& e : n.entries)
            order.push_back(&e);
        if (m_opt.sortKeys)
            std::stable_sort(order.begin(), order.end(), [](const MapEntry* a, const MapEntry* b) {
                return a->key.scalar < b->key.scalar;
            });
        return order;
    }

    void emitBlockMapping(const Node& n, bool parentIsSeqItem) {
        const int saved = m_indent;
        m_indent = increasedIndent(false, parentIsSeqItem);
        for (const MapEntry* e : ordered(n)) {
            writeIndent();
            emitNode(e->key, false, true);
            writeIndicator(":", false, false, false);
            emitNode(e->value, false, false);
        }
        m_indent = saved;
    }

    void emitBlockSequence(const Node& n, bool parentIsSeqItem) {
        const int saved = m_indent;
        m_indent = increasedIndent(false, parentIsSeqItem);
        for (const Node& item : n.items) {
            writeIndent();
            writeIndicator("-", true, false, true);
            emitNode(item, true, false);
        }
        m_indent = saved;
    }

    void emitFlowSequence(const Node& n, bool parentIsSeqItem) {
        writeIndicator("[", true, true, false);
        const int saved = m_indent;
        m_indent = increasedIndent(true, parentIsSeqItem);
        ++m_flowLevel;
        bool first = true;
        for (const Node& item : n.items) {
            if (!first)
                writeIndicator(",", false, false, false);
            first = false;
            emitNode(item, false, false);
        }
        --m_flowLevel;
        m_indent = saved;
        writeIndicator("]", false, false, false);
    }

    void emitFlowMapping(const Node& n, bool parentIsSeqItem) {
        writeIndicator("{", true, true, false);
        const int saved = m_indent;
        m_indent = increasedIndent(true, parentIsSeqItem);
        ++m_flowLevel;
        bool first = true;
        for (const MapEntry* e : ordered(n)) {
            if (!first)
                writeIndicator(",", false, false, false);
            first = false;
            emitNode(e->key, false, true);
            writeIndicator(":", false, false, false);
            emitNode(e->value, false, false);
        }
        --m_flowLevel;
        m_indent = saved;
        writeIndicator("}", false, false, false);
    }

    // Text and requested style of a scalar, as the two modes see it. `text` points into the node
    // or into `owned` (canonical numbers); the node's text is never copied.
    struct ScalarText {
        std::string_view text;
        Style style = Style::Plain;
        std::string owned;
    };

    void scalarText(const Node& n, ScalarText& out) const {
        if (m_opt.mode == StyleMode::GoValues) {
            switch (n.resolve()) {
            case Resolved::Null:
                out.text = "null";
                return;
            case Resolved::Bool:
                out.text = (n.scalar[0] == 't' || n.scalar[0] == 'T') ? "true" : "false";
                return;
            case Resolved::Int:
                out.owned = canonicalInt(n.scalar);
                out.text = out.owned;
                return;
            case Resolved::Float:
                out.owned = canonicalFloat(n.scalar);
                out.text = out.owned;
                return;
            case Resolved::String:
                out.text = n.scalar;
                out.style = requestedStringStyle(n.scalar);
                return;
            }
        }
        if (n.nullNode) {
            out.text = {};
            return;
        }
        out.text = n.scalar;
        switch (n.style) {
        case ScalarStyle::SingleQuoted:
            out.style = Style::Single;
            return;
        case ScalarStyle::DoubleQuoted:
            out.style = Style::Double;
            return;
        case ScalarStyle::Literal:
            out.style = Style::Literal;
            return;
        case ScalarStyle::Folded:
            out.style = Style::Folded;
            return;
        case ScalarStyle::Plain:
            break;
        }
        out.style = n.scalar.find('\n') != std::string::npos ? Style::Literal : Style::Plain;
    }

    void emitScalar(const Node& n, bool parentIsSeqItem, bool simpleKey) {
        ScalarText st;
        scalarText(n, st);
        const std::string_view text = st.text;
        const Utf8Kind kind = utf8Kind(text);
        if (kind != Utf8Kind::Other && !m_opt.referencePath) {
            // Bytes are code points (ASCII), or well-formed UTF-8 that decodes and re-encodes to
            // itself: analyse and write the bytes as they are.
            Style style = st.style;
            const Analysis a = analyzeUtf8(text);
            chooseStyle(a, text.empty(), simpleKey, style);
            if (style == Style::Plain || style == Style::Literal) {
                beginScalar(n);
                const int saved = m_indent;
                m_indent = increasedIndent(true, parentIsSeqItem);
                if (style == Style::Plain)
                    writePlainUtf8(text);
                else
                    writeLiteralUtf8(text);
                m_indent = saved;
                return;
            }
            if (kind == Utf8Kind::Ascii) {
                emitScalarText(n, text, style, parentIsSeqItem);
                return;
            }
            const std::vector<char32_t> decoded = decodeUtf8(std::string(text));
            emitScalarText(n, std::u32string_view(decoded.data(), decoded.size()), style, parentIsSeqItem);
            return;
        }
        // The reference path: every scalar as code points, analysed and written one at a time.
        Style style = st.style;
        if (kind == Utf8Kind::Ascii) {
            const Analysis a = analyze(text);
            chooseStyle(a, text.empty(), simpleKey, style);
            emitScalarText(n, text, style, parentIsSeqItem);
        } else {
            const std::vector<char32_t> decoded = decodeUtf8(std::string(text));
            const std::u32string_view cps(decoded.data(), decoded.size());
            const Analysis a = analyze(cps);
            chooseStyle(a, cps.empty(), simpleKey, style);
            emitScalarText(n, cps, style, parentIsSeqItem);
        }
    }

    // libyaml's choice of the style actually written, from the requested one and the analysis.
    void chooseStyle(const Analysis& a, bool empty, bool simpleKey, Style& style) const {
        if (simpleKey && a.multiline)
            style = Style::Double;
        if (style == Style::Plain) {
            if ((m_flowLevel > 0 && !a.flowPlain) || (m_flowLevel == 0 && !a.blockPlain))
                style = Style::Single;
            if (empty && (m_flowLevel > 0 || simpleKey))
                style = Style::Single;
        }
        if (style == Style::Single && !a.single)
            style = Style::Double;
        if ((style == Style::Literal || style == Style::Folded) && (!a.block || m_flowLevel > 0 || simpleKey))
            style = Style::Double;
    }

    void beginScalar(const Node& n) {
        if (m_opt.mode == StyleMode::PreserveStyles && !n.tag.empty() && n.tag != "!")
            writeIndicator(n.tag.c_str(), true, false, false);
    }

    // Plain style on well-formed UTF-8: the bytes in one piece; the column counts code points.
    void writePlainUtf8(std::string_view v) {
        if (!v.empty() && !m_whitespace)
            put(' ');
        m_out.append(v.data(), v.size());
        m_column += codePoints(v);
        m_whitespace = false;
        m_indention = false;
    }

    static int codePoints(std::string_view v) {
        int count = 0;
        for (char c : v)
            count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
        return count;
    }

    // The break at byte i (\r, \n, U+0085, U+2028, U+2029), as its length in bytes; 0 if none.
    static size_t breakAt(std::string_view v, size_t i) {
        const auto b = static_cast<unsigned char>(v[i]);
        if (b == '\n' || b == '\r')
            return 1;
        if (b == 0xC2 && i + 1 < v.size() && static_cast<unsigned char>(v[i + 1]) == 0x85)
            return 2;
        if (b == 0xE2 && i + 2 < v.size() && static_cast<unsigned char>(v[i + 1]) == 0x80 &&
            (static_cast<unsigned char>(v[i + 2]) == 0xA8 || static_cast<unsigned char>(v[i + 2]) == 0xA9))
            return 3;
        return 0;
    }

    // Literal style on well-formed UTF-8: writeLiteral, a line at a time.
    void writeLiteralUtf8(std::string_view v) {
        writeIndicator("|", true, false, false);
        // Block hints from the first, last and next-to-last code points.
        if (!v.empty()) {
            const auto f = static_cast<unsigned char>(v[0]);
            if (f == ' ' || breakAt(v, 0)) {
                const char hint[2] = {static_cast<char>('0' + m_best), 0};
                writeIndicator(hint, false, false, false);
            }
        }
        const char* chomp = nullptr;
        size_t lastStart = v.empty() ? 0 : lastCpStart(v, v.size());
        if (v.empty() || !breakAt(v, lastStart))
            chomp = "-";
        else if (lastStart == 0 || breakAt(v, lastCpStart(v, lastStart)))
            chomp = "+";
        if (chomp)
            writeIndicator(chomp, false, false, false);
        putBreak();
        bool breaks = true;
        const size_t n = v.size();
        size_t i = 0;
        while (i < n) {
            if (const size_t blen = breakAt(v, i)) {
                if (blen == 1 && v[i] == '\n') {
                    putBreak();
                } else {
                    m_out.append(v.data() + i, blen);
                    m_column = 0;
                }
                m_indention = true;
                breaks = true;
                i += blen;
                continue;
            }
            if (breaks) {
                writeIndent();
                breaks = false;
            }
            // The run of characters up to the next break, in one piece.
            size_t j = i;
            int count = 0;
            while (j < n) {
                const auto b = static_cast<unsigned char>(v[j]);
                if (b >= 0x20 && b < 0x80) { // printable ASCII: never a break
                    ++j;
                    ++count;
                    continue;
                }
                if (breakAt(v, j))
                    break;
                j += leadLength(b);
                ++count;
            }
            m_out.append(v.data() + i, j - i);
            m_column += count;
            m_indention = false;
            i = j;
        }
    }

    // `cps` is the text as ASCII bytes (the common, fast case) or as decoded code points.
    template <typename Seq> void emitScalarText(const Node& n, Seq cps, Style style, bool parentIsSeqItem) {
        beginScalar(n);
        const int saved = m_indent;
        m_indent = increasedIndent(true, parentIsSeqItem);
        switch (style) {
        case Style::Plain:
            writePlain(cps);
            break;
        case Style::Single:
            writeSingle(cps);
            break;
        case Style::Double:
            writeDouble(cps);
            break;
        case Style::Literal:
            writeLiteral(cps);
            break;
        case Style::Folded:
            writeFolded(cps);
            break;
        }
        m_indent = saved;
    }

    void writeChar(char32_t c) {
        if (c < 0x80)
            m_out.push_back(static_cast<char>(c));
        else
            appendUtf8(m_out, c);
        ++m_column;
    }

    void writeBreakChar(char32_t c) {
        if (c == U'\n') {
            putBreak();
            return;
        }
        appendUtf8(m_out, c);
        m_column = 0;
    }

    template <typename Seq> void writePlain(const Seq& v) {
        if (!v.empty() && !m_whitespace)
            put(' ');
        for (auto raw : v)
            writeChar(cp(raw));
        m_whitespace = false;
        m_indention = false;
    }

    template <typename Seq> void writeSingle(const Seq& v) {
        writeIndicator("'", true, false, false);
        bool breaks = false;
        for (auto raw : v) {
            const char32_t c = cp(raw);
            if (isBreak(c)) {
                if (!breaks && c == U'\n')
                    putBreak();
                writeBreakChar(c);
                m_indention = true;
                breaks = true;
            } else {
                if (breaks)
                    writeIndent();
                if (c == U'\'')
                    put('\'');
                writeChar(c);
                m_indention = false;
                breaks = false;
            }
        }
        writeIndicator("'", false, false, false);
    }

    template <typename Seq> void writeDouble(const Seq& v) {
        writeIndicator("\"", true, false, false);
        for (auto raw : v) {
            const char32_t c = cp(raw);
            if (!isPrintable(c) || c == 0xFEFF || isBreak(c) || c == U'"' || c == U'\\') {
                put('\\');
                switch (c) {
                case 0x00:
                    put('0');
                    break;
                case 0x07:
                    put('a');
                    break;
                case 0x08:
                    put('b');
                    break;
                case 0x09:
                    put('t');
                    break;
                case 0x0A:
                    put('n');
                    break;
                case 0x0B:
                    put('v');
                    break;
                case 0x0C:
                    put('f');
                    break;
                case 0x0D:
                    put('r');
                    break;
                case 0x1B:
                    put('e');
                    break;
                case 0x22:
                    put('"');
                    break;
                case 0x5C:
                    put('\\');
                    break;
                case 0x85:
                    put('N');
                    break;
                case 0xA0:
                    put('_');
                    break;
                case 0x2028:
                    put('L');
                    break;
                case 0x2029:
                    put('P');
                    break;
                default: {
                    char buf[16];
                    if (c <= 0xFF)
                        std::snprintf(buf, sizeof buf, "x%02X", static_cast<unsigned>(c));
                    else if (c <= 0xFFFF)
                        std::snprintf(buf, sizeof buf, "u%04X", static_cast<unsigned>(c));
                    else
                        std::snprintf(buf, sizeof buf, "U%08X", static_cast<unsigned>(c));
                    writeRaw(buf, static_cast<int>(std::strlen(buf)));
                }
                }
            } else {
                writeChar(c);
            }
        }
        writeIndicator("\"", false, false, false);
    }

    template <typename Seq> void writeBlockHints(const Seq& v) {
        if (!v.empty() && (cp(v.front()) == U' ' || isBreak(cp(v.front())))) {
            const char hint[2] = {static_cast<char>('0' + m_best), 0};
            writeIndicator(hint, false, false, false);
        }
        const char* chomp = nullptr;
        if (v.empty() || !isBreak(cp(v.back())))
            chomp = "-";
        else if (v.size() == 1 || isBreak(cp(v[v.size() - 2])))
            chomp = "+";
        if (chomp)
            writeIndicator(chomp, false, false, false);
    }

    template <typename Seq> void writeLiteral(const Seq& v) {
        writeIndicator("|", true, false, false);
        writeBlockHints(v);
        putBreak();
        bool breaks = true;
        for (auto raw : v) {
            const char32_t c = cp(raw);
            if (isBreak(c)) {
                writeBreakChar(c);
                m_indention = true;
                breaks = true;
            } else {
                if (breaks) {
                    writeIndent();
                    breaks = false;
                }
                writeChar(c);
                m_indention = false;
            }
        }
    }

    template <typename Seq> void writeFolded(const Seq& v) {
        writeIndicator(">", true, false, false);
        writeBlockHints(v);
        putBreak();
        bool breaks = true, leadingSpaces = true;
        for (size_t i = 0; i < v.size(); ++i) {
            const char32_t c = cp(v[i]);
            if (isBreak(c)) {
                if (!breaks && !leadingSpaces && c == U'\n') {
                    size_t k = i;
                    while (k < v.size() && isBreak(cp(v[k])))
                        ++k;
                    if (k < v.size() && !(isSpaceOrTab(cp(v[k])) || isBreak(cp(v[k]))))
                        putBreak();
                }
                writeBreakChar(c);
                m_indention = true;
                breaks = true;
            } else {
                if (breaks) {
                    writeIndent();
                    leadingSpaces = isSpaceOrTab(c);
                }
                writeChar(c);
                m_indention = false;
                breaks = false;
            }
        }
    }

    GoEncodeOptions m_opt;
    int m_best;
    std::string m_out;
    int m_indent = -1;
    int m_column = 0;
    int m_flowLevel = 0;
    bool m_whitespace = true;
    bool m_indention = true;
};

} // namespace

std::string formatGoFloat(double f) {
    if (std::isnan(f))
        return ".nan";
    if (std::isinf(f))
        return f > 0 ? ".inf" : "-.inf";
    // Shortest round-trip digits, then Go's %g layout: for the shortest representation
    // FormatFloat decides with precision 6, so exponent form when exp < -4 || exp >= 6
    // (1e+06, 1.5e-05), plain decimals otherwise.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    const size_t e = sci.find('e');
    std::string mant = sci.substr(0, e);
    const int exp = std::atoi(sci.c_str() + e + 1);
    bool neg = false;
    if (!mant.empty() && mant[0] == '-') {
        neg = true;
        mant.erase(0, 1);
    }
    std::string digits;
    for (char c : mant)
        if (c != '.')
            digits.push_back(c);
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    std::string out;
    if (exp < -4 || exp >= 6) {
        out = digits.substr(0, 1);
        if (digits.size() > 1) {
            out.push_back('.');
            out.append(digits, 1, std::string::npos);
        }
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        out += eb;
    } else if (exp < 0) {
        out = "0.";
        out.append(static_cast<size_t>(-exp - 1), '0');
        out.append(digits);
    } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
        out = digits;
        out.append(static_cast<size_t>(exp) + 1 - digits.size(), '0');
    } else {
        out = digits.substr(0, static_cast<size_t>(exp) + 1);
        out.push_back('.');
        out.append(digits, static_cast<size_t>(exp) + 1, std::string::npos);
    }
    if (neg)
        out.insert(out.begin(), '-');
    return out;
}

bool goStringIsPlain(const std::string& value) {
    if (requestedStringStyle(value) != Style::Plain)
        return false;
    return analyze(decodeUtf8(value)).blockPlain && !value.empty();
}

QByteArray goEncode(const Node& root, const GoEncodeOptions& options) {
    Emitter e(options);
    return e.run(root);
}

} // namespace pb::yaml
