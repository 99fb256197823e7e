// A small YAML document model built on libyaml's event parser. Unlike yaml-cpp it keeps what a
// byte-exact re-encoder needs: scalar styles, explicit tags, flow/block style, key order and the
// line of every node (for error messages that name file, line and field).
#pragma once

#include "core/Result.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pb::yaml {

enum class NodeType { Scalar, Sequence, Mapping };
enum class ScalarStyle { Plain, SingleQuoted, DoubleQuoted, Literal, Folded };
// What a scalar means under the YAML 1.2 core schema as go-yaml v3 resolves plain scalars.
enum class Resolved { Null, Bool, Int, Float, String };

struct MapEntry;

class Node {
  public:
    NodeType type = NodeType::Scalar;
    std::string tag;    // explicit tag as written ("!!str", "tag:yaml.org,2002:int"); empty if none
    std::string scalar; // scalar text (UTF-8), for Scalar nodes
    ScalarStyle style = ScalarStyle::Plain;
    bool flow = false;             // sequence/mapping written in flow style
    bool nullNode = false;         // true for an absent/empty value (document or "key:" with nothing)
    int line = 0;                  // 1-based line of the node's start, 0 for nodes built in code
    std::vector<Node> items;       // Sequence
    std::vector<MapEntry> entries; // Mapping, in document order

    static Node null();
    // A string scalar: a plain string that would read back as another type (e.g. "24.04", "true")
    // is given double quotes, as go-yaml does.
    static Node str(std::string value, ScalarStyle style = ScalarStyle::Plain);
    // A plain scalar taken as written (numbers, booleans).
    static Node plain(std::string text);
    static Node map();
    static Node seq();

    bool isScalar() const { return type == NodeType::Scalar; }
    bool isMap() const { return type == NodeType::Mapping; }
    bool isSeq() const { return type == NodeType::Sequence; }
    bool isNull() const; // null node, or a plain scalar resolving to null
    Resolved resolve() const;

    QString text() const { return QString::fromStdString(scalar); }

    // Mapping access by scalar key. Return nullptr when absent or not a mapping.
    const Node* get(std::string_view key) const;
    Node* get(std::string_view key);
    void set(const std::string& key, Node value); // replace the value, or append a new entry
    bool remove(std::string_view key);
    size_t size() const; // entries for maps, items for sequences, 0 for scalars

    bool operator==(const Node& other) const; // structural, ignoring line numbers
};

struct MapEntry {
    Node key;
    Node value;
};

struct ParseLimits {
    int maxDepth = 256;
    std::int64_t maxNodes = 2'000'000; // bounds alias expansion ("billion laughs")
    std::int64_t maxBytes = 64ll * 1024 * 1024;
    // The scalar text of the document once every alias is expanded: a few nodes of long anchored
    // strings repeated through aliases stay under maxNodes yet would expand to gigabytes. Checked
    // before an alias is copied, so memory stays bounded by it.
    std::int64_t maxExpandedBytes = 128ll * 1024 * 1024;
};

// Parse exactly one document (an empty stream gives a null node). Errors name `fileName`,
// the line and libyaml's reason.
Result<Node> parse(const QByteArray& bytes, const QString& fileName, const ParseLimits& limits = {});

// Typed conversion following go-yaml v3's resolution of plain scalars; quoted scalars are strings.
QJsonValue toJson(const Node& node);
Node fromJson(const QJsonValue& value);

struct EmitOptions {
    int indent = 2;
    bool sortKeys = false;
};
// Block-style YAML through libyaml's emitter (display and export; not yet AICR's byte rules).
QByteArray serialize(const Node& node, const EmitOptions& options = {});

// What a plain, untagged scalar with this text resolves to (Node::resolve() of such a node).
Resolved resolvePlainScalar(std::string_view text);

// Helpers for readers of typed documents.
std::string_view resolvedName(Resolved r);

// Go's strconv.ParseInt/ParseUint with base 0 on a YAML plain scalar ('_' removed first, as
// yaml.v3 does): optional sign, 0x/0o/0b or leading-0 octal. False when it is not an integer or
// does not fit 64 bits.
bool parseGoInt(std::string_view text, bool* negative, std::uint64_t* magnitude);

} // namespace pb::yaml
