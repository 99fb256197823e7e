#include "yaml/Yaml.h"

#include <yaml.h>

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>

namespace pb::yaml {

// ---------------------------------------------------------------------------------------------
// Node

Node Node::null() {
    Node n;
    n.nullNode = true;
    return n;
}

Node Node::str(std::string value, ScalarStyle style) {
    Node n;
    n.scalar = std::move(value);
    n.style = style;
    if (style == ScalarStyle::Plain && n.resolve() != Resolved::String)
        n.style = ScalarStyle::DoubleQuoted;
    return n;
}

Node Node::plain(std::string text) {
    Node n;
    n.scalar = std::move(text);
    return n;
}

Node Node::map() {
    Node n;
    n.type = NodeType::Mapping;
    return n;
}

Node Node::seq() {
    Node n;
    n.type = NodeType::Sequence;
    return n;
}

bool Node::isNull() const {
    return type == NodeType::Scalar && (nullNode || resolve() == Resolved::Null);
}

const Node* Node::get(std::string_view key) const {
    if (type != NodeType::Mapping)
        return nullptr;
    for (const MapEntry& e : entries)
        if (e.key.type == NodeType::Scalar && e.key.scalar == key)
            return &e.value;
    return nullptr;
}

Node* Node::get(std::string_view key) {
    return const_cast<Node*>(static_cast<const Node*>(this)->get(key));
}

void Node::set(const std::string& key, Node value) {
    if (Node* existing = get(key)) {
        *existing = std::move(value);
        return;
    }
    entries.push_back(MapEntry{Node::str(key), std::move(value)});
}

bool Node::remove(std::string_view key) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const MapEntry& e) {
        return e.key.type == NodeType::Scalar && e.key.scalar == key;
    });
    if (it == entries.end())
        return false;
    entries.erase(it);
    return true;
}

size_t Node::size() const {
    switch (type) {
    case NodeType::Mapping:
        return entries.size();
    case NodeType::Sequence:
        return items.size();
    case NodeType::Scalar:
        break;
    }
    return 0;
}

bool Node::operator==(const Node& o) const {
    if (type != o.type)
        return false;
    switch (type) {
    case NodeType::Scalar:
        return scalar == o.scalar && resolve() == o.resolve() && isNull() == o.isNull();
    case NodeType::Sequence:
        return items == o.items;
    case NodeType::Mapping:
        if (entries.size() != o.entries.size())
            return false;
        for (size_t i = 0; i < entries.size(); ++i)
            if (!(entries[i].key == o.entries[i].key) || !(entries[i].value == o.entries[i].value))
                return false;
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Resolution of plain scalars (go-yaml v3 rules: YAML 1.2 core, plus '_' in numbers).

namespace {

bool isFloatSyntax(std::string_view s) {
    // ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        ++i;
    auto digits = [&]() {
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        return i - start;
    };
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (digits() == 0)
            return false;
    } else {
        if (digits() == 0)
            return false;
        if (i < s.size() && s[i] == '.') {
            ++i;
            digits();
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '-' || s[i] == '+'))
            ++i;
        if (digits() == 0)
            return false;
    }
    return i == s.size();
}

Resolved resolveTag(std::string_view tag) {
    static const std::map<std::string_view, Resolved> tags = {
        {"!!str", Resolved::String},  {"tag:yaml.org,2002:str", Resolved::String},
        {"!!int", Resolved::Int},     {"tag:yaml.org,2002:int", Resolved::Int},
        {"!!float", Resolved::Float}, {"tag:yaml.org,2002:float", Resolved::Float},
        {"!!bool", Resolved::Bool},   {"tag:yaml.org,2002:bool", Resolved::Bool},
        {"!!null", Resolved::Null},   {"tag:yaml.org,2002:null", Resolved::Null},
    };
    auto it = tags.find(tag);
    return it == tags.end() ? Resolved::String : it->second;
}

} // namespace

Resolved Node::resolve() const {
    if (type != NodeType::Scalar)
        return Resolved::String;
    if (nullNode)
        return Resolved::Null;
    if (!tag.empty() && tag != "!")
        return resolveTag(tag);
    if (style != ScalarStyle::Plain)
        return Resolved::String;
    return resolvePlainScalar(scalar);
}

