#pragma once
// A YAML document as a small read-only tree, built from libyaml's event
// stream: what the outcome-config reader and the workflow doctor need (node kinds, scalars,
// positions, aliases shared, not copied) at libyaml's speed. yaml-cpp took 125 ms to load
// torch-spyre's 1.5 MB model_ops configs; this takes a tenth of that. Scalars are read as PyYAML's
// safe_load reads them (yaml.safe_load is what torch-spyre's framework calls): a plain empty, ~ or
// null is null.
#include "relayhud/util/result.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace relayhud::yaml {

struct YamlLimits {
    std::size_t maxAliases = 16; // configs and workflows have no use for aliases; bombs use many
    // Sequences and maps inside each other. Configs and workflows nest under
    // ten; libyaml's scanner does work in proportion to the depth for every
    // token, so `[[[...` a million deep ran past 120 s before this stopped it.
    std::size_t maxDepth = 256;
};

class YamlNode;

// A node or nothing (a key that is absent), as cheap to pass as a pointer.
class YNode {
public:
    YNode() = default;
    explicit YNode(const YamlNode* node) : m_node(node) {}

    explicit operator bool() const { return m_node != nullptr; }
    bool isNull() const;
    bool isScalar() const;
    bool isSequence() const;
    bool isMap() const;
    // The scalar's text; "" for anything else.
    const std::string& scalar() const;
    // 0-based line and column where the node starts.
    std::size_t line() const;
    std::size_t column() const;
    // A map's value under `key`, the last one when a key repeats (as PyYAML
    // keeps the last); nothing when absent or not a map.
    YNode operator[](std::string_view key) const;
    // A sequence's items; a map's keys and values, in document order.
    std::vector<YNode> items() const;
    std::vector<std::pair<YNode, YNode>> pairs() const;

private:
    const YamlNode* m_node = nullptr;
};

class YamlDocument {
public:
    YamlDocument();
    ~YamlDocument();
    YamlDocument(YamlDocument&&) noexcept;
    YamlDocument& operator=(YamlDocument&&) noexcept;

    YNode root() const;
    std::size_t aliasCount() const { return m_aliases; }

private:
    friend Result<YamlDocument> parseYaml(std::string_view text, const YamlLimits& limits);
    struct Arena;
    std::unique_ptr<Arena> m_arena;
    const YamlNode* m_root = nullptr;
    std::size_t m_aliases = 0;
};

// One document; an error (with line:column) for a syntax error, several
// documents, an unknown alias or more aliases than the limit allows.
Result<YamlDocument> parseYaml(std::string_view text, const YamlLimits& limits = {});

} // namespace relayhud::yaml
