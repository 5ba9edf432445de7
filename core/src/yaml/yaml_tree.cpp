#include "relayhud/yaml/yaml_tree.h"

#include <yaml.h>

#include <deque>
#include <map>

namespace relayhud::yaml {

enum class YamlKind : unsigned char { Null, Scalar, Sequence, Map };

class YamlNode {
public:
    YamlKind kind = YamlKind::Null;
    std::string text;
    std::size_t line = 0;
    std::size_t column = 0;
    std::vector<const YamlNode*> children; // a map's: key, value, key, value, ...
};

struct YamlDocument::Arena {
    std::deque<YamlNode> nodes;
};

namespace {

const std::string kEmpty;

// PyYAML's resolver reads these plain scalars as null.
bool isPlainNull(std::string_view text)
{
    return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

class Builder {
public:
    Builder(std::deque<YamlNode>& nodes, const YamlLimits& limits)
        : m_nodes(nodes), m_limits(limits)
    {
    }

    Result<const YamlNode*> build(std::string_view text, std::size_t& aliases);

private:
    YamlNode& make(YamlKind kind, const yaml_mark_t& mark)
    {
        YamlNode& node = m_nodes.emplace_back();
        node.kind = kind;
        node.line = mark.line;
        node.column = mark.column;
        return node;
    }
    void anchor(const yaml_char_t* name, const YamlNode* node)
    {
        if (name)
            m_anchors[reinterpret_cast<const char*>(name)] = node;
    }
    Result<void> add(const YamlNode* node);
    Error tooDeep(const yaml_mark_t& mark) const
    {
        return makeError("YAML error at " + std::to_string(mark.line + 1) + ":"
                         + std::to_string(mark.column + 1) + ": nested deeper than "
                         + std::to_string(m_limits.maxDepth) + " levels; refused");
    }

    std::deque<YamlNode>& m_nodes;
    const YamlLimits& m_limits;
    std::vector<YamlNode*> m_open; // sequences and maps being filled
    std::map<std::string, const YamlNode*> m_anchors;
    const YamlNode* m_root = nullptr;
};

Error problem(const yaml_parser_t& parser)
{
    std::string message = "YAML syntax error at " + std::to_string(parser.problem_mark.line + 1)
                          + ":" + std::to_string(parser.problem_mark.column + 1) + ": "
                          + (parser.problem ? parser.problem : "cannot read the text");
    if (parser.context)
        message += std::string(" (") + parser.context + " at line "
                   + std::to_string(parser.context_mark.line + 1) + ")";
    return makeError(message);
}

Result<void> Builder::add(const YamlNode* node)
{
    if (m_open.empty()) {
        if (m_root)
            return makeError("YAML error at " + std::to_string(node->line + 1)
                             + ": more than one document; the file must be one");
        m_root = node;
        return {};
    }
    m_open.back()->children.push_back(node);
    return {};
}

Result<const YamlNode*> Builder::build(std::string_view text, std::size_t& aliases)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return makeError("cannot start the YAML reader");
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
    struct Cleanup {
        yaml_parser_t* parser;
        ~Cleanup() { yaml_parser_delete(parser); }
    } cleanup{&parser};
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
            return problem(parser);
        struct EventCleanup {
            yaml_event_t* event;
            ~EventCleanup() { yaml_event_delete(event); }
        } eventCleanup{&event};
        const yaml_mark_t& mark = event.start_mark;
        Result<void> added;
        switch (event.type) {
        case YAML_STREAM_END_EVENT: return m_root;
        case YAML_SCALAR_EVENT: {
            const std::string_view value(reinterpret_cast<const char*>(event.data.scalar.value),
                                         event.data.scalar.length);
            const bool null = event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
                              && !event.data.scalar.tag && isPlainNull(value);
            YamlNode& node = make(null ? YamlKind::Null : YamlKind::Scalar, mark);
            node.text.assign(value);
            anchor(event.data.scalar.anchor, &node);
            added = add(&node);
            break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            if (m_open.size() >= m_limits.maxDepth)
                return tooDeep(mark);
            const bool map = event.type == YAML_MAPPING_START_EVENT;
            YamlNode& node = make(map ? YamlKind::Map : YamlKind::Sequence, mark);
            anchor(map ? event.data.mapping_start.anchor : event.data.sequence_start.anchor, &node);
            added = add(&node);
            m_open.push_back(&node);
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: m_open.pop_back(); break;
        case YAML_ALIAS_EVENT: {
            if (++aliases > m_limits.maxAliases)
                return makeError("the document uses more than "
                                 + std::to_string(m_limits.maxAliases)
                                 + " YAML aliases (an alias bomb?)");
            const std::string name(reinterpret_cast<const char*>(event.data.alias.anchor));
            const auto it = m_anchors.find(name);
            if (it == m_anchors.end())
                return makeError("YAML error at " + std::to_string(mark.line + 1) + ":"
                                 + std::to_string(mark.column + 1) + ": unknown alias *" + name);
            added = add(it->second);
            break;
        }
        default: break;
        }
        if (!added)
            return added.error();
    }
}

} // namespace

bool YNode::isNull() const { return m_node && m_node->kind == YamlKind::Null; }
bool YNode::isScalar() const { return m_node && m_node->kind == YamlKind::Scalar; }
bool YNode::isSequence() const { return m_node && m_node->kind == YamlKind::Sequence; }
bool YNode::isMap() const { return m_node && m_node->kind == YamlKind::Map; }

const std::string& YNode::scalar() const { return isScalar() ? m_node->text : kEmpty; }
std::size_t YNode::line() const { return m_node ? m_node->line : 0; }
std::size_t YNode::column() const { return m_node ? m_node->column : 0; }

YNode YNode::operator[](std::string_view key) const
{
    if (!isMap())
        return {};
    const YamlNode* found = nullptr;
    const auto& c = m_node->children;
    for (std::size_t i = 0; i + 1 < c.size(); i += 2)
        if (c[i]->kind == YamlKind::Scalar && c[i]->text == key)
            found = c[i + 1];
    return YNode(found);
}

std::vector<YNode> YNode::items() const
{
    std::vector<YNode> out;
    if (isSequence())
        for (const YamlNode* child : m_node->children)
            out.emplace_back(child);
    return out;
}

std::vector<std::pair<YNode, YNode>> YNode::pairs() const
{
    std::vector<std::pair<YNode, YNode>> out;
    if (!isMap())
        return out;
    const auto& c = m_node->children;
    for (std::size_t i = 0; i + 1 < c.size(); i += 2)
        out.emplace_back(YNode(c[i]), YNode(c[i + 1]));
    return out;
}

YamlDocument::YamlDocument() : m_arena(std::make_unique<Arena>()) {}
YamlDocument::~YamlDocument() = default;
YamlDocument::YamlDocument(YamlDocument&&) noexcept = default;
YamlDocument& YamlDocument::operator=(YamlDocument&&) noexcept = default;

YNode YamlDocument::root() const { return YNode(m_root); }

Result<YamlDocument> parseYaml(std::string_view text, const YamlLimits& limits)
{
    YamlDocument doc;
    Builder builder(doc.m_arena->nodes, limits);
    Result<const YamlNode*> root = builder.build(text, doc.m_aliases);
    if (!root)
        return root.error();
    doc.m_root = *root;
    return doc;
}

} // namespace relayhud::yaml
