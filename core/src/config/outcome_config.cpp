// parseOutcomeConfig(): the checks on raw text (size, UTF-8, tabs, aliases)
// that must run before the YAML tree is built, then the schema walk.
#include "relayhud/config/outcome_config.h"

#include "config_reader.h"

#include "relayhud/util/utf8.h"

#include <algorithm>
#include <array>

namespace relayhud::config {
namespace {

constexpr std::array<std::pair<Mode, std::string_view>, 4> kModes = {{
    {Mode::MandatorySuccess, "mandatory_success"},
    {Mode::Xfail, "xfail"},
    {Mode::XfailStrict, "xfail_strict"},
    {Mode::Skip, "skip"},
}};

// Line:column of the first byte that is not valid UTF-8.
Error utf8Error(std::string_view text)
{
    std::size_t line = 1;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view lineText = text.substr(start, end - start);
        if (!isValidUtf8(lineText)) {
            std::size_t good = 0;
            while (good < lineText.size() && isValidUtf8(lineText.substr(0, good + 1)))
                ++good;
            return makeError("not valid UTF-8 at " + std::to_string(line) + ":"
                             + std::to_string(good + 1) + "; save the config as UTF-8");
        }
        start = end + 1;
        ++line;
    }
    return makeError("not valid UTF-8; save the config as UTF-8");
}

// YAML forbids tabs in indentation; libyaml's own message for them is vague.
void findTabs(std::string_view text, std::vector<Finding>& findings)
{
    std::size_t line = 1;
    bool inIndent = true;
    std::size_t column = 1;
    for (const char c : text) {
        if (c == '\n') {
            ++line;
            column = 1;
            inIndent = true;
            continue;
        }
        if (c == '\t' && inIndent)
            findings.push_back({Severity::Error,
                                {line, column},
                                "tab in indentation; YAML indents with spaces only"});
        if (c != ' ' && c != '\t' && c != '-')
            inIndent = false;
        ++column;
    }
}

} // namespace

std::string lineText(const SourcePos& pos) { return "line " + std::to_string(pos.line); }

const char* modeName(Mode mode)
{
    for (const auto& [value, name] : kModes)
        if (value == mode)
            return name.data();
    return "?";
}

std::optional<Mode> parseMode(std::string_view text)
{
    for (const auto& [value, name] : kModes)
        if (name == text)
            return value;
    return std::nullopt;
}

bool ParsedConfig::hasErrors() const
{
    return std::any_of(findings.begin(), findings.end(),
                       [](const Finding& f) { return f.severity == Severity::Error; });
}

std::string formatFinding(const Finding& finding)
{
    return std::to_string(finding.pos.line) + ":" + std::to_string(finding.pos.column) + ": "
           + (finding.severity == Severity::Error ? "error: " : "warning: ") + finding.message;
}

Result<ParsedConfig> parseOutcomeConfig(std::string_view text, const ParseLimits& limits)
{
    if (text.size() > limits.maxBytes)
        return makeError("the config is " + std::to_string(text.size())
                         + " bytes, over the limit of " + std::to_string(limits.maxBytes));
    if (!isValidUtf8(text))
        return utf8Error(text);
    ParsedConfig parsed;
    findTabs(text, parsed.findings);
    if (!parsed.findings.empty())
        return makeError(formatFinding(parsed.findings.front()));
    // Aliases are counted as they are read and refused past the limit,
    // before anything expands them.
    Result<yaml::YamlDocument> doc = yaml::parseYaml(text, yaml::YamlLimits{limits.maxAliases});
    if (!doc)
        return doc.error();
    parsed.config.aliasCount = doc->aliasCount();
    ConfigReader(parsed, limits).readRoot(doc->root());
    std::stable_sort(
        parsed.findings.begin(), parsed.findings.end(), [](const Finding& a, const Finding& b) {
            return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
        });
    return parsed;
}

std::vector<std::string> registeredModuleDtypes(const ModuleItem& item,
                                                const std::optional<FrameworkDate>& asOf)
{
    if (!frameworkHas(asOf, FrameworkFeature::ModuleInputDtypes))
        return {"float16", "float32"};
    if (!item.inputDtypes.empty())
        return item.inputDtypes;
    return {"bfloat16", "float16", "float32"};
}

} // namespace relayhud::config