Resolved resolvePlainScalar(std::string_view s) {
    if (s.empty())
        return Resolved::Null;
    if (s.size() <= 5) { // the longest of the words below
        if (s == "~" || s == "null" || s == "Null" || s == "NULL")
            return Resolved::Null;
        if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE")
            return Resolved::Bool;
        static const char* const specials[] = {".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf", "+.INF",
                                               "-.inf", "-.Inf", "-.INF", ".nan",  ".NaN",  ".NAN"};
        for (const char* sp : specials)
            if (s == sp)
                return Resolved::Float;
    }
    const char c = s.front();
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.'))
        return Resolved::String;
    bool negative = false;
    std::uint64_t magnitude = 0;
    if (parseGoInt(s, &negative, &magnitude))
        return Resolved::Int;
    std::string plain;
    plain.reserve(s.size());
    for (char ch : s)
        if (ch != '_')
            plain.push_back(ch);
    if (isFloatSyntax(plain))
        return Resolved::Float;
    return Resolved::String;
}

bool parseGoInt(std::string_view text, bool* negative, std::uint64_t* magnitude) {
    std::string s;
    s.reserve(text.size());
    for (char ch : text)
        if (ch != '_')
            s.push_back(ch);
    size_t i = 0;
    bool neg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        ++i;
    }
    if (i >= s.size())
        return false;
    unsigned base = 10;
    if (s[i] == '0' && i + 1 < s.size()) {
        const char p = s[i + 1];
        if (p == 'x' || p == 'X') {
            base = 16;
            i += 2;
        } else if (p == 'o' || p == 'O') {
            base = 8;
            i += 2;
        } else if (p == 'b' || p == 'B') {
            base = 2;
            i += 2;
        } else {
            base = 8;
            i += 1;
        }
        if (i >= s.size())
            return false;
    }
    std::uint64_t value = 0;
    for (; i < s.size(); ++i) {
        const char ch = s[i];
        unsigned d;
        if (ch >= '0' && ch <= '9')
            d = static_cast<unsigned>(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            d = static_cast<unsigned>(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            d = static_cast<unsigned>(ch - 'A' + 10);
        else
            return false;
        if (d >= base)
            return false;
        if (value > (UINT64_MAX - d) / base)
            return false; // does not fit uint64
        value = value * base + d;
    }
    if (neg && value > static_cast<std::uint64_t>(INT64_MAX) + 1)
        return false; // below int64's range
    *negative = neg && value != 0;
    *magnitude = value;
    return true;
}

std::string_view resolvedName(Resolved r) {
    switch (r) {
    case Resolved::Null:
        return "null";
    case Resolved::Bool:
        return "bool";
    case Resolved::Int:
        return "int";
    case Resolved::Float:
        return "float";
    case Resolved::String:
        return "string";
    }
    return "string";
}

// ---------------------------------------------------------------------------------------------
// Parsing

namespace {

struct ParserDeleter {
    void operator()(yaml_parser_t* p) const {
        yaml_parser_delete(p);
        delete p;
    }
};

class Builder {
  public:
    Builder(const QByteArray& bytes, const QString& file, const ParseLimits& limits)
        : m_file(file), m_limits(limits), m_parser(new yaml_parser_t) {
        yaml_parser_initialize(m_parser.get());
        yaml_parser_set_input_string(m_parser.get(),
                                     reinterpret_cast<const unsigned char*>(bytes.constData()),
                                     static_cast<size_t>(bytes.size()));
    }

    Result<Node> run() {
        yaml_event_t ev;
        if (!next(ev))
            return m_error;
        if (ev.type != YAML_STREAM_START_EVENT)
            return fail(QStringLiteral("expected the start of a YAML stream"), 1);
        yaml_event_delete(&ev);
        if (!next(ev))
            return m_error;
        if (ev.type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            return Node::null();
        }
        if (ev.type != YAML_DOCUMENT_START_EVENT) {
            yaml_event_delete(&ev);
            return fail(QStringLiteral("expected a YAML document"), 1);
        }
        yaml_event_delete(&ev);
        if (!next(ev))
            return m_error;
        Node root;
        if (!build(ev, root, 0))
            return m_error;
        if (!next(ev))
            return m_error;
        if (ev.type != YAML_DOCUMENT_END_EVENT) {
            yaml_event_delete(&ev);
            return fail(QStringLiteral("expected the end of the document"), 0);
        }
        yaml_event_delete(&ev);
        if (!next(ev))
            return m_error;
        const bool more = ev.type == YAML_DOCUMENT_START_EVENT;
        const int line = static_cast<int>(ev.start_mark.line) + 1;
        yaml_event_delete(&ev);
        if (more)
            return fail(QStringLiteral("more than one YAML document in the file; expected exactly one"),
                        line);
        return root;
    }

  private:
    bool next(yaml_event_t& ev) {
        if (!yaml_parser_parse(m_parser.get(), &ev)) {
            const yaml_parser_t* p = m_parser.get();
            const size_t line = p->problem_mark.line ? p->problem_mark.line : p->context_mark.line;
            QString reason = QString::fromUtf8(p->problem ? p->problem : "malformed YAML");
            if (p->context)
                reason = QString::fromUtf8(p->context) + QLatin1Char(' ') + reason;
            m_error =
                makeError(QStringLiteral("malformed YAML: ") + reason, m_file, static_cast<int>(line) + 1);
            return false;
        }
        return true;
    }

    Error fail(const QString& message, int line) {
        m_error = makeError(message, m_file, line);
        return m_error;
    }

    bool countNode(int line) {
        if (++m_nodes > m_limits.maxNodes) {
            fail(QStringLiteral("document expands to more than %1 nodes (alias expansion limit)")
                     .arg(m_limits.maxNodes),
                 line);
            return false;
        }
        return true;
    }

    static std::string cstr(const unsigned char* s) {
        return s ? reinterpret_cast<const char*>(s) : std::string();
    }

    // A subtree's nodes and scalar bytes, in one walk: what each alias of it adds.
    static void measure(const Node& n, std::int64_t& nodes, std::int64_t& bytes) {
        ++nodes;
        bytes += static_cast<std::int64_t>(n.scalar.size());
        for (const Node& i : n.items)
            measure(i, nodes, bytes);
        for (const MapEntry& e : n.entries) {
            measure(e.key, nodes, bytes);
            measure(e.value, nodes, bytes);
        }
    }

    // Consumes `ev` (deletes it) and the events of its children.
    static ScalarStyle scalarStyle(yaml_scalar_style_t style) {
        switch (style) {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE:
            return ScalarStyle::SingleQuoted;
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
            return ScalarStyle::DoubleQuoted;
        case YAML_LITERAL_SCALAR_STYLE:
            return ScalarStyle::Literal;
        case YAML_FOLDED_SCALAR_STYLE:
            return ScalarStyle::Folded;
        default:
            return ScalarStyle::Plain;
        }
    }

    // An alias: a copy of the anchored node, counted whole against the node and expanded-text limits
    // before it is copied.
    bool buildAlias(yaml_event_t& ev, Node& out, int line) {
        const std::string name = cstr(ev.data.alias.anchor);
        yaml_event_delete(&ev);
        auto it = m_anchors.find(name);
        if (it == m_anchors.end()) {
            fail(QStringLiteral("unknown alias '*%1'").arg(QString::fromStdString(name)), line);
            return false;
        }
        const Anchored& a = it->second;
        m_nodes += a.nodes;
        if (m_nodes > m_limits.maxNodes) {
            fail(QStringLiteral("document expands to more than %1 nodes (alias expansion limit)")
                     .arg(m_limits.maxNodes),
                 line);
            return false;
        }
        if (!countBytes(a.bytes, line, QString::fromStdString(name)))
            return false;
        out = a.node;
        return true;
    }

    // Adds `bytes` of scalar text to the document's expanded size; false past the limit.
    bool countBytes(std::int64_t bytes, int line, const QString& alias = {}) {
        m_bytes += bytes;
        if (m_bytes <= m_limits.maxExpandedBytes)
            return true;
        const QString limit = QStringLiteral("%1 MiB").arg(m_limits.maxExpandedBytes >> 20);
        fail(alias.isEmpty()
                 ? QStringLiteral("document expands to more than %1 of text (alias expansion limit)")
                       .arg(limit)
                 : QStringLiteral("alias '*%1' expands the document to more than %2 of text (alias expansion "
                                  "limit)")
                       .arg(alias, limit),
             line);
        return false;
    }

    bool buildScalar(yaml_event_t& ev, Node& out, int line, std::string& anchor) {
        if (!countNode(line)) {
            yaml_event_delete(&ev);
            return false;
        }
        if (!countBytes(static_cast<std::int64_t>(ev.data.scalar.length), line)) {
            yaml_event_delete(&ev);
            return false;
        }
        out.type = NodeType::Scalar;
        out.line = line;
        out.scalar.assign(reinterpret_cast<const char*>(ev.data.scalar.value), ev.data.scalar.length);
        out.tag = cstr(ev.data.scalar.tag);
        if (out.tag.rfind("tag:yaml.org,2002:", 0) == 0)
            out.tag = "!!" + out.tag.substr(18);
        out.style = scalarStyle(ev.data.scalar.style);
        // An empty plain scalar is what libyaml reports for "key:" with no value.
        out.nullNode = out.style == ScalarStyle::Plain && out.scalar.empty() && out.tag.empty();
        anchor = cstr(ev.data.scalar.anchor);
        yaml_event_delete(&ev);
        return true;
    }

    bool buildSequence(yaml_event_t& ev, Node& out, int line, int depth, std::string& anchor) {
        out.type = NodeType::Sequence;
        out.line = line;
        out.flow = ev.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
        out.tag = cstr(ev.data.sequence_start.tag);
        anchor = cstr(ev.data.sequence_start.anchor);
        yaml_event_delete(&ev);
        if (!countNode(line))
            return false;
        for (;;) {
            yaml_event_t child;
            if (!next(child))
                return false;
            if (child.type == YAML_SEQUENCE_END_EVENT) {
                yaml_event_delete(&child);
                return true;
            }
            out.items.emplace_back();
            if (!build(child, out.items.back(), depth + 1))
                return false;
        }
    }

    // A mapping, its keys unique among the scalar ones.
    bool buildMapping(yaml_event_t& ev, Node& out, int line, int depth, std::string& anchor) {
        out.type = NodeType::Mapping;
        out.line = line;
        out.flow = ev.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
        out.tag = cstr(ev.data.mapping_start.tag);
        anchor = cstr(ev.data.mapping_start.anchor);
        yaml_event_delete(&ev);
        if (!countNode(line))
            return false;
        for (;;) {
            yaml_event_t keyEv;
            if (!next(keyEv))
                return false;
            if (keyEv.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&keyEv);
                return true;
            }
            MapEntry entry;
            const int keyLine = static_cast<int>(keyEv.start_mark.line) + 1;
            if (!build(keyEv, entry.key, depth + 1))
                return false;
            yaml_event_t valEv;
            if (!next(valEv))
                return false;
            if (!build(valEv, entry.value, depth + 1))
                return false;
            if (entry.key.isScalar()) {
                for (const MapEntry& e : out.entries)
                    if (e.key.isScalar() && e.key.scalar == entry.key.scalar) {
                        fail(QStringLiteral("mapping key '%1' is defined twice")
                                 .arg(QString::fromStdString(entry.key.scalar)),
                             keyLine);
                        return false;
                    }
            }
            out.entries.push_back(std::move(entry));
        }
    }

    bool build(yaml_event_t& ev, Node& out, int depth) {
        const int line = static_cast<int>(ev.start_mark.line) + 1;
        if (depth > m_limits.maxDepth) {
            yaml_event_delete(&ev);
            fail(QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth), line);
            return false;
        }
        std::string anchor;
        bool ok = false;
        switch (ev.type) {
        case YAML_ALIAS_EVENT:
            return buildAlias(ev, out, line);
        case YAML_SCALAR_EVENT:
            ok = buildScalar(ev, out, line, anchor);
            break;
        case YAML_SEQUENCE_START_EVENT:
            ok = buildSequence(ev, out, line, depth, anchor);
            break;
        case YAML_MAPPING_START_EVENT:
            ok = buildMapping(ev, out, line, depth, anchor);
            break;
        default:
            yaml_event_delete(&ev);
            fail(QStringLiteral("unexpected YAML event"), line);
            return false;
        }
        if (!ok)
            return false;
        if (!anchor.empty()) {
            Anchored& a = m_anchors[anchor];
            a = Anchored{out, 0, 0};
            measure(out, a.nodes, a.bytes);
        }
        return true;
    }

    QString m_file;
    ParseLimits m_limits;
    std::unique_ptr<yaml_parser_t, ParserDeleter> m_parser;
    struct Anchored {
        Node node;
        std::int64_t nodes = 0; // its nodes and scalar bytes, counted once: each alias adds them
        std::int64_t bytes = 0;
    };
    std::map<std::string, Anchored> m_anchors;
    std::int64_t m_nodes = 0;
    std::int64_t m_bytes = 0; // scalar text as expanded so far
    Error m_error;
};

} // namespace

