// A YAML encoder that writes the bytes gopkg.in/yaml.v3 writes, so Proofbench can reproduce
// AICR's recipe digests: serializer.MarshalYAMLDeterministic (Go values, keys sorted, indent 2)
// and evidence CanonicalizeRecipeYAML (a parsed node tree, keys sorted, styles kept, indent 4).
// The rules (scalar style choice, libyaml's analysis, go-yaml's indentation) are documented in
// docs/DETERMINISTIC_YAML.md.
#pragma once

#include "yaml/Yaml.h"

#include <QByteArray>

namespace pb::yaml {

enum class StyleMode {
    // Encode Go values: a scalar's type comes from resolve() (strings are scalars resolving to
    // string); style is chosen from type and content as yaml.v3's Marshal does.
    GoValues,
    // Encode a parsed yaml.Node tree: the parsed scalar/flow styles are kept.
    PreserveStyles,
};

struct GoEncodeOptions {
    int indent = 2;
    bool sortKeys = true;
    StyleMode mode = StyleMode::GoValues;
    // Write every scalar through the code-point path (decode, analyse and write one character at a
    // time), which the byte-level fast path must match exactly. For tests.
    bool referencePath = false;
};

QByteArray goEncode(const Node& root, const GoEncodeOptions& options = {});

// Go's strconv.FormatFloat(f, 'g', -1, 64) with yaml.v3's names for infinities and NaN.
std::string formatGoFloat(double value);
// True when yaml.v3 would write this Go string plain (not quoted, not a block).
bool goStringIsPlain(const std::string& value);

} // namespace pb::yaml
