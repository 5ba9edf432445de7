// Reading rule files (TOML) into a RuleSet. toml++ throws on a syntax error;
// the exception stays in this file.
#include "relayhud/triage/rule_set.h"

#include <optional>
#include <toml++/toml.h>

namespace relayhud::triage {

namespace {

struct Parsed {
    std::optional<toml::table> table;
    std::size_t errorLine = 0; // within the parsed text, from 1
    std::string error;
};

bool isBareKeyChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'
           || c == '-';
}

// toml++ 3.3 asserts (built by clang with NDEBUG: assumes, so anything may
// follow) that a table header's first key starts with a bare-key character or
// a quote (parser.inl, parse_key's TOML_ASSERT_ASSUME), and "[!" or "[" at a
// line's end breaks that. Such a header is a TOML syntax error anyway: find
// it first, so toml++ never sees it. A header is a '[' that starts a line
// outside strings, comments and multi-line arrays. Returns its line, from 1.
std::optional<std::size_t> badTableHeader(std::string_view text)
{
    std::size_t line = 1, depth = 0, i = 0;
    bool lineStart = true, inHeader = false;
    const auto at = [&](std::size_t k) { return k < text.size() ? text[k] : '\0'; };
    // Skips the string opened at i by the quote q (an unterminated one to its line end).
    const auto skipString = [&](char q) {
        const bool multi = at(i + 1) == q && at(i + 2) == q;
        i += multi ? 3 : 1;
        while (i < text.size()) {
            const char c = text[i];
            if (c == '\\' && q == '"') {
                if (at(i + 1) == '\n')
                    ++line;
                i += 2;
                continue;
            }
            if (c == '\n') {
                ++line;
                if (!multi)
                    return; // an unterminated string: toml++ says so
            }
            if (c == q && (!multi || (at(i + 1) == q && at(i + 2) == q))) {
                i += multi ? 3 : 1;
                return;
            }
            ++i;
        }
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            lineStart = true;
            inHeader = false;
            ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            continue;
        }
        const bool first = lineStart;
        lineStart = false;
        if (c == '#') {
            while (i < text.size() && text[i] != '\n')
                ++i;
        } else if (c == '"' || c == '\'') {
            skipString(c);
        } else if (c == '[' && first && depth == 0) {
            std::size_t k = i + 1;
            if (at(k) == '[')
                ++k;
            while (at(k) == ' ' || at(k) == '\t')
                ++k;
            const char key = at(k);
            if (k < text.size() && !isBareKeyChar(key) && key != '"' && key != '\'' && key != ']')
                return line;
            inHeader = true;
            i = k;
        } else {
            if (!inHeader && (c == '[' || c == '{'))
                ++depth;
            else if (!inHeader && (c == ']' || c == '}') && depth > 0)
                --depth;
            ++i;
        }
    }
    return std::nullopt;
}

Parsed parseToml(std::string_view text, const std::string& source)
{
    Parsed parsed;
    if (const auto line = badTableHeader(text)) {
        parsed.errorLine = *line;
        parsed.error =
            "a table header must start with a key (a letter, digit, '_', '-' or a quote)";
        return parsed;
    }
    try {
        parsed.table = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        parsed.errorLine = e.source().begin.line;
        parsed.error = std::string(e.description());
    }
    return parsed;
}

std::size_t lineOf(const toml::node& node, std::size_t offset)
{
    return offset + node.source().begin.line;
}

// One [[rule]] table into the set, or a problem saying what is missing.
void loadRule(const toml::table& table, std::size_t offset, const std::string& source, RuleSet& set)
{
    Rule rule;
    rule.file = source;
    rule.line = lineOf(table, offset);
    const auto name = table["name"].value<std::string>();
    if (!name || name->empty()) {
        set.addProblem({source, rule.line, "rule without a name (a 'name' string is required)"});
        return;
    }
    rule.name = *name;
    const toml::node* pattern = table.get("pattern");
    if (pattern == nullptr || !pattern->is_string()) {
        set.addProblem({source, rule.line, "rule '" + rule.name + "' has no 'pattern' string"});
        return;
    }
    rule.pattern = **pattern->as_string();
    rule.line = lineOf(*pattern, offset);
    if (const toml::node* cls = table.get("class")) {
        const auto parsed = parseRuleClass(cls->value_or(std::string()));
        if (!parsed) {
            set.addProblem({source, lineOf(*cls, offset),
                            "rule '" + rule.name
                                + "': class must be 'infra', 'backend bug' or 'test or config'"});
            return;
        }
        rule.impliedClass = *parsed;
    }
    set.add(std::move(rule));
}

// The [[rule]] tables of one parsed document; returns how many it had.
std::size_t loadTables(const toml::table& doc, std::size_t offset, const std::string& source,
                       RuleSet& set)
{
    const toml::node* rules = doc.get("rule");
    if (rules == nullptr)
        return 0;
    const toml::array* array = rules->as_array();
    if (array == nullptr || !array->is_array_of_tables()) {
        set.addProblem({source, lineOf(*rules, offset), "'rule' must be [[rule]] tables"});
        return 0;
    }
    for (const toml::node& node : *array)
        loadRule(*node.as_table(), offset, source, set);
    return array->size();
}

bool isRuleHeader(std::string_view line)
{
    const auto first = line.find_first_not_of(" \t");
    return first != std::string_view::npos && line.substr(first).starts_with("[[rule]]");
}

// After a syntax error: each [[rule]] table parsed on its own, so one broken
// table costs only itself.
std::size_t loadChunks(std::string_view text, const std::string& source, RuleSet& set)
{
    std::size_t count = 0, chunkStart = 0, chunkLine = 0, line = 0, pos = 0;
    auto flush = [&](std::size_t end) {
        const Parsed parsed = parseToml(text.substr(chunkStart, end - chunkStart), source);
        if (!parsed.table)
            set.addProblem({source, chunkLine + parsed.errorLine, "TOML: " + parsed.error});
        else
            count += loadTables(*parsed.table, chunkLine, source, set);
    };
    while (pos < text.size()) {
        const auto eol = text.find('\n', pos);
        const auto next = eol == std::string_view::npos ? text.size() : eol + 1;
        if (isRuleHeader(text.substr(pos, next - pos)) && pos > chunkStart) {
            flush(pos);
            chunkStart = pos;
            chunkLine = line;
        }
        pos = next;
        ++line;
    }
    flush(text.size());
    return count;
}

bool isBlank(std::string_view text)
{
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

} // namespace

void RuleSet::addText(std::string_view text, const std::string& source)
{
    if (isBlank(text)) {
        addProblem({source, 1, "the rule file is empty"});
        return;
    }
    const Parsed whole = parseToml(text, source);
    const std::size_t count =
        whole.table ? loadTables(*whole.table, 0, source, *this) : loadChunks(text, source, *this);
    if (count == 0 && whole.table)
        addProblem({source, 1, "no [[rule]] tables in the rule file"});
}

} // namespace relayhud::triage