Result<Node> parse(const QByteArray& bytes, const QString& fileName, const ParseLimits& limits) {
    if (bytes.size() > limits.maxBytes)
        return makeError(QStringLiteral("file is larger than the %1 MiB limit").arg(limits.maxBytes >> 20),
                         fileName);
    Builder b(bytes, fileName, limits);
    return b.run();
}

// ---------------------------------------------------------------------------------------------
// JSON

QJsonValue toJson(const Node& node) {
    switch (node.type) {
    case NodeType::Mapping: {
        QJsonObject o;
        for (const MapEntry& e : node.entries)
            o.insert(QString::fromStdString(e.key.scalar), toJson(e.value));
        return o;
    }
    case NodeType::Sequence: {
        QJsonArray a;
        for (const Node& i : node.items)
            a.append(toJson(i));
        return a;
    }
    case NodeType::Scalar:
        break;
    }
    switch (node.resolve()) {
    case Resolved::Null:
        return QJsonValue::Null;
    case Resolved::Bool:
        return node.scalar[0] == 't' || node.scalar[0] == 'T';
    case Resolved::Int: {
        bool negative = false;
        std::uint64_t v = 0;
        parseGoInt(node.scalar, &negative, &v);
        const double d = static_cast<double>(v);
        if (d <= 9007199254740992.0) // exactly representable in a JSON number
            return negative ? -static_cast<qint64>(v) : static_cast<qint64>(v);
        return negative ? -d : d;
    }
    case Resolved::Float: {
        const std::string& s = node.scalar;
        if (s.find("inf") != std::string::npos || s.find("Inf") != std::string::npos ||
            s.find("INF") != std::string::npos || s.find("nan") != std::string::npos ||
            s.find("NaN") != std::string::npos || s.find("NAN") != std::string::npos)
            return QString::fromStdString(s); // JSON has no infinities
        std::string plain;
        for (char c : s)
            if (c != '_')
                plain.push_back(c);
        return std::strtod(plain.c_str(), nullptr);
    }
    case Resolved::String:
        break;
    }
    return node.text();
}

