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

Parsed parseToml(std::string_view text, const std::string& source)
{
    Parsed parsed;
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