Node fromJson(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Object: {
        Node m = Node::map();
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            m.entries.push_back(MapEntry{Node::str(it.key().toStdString()), fromJson(it.value())});
        return m;
    }
    case QJsonValue::Array: {
        Node s = Node::seq();
        for (const QJsonValue& v : value.toArray())
            s.items.push_back(fromJson(v));
        return s;
    }
    case QJsonValue::Bool:
        return Node::plain(value.toBool() ? "true" : "false");
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (d == static_cast<double>(static_cast<qint64>(d)))
            return Node::plain(std::to_string(static_cast<qint64>(d)));
        return Node::plain(QString::number(d, 'g', 17).toStdString());
    }
    case QJsonValue::String:
        return Node::str(value.toString().toStdString());
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return Node::null();
}

// ---------------------------------------------------------------------------------------------
// Emitting

namespace {

int writeToString(void* data, unsigned char* buffer, size_t size) {
    static_cast<QByteArray*>(data)->append(reinterpret_cast<const char*>(buffer),
                                           static_cast<qsizetype>(size));
    return 1;
}

bool emitNode(yaml_emitter_t* em, const Node& node, const EmitOptions& opt) {
    yaml_event_t ev;
    switch (node.type) {
    case NodeType::Scalar: {
        yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
        std::string text = node.scalar;
        if (node.nullNode) {
            text = "null";
        } else {
            switch (node.style) {
            case ScalarStyle::Plain:
                style = YAML_PLAIN_SCALAR_STYLE;
                break;
            case ScalarStyle::SingleQuoted:
                style = YAML_SINGLE_QUOTED_SCALAR_STYLE;
                break;
            case ScalarStyle::DoubleQuoted:
                style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
                break;
            case ScalarStyle::Literal:
                style = YAML_LITERAL_SCALAR_STYLE;
                break;
            case ScalarStyle::Folded:
                style = YAML_FOLDED_SCALAR_STYLE;
                break;
            }
        }
        yaml_scalar_event_initialize(&ev, nullptr, nullptr,
                                     reinterpret_cast<yaml_char_t*>(const_cast<char*>(text.c_str())),
                                     static_cast<int>(text.size()), 1, 1, style);
        return yaml_emitter_emit(em, &ev) != 0;
    }
    case NodeType::Sequence:
        yaml_sequence_start_event_initialize(&ev, nullptr, nullptr, 1, YAML_BLOCK_SEQUENCE_STYLE);
        if (!yaml_emitter_emit(em, &ev))
            return false;
        for (const Node& i : node.items)
            if (!emitNode(em, i, opt))
                return false;
        yaml_sequence_end_event_initialize(&ev);
        return yaml_emitter_emit(em, &ev) != 0;
    case NodeType::Mapping: {
        yaml_mapping_start_event_initialize(&ev, nullptr, nullptr, 1, YAML_BLOCK_MAPPING_STYLE);
        if (!yaml_emitter_emit(em, &ev))
            return false;
        std::vector<const MapEntry*> order;
        order.reserve(node.entries.size());
        for (const MapEntry& e : node.entries)
            order.push_back(&e);
        if (opt.sortKeys)
            std::stable_sort(order.begin(), order.end(), [](const MapEntry* a, const MapEntry* b) {
                return a->key.scalar < b->key.scalar;
            });
        for (const MapEntry* e : order) {
            if (!emitNode(em, e->key, opt) || !emitNode(em, e->value, opt))
                return false;
        }
        yaml_mapping_end_event_initialize(&ev);
        return yaml_emitter_emit(em, &ev) != 0;
    }
    }
    return false;
}

} // namespace

QByteArray serialize(const Node& node, const EmitOptions& options) {
    QByteArray out;
    yaml_emitter_t em;
    yaml_emitter_initialize(&em);
    yaml_emitter_set_output(&em, &writeToString, &out);
    yaml_emitter_set_indent(&em, options.indent);
    yaml_emitter_set_width(&em, -1);
    yaml_emitter_set_unicode(&em, 1);
    yaml_event_t ev;
    bool ok = true;
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    ok = ok && yaml_emitter_emit(&em, &ev);
    yaml_document_start_event_initialize(&ev, nullptr, nullptr, nullptr, 1);
    ok = ok && yaml_emitter_emit(&em, &ev);
    ok = ok && emitNode(&em, node, options);
    yaml_document_end_event_initialize(&ev, 1);
    ok = ok && yaml_emitter_emit(&em, &ev);
    yaml_stream_end_event_initialize(&ev);
    ok = ok && yaml_emitter_emit(&em, &ev);
    yaml_emitter_flush(&em);
    yaml_emitter_delete(&em);
    return ok ? out : QByteArray();
}

} // namespace pb::yaml
