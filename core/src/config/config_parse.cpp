// Reads an outcome config into the model of outcome_config.h with yaml-cpp,
// which keeps node marks (line/column) but not comments: positions are all the
// editor needs from it, since edits splice the original text.
#include "config_reader.h"

#include "relayhud/config/spyre_names.h"
#include "relayhud/util/utf8.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace relayhud::config {
namespace {

SourcePos posOf(const YAML::Node& node)
{
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0)
        return {};
    return {static_cast<std::size_t>(mark.line) + 1, static_cast<std::size_t>(mark.column) + 1};
}

std::string scalarOf(const YAML::Node& node)
{
    // A missing key gives an invalid node, on which yaml-cpp throws.
    return node && node.IsScalar() ? node.Scalar() : std::string();
}

} // namespace

ConfigReader::ConfigReader(ParsedConfig& out, const ParseLimits& limits)
    : m_out(out), m_limits(limits)
{
}

void ConfigReader::add(Severity severity, const YAML::Node& node, std::string message)
{
    m_out.findings.push_back({severity, posOf(node), std::move(message)});
}

// Canonical text of a subtree, for comparing entries semantically. Sized so
// that an alias chain cannot make it grow without bound.
bool ConfigReader::canonical(const YAML::Node& node, std::string& out)
{
    if (out.size() > m_limits.maxBytes)
        return false;
    if (node.IsScalar()) {
        out += '"';
        out += node.Scalar();
        out += '"';
        return true;
    }
    if (node.IsSequence()) {
        out += '[';
        for (const YAML::Node& item : node) {
            if (!canonical(item, out))
                return false;
            out += ',';
        }
        out += ']';
        return true;
    }
    if (node.IsMap())
        return canonicalMap(node, {}, out);
    out += "~";
    return true;
}

bool ConfigReader::canonicalMap(const YAML::Node& node,
                                std::initializer_list<std::string_view> skip, std::string& out)
{
    std::map<std::string, std::string> sorted;
    for (const auto& pair : node) {
        const std::string key = scalarOf(pair.first);
        if (std::find(skip.begin(), skip.end(), key) != skip.end())
            continue;
        std::string value;
        if (!canonical(pair.second, value))
            return false;
        sorted[key] = std::move(value);
    }
    out += '{';
    for (const auto& [key, value] : sorted)
        out += key + ':' + value + ',';
    out += '}';
    return out.size() <= m_limits.maxBytes;
}

std::string ConfigReader::signatureOf(const YAML::Node& map,
                                      std::initializer_list<std::string_view> skip)
{
    std::string out;
    if (!canonicalMap(map, skip, out))
        m_tooLarge = true;
    return out;
}

// Reports duplicate and unknown keys of a mapping; returns false (after a
// finding) when `node` is not a mapping at all.
bool ConfigReader::checkMap(const YAML::Node& node, std::string_view what,
                            std::initializer_list<std::string_view> known,
                            std::optional<Severity> unknownSeverity)
{
    if (!node.IsMap()) {
        add(Severity::Error, node, std::string(what) + " must be a mapping of keys");
        return false;
    }
    std::map<std::string, SourcePos> seen;
    for (const auto& pair : node) {
        const std::string key = scalarOf(pair.first);
        const auto [at, inserted] = seen.emplace(key, posOf(pair.first));
        if (!inserted)
            add(Severity::Error, pair.first,
                "duplicate key '" + key + "' in " + std::string(what) + " (first at line "
                    + std::to_string(at->second.line) + "); YAML keeps only one of them");
        else if (unknownSeverity && std::find(known.begin(), known.end(), key) == known.end())
            add(*unknownSeverity, pair.first,
                "unknown key '" + key + "' in " + std::string(what)
                    + "; torch-spyre's framework ignores it");
    }
    return true;
}

std::optional<Mode> ConfigReader::readMode(const YAML::Node& node)
{
    const std::optional<Mode> mode = parseMode(scalarOf(node));
    if (!mode)
        add(Severity::Error, node,
            "unknown mode '" + scalarOf(node)
                + "' (expected mandatory_success, xfail, xfail_strict or skip)");
    return mode;
}

void ConfigReader::checkDtype(const std::string& name, const YAML::Node& node)
{
    if (!isConfigDtypeName(name))
        add(Severity::Error, node,
            "unknown dtype '" + name
                + "'; torch-spyre's framework accepts float16, float32, float64, bfloat16, "
                  "int8-64, uint8-64, complex32/64/128, bool and half, and refuses the whole "
                  "file otherwise");
}

// `[a, b]` of plain strings (labels, tags).
std::vector<std::string> ConfigReader::readStrings(const YAML::Node& list, std::string_view what)
{
    std::vector<std::string> out;
    if (!list || list.IsNull())
        return out;
    if (!list.IsSequence()) {
        add(Severity::Error, list, std::string(what) + " must be a list of strings");
        return out;
    }
    for (const YAML::Node& item : list) {
        if (item.IsScalar())
            out.push_back(item.Scalar());
        else
            add(Severity::Error, item, std::string(what) + " must be a list of strings");
    }
    return out;
}

// A list of `{name: x, ...}` items, or (for supported_ops and
// supported_modules, which the framework normalises) bare names too. Other
// lists of bare names fail pydantic's validation of the whole file.
std::vector<NamedOption> ConfigReader::readOptions(const YAML::Node& list, std::string_view what,
                                                   ItemShape shape)
{
    std::vector<NamedOption> out;
    if (!list || list.IsNull())
        return out;
    if (!list.IsSequence()) {
        add(Severity::Error, list, std::string(what) + " must be a list");
        return out;
    }
    const bool dtypes = shape == ItemShape::DtypeMap;
    for (const YAML::Node& item : list) {
        NamedOption option;
        option.pos = posOf(item);
        canonical(item, option.canonical);
        if (item.IsScalar()) {
            option.name = item.Scalar();
            if (shape != ItemShape::NameOrMap)
                add(Severity::Error, item,
                    std::string(what) + " items must be written `- name: " + option.name
                        + "`; torch-spyre's framework refuses a bare name here");
        } else if (checkMap(item, what, {}, std::nullopt)) {
            option.name = scalarOf(item["name"]);
            if (item["force_xfail"])
                option.forceXfail = scalarOf(item["force_xfail"]) == "true";
            for (const NamedOption& dtype :
                 readOptions(item["dtypes"], "dtypes", ItemShape::DtypeMap))
                option.dtypes.push_back(dtype.name);
        }
        if (option.name.empty())
            add(Severity::Error, item, std::string(what) + " item without a name");
        else if (dtypes)
            checkDtype(option.name, item.IsMap() ? item["name"] : item);
        out.push_back(std::move(option));
    }
    return out;
}

IncludeExclude ConfigReader::readIncludeExclude(const YAML::Node& node, std::string_view what,
                                                ItemShape shape)
{
    IncludeExclude out;
    if (!checkMap(node, what, {"include", "exclude"}, Severity::Warning))
        return out;
    if (node["include"]) {
        out.hasInclude = true;
        for (const NamedOption& option : readOptions(node["include"], what, shape))
            out.include.push_back(option.name);
    }
    for (const NamedOption& option : readOptions(node["exclude"], what, shape))
        out.exclude.push_back(option.name);
    return out;
}

void ConfigReader::readEdits(const YAML::Node& node, TestEntry& entry)
{
    if (!checkMap(node, "edits", {"ops", "dtypes", "modules", "functions"}, Severity::Warning))
        return;
    if (node["dtypes"])
        entry.dtypes = readIncludeExclude(node["dtypes"], "edits.dtypes", ItemShape::DtypeMap);
    if (node["ops"])
        entry.ops = readIncludeExclude(node["ops"], "edits.ops", ItemShape::Map);
    if (node["modules"])
        entry.modules = readIncludeExclude(node["modules"], "edits.modules", ItemShape::Map);
    if (node["functions"])
        checkMap(node["functions"], "edits.functions", {"cpu_move"}, Severity::Warning);
}

// TestEntry.validate_name (oot_test_config_models.py:742-765): a name is
// "method" or "Class::method", no part empty; more parts fail the file.
void ConfigReader::readName(const YAML::Node& item, TestEntry& entry)
{
    if (!item.IsScalar() || item.Scalar().empty()) {
        add(Severity::Error, item, "a name must be a non-empty string");
        return;
    }
    const std::string& text = item.Scalar();
    const std::size_t first = text.find("::");
    const bool tooMany =
        first != std::string::npos && text.find("::", first + 2) != std::string::npos;
    const SplitName split = splitConfigName(text);
    if (tooMany || split.method.empty()
        || (first != std::string::npos && split.classPart.empty())) {
        add(Severity::Error, item,
            "'" + text
                + "' is not 'Class::method' or 'method'; torch-spyre's framework refuses the "
                  "whole file");
        return;
    }
    NameItem name{text, posOf(item), std::string(split.method), std::string(split.classPart)};
    name.regex = isRegexMethod(name.method);
    if (name.regex) {
        const RegexCheck check = checkNameRegex(name.method);
        name.regexStatus = check.status;
        if (check.status == RegexStatus::Invalid)
            add(Severity::Error, item,
                "'" + name.method + "' is a regular expression that does not compile ("
                    + check.message
                    + "); torch-spyre's framework fails the collection of the whole file");
        else if (check.status == RegexStatus::Unsupported)
            add(Severity::Warning, item,
                "'" + name.method + "': " + check.message
                    + "; the tests it might govern are reported as 'cannot judge'");
    }
    entry.names.push_back(std::move(name));
}

void ConfigReader::readNames(const YAML::Node& node, TestEntry& entry)
{
    if (node.IsScalar()) { // validate_name takes a single string as a list of one
        readName(node, entry);
        return;
    }
    if (!node.IsSequence()) {
        add(Severity::Error, node, "names must be a list of test names");
        return;
    }
    for (const YAML::Node& item : node)
        readName(item, entry);
}

// names as a set (stripped), then tags and edits as written, "~" when absent.
std::string ConfigReader::mergeKeyOf(const YAML::Node& node, const TestEntry& entry)
{
    std::set<std::string> names;
    for (const NameItem& item : entry.names)
        names.insert(item.name);
    std::string key;
    for (const std::string& name : names)
        key += name + '\n';
    for (const char* part : {"tags", "edits"}) {
        key += '|';
        if (node[part])
            canonical(node[part], key);
        else
            key += "~absent";
    }
    return key;
}

TestEntry ConfigReader::readEntry(const YAML::Node& node)
{
    TestEntry entry;
    entry.pos = posOf(node);
    if (!checkMap(node, "a tests entry", {"names", "mode", "tags", "labels", "edits"},
                  Severity::Warning))
        return entry;
    for (const auto& pair : node) {
        if (scalarOf(pair.first) == "mode") {
            entry.mode = readMode(pair.second);
            entry.modePos = posOf(pair.second);
        }
    }
    if (node["names"])
        readNames(node["names"], entry);
    else
        add(Severity::Error, node, "a tests entry without names");
    entry.tags = readStrings(node["tags"], "tags");
    entry.labels = readStrings(node["labels"], "labels");
    if (node["edits"])
        readEdits(node["edits"], entry);
    entry.signature = signatureOf(node, {"names", "mode"});
    entry.mergeKey = mergeKeyOf(node, entry);
    return entry;
}

void ConfigReader::readFile(const YAML::Node& node)
{
    FileSection file;
    file.pos = posOf(node);
    if (!checkMap(node, "a files entry", {"path", "unlisted_test_mode", "tests"},
                  Severity::Warning))
        return;
    file.path = scalarOf(node["path"]);
    if (file.path.empty())
        add(Severity::Error, node, "a files entry without a path");
    if (node["unlisted_test_mode"])
        file.unlistedMode = readMode(node["unlisted_test_mode"]);
    file.hasTestsKey = static_cast<bool>(node["tests"]);
    if (const YAML::Node tests = node["tests"]; tests && tests.IsSequence()) {
        for (const YAML::Node& entry : tests)
            file.tests.push_back(readEntry(entry));
    } else if (tests && !tests.IsNull()) {
        add(Severity::Error, tests, "tests must be a list of entries");
    }
    file.signature = signatureOf(node, {"tests"});
    checkDuplicateNames(file);
    m_out.config.files.push_back(std::move(file));
}

// The framework keys exact names by their method part, so `A::test_x` and
// `B::test_x` are the same listing twice.
void ConfigReader::checkDuplicateNames(const FileSection& file)
{
    std::map<std::string, SourcePos> seen;
    for (const TestEntry& entry : file.tests) {
        for (const NameItem& item : entry.names) {
            if (item.regex)
                continue;
            const auto [at, inserted] = seen.emplace(item.method, item.pos);
            if (!inserted)
                m_out.findings.push_back(
                    {Severity::Warning, item.pos,
                     "'" + item.method + "' is listed again (first at line "
                         + std::to_string(at->second.line)
                         + "); the framework ignores the class part, and the first listing "
                           "decides unless its edits.dtypes.include lacks the variant's dtype"});
        }
    }
}

void ConfigReader::readGlobal(const YAML::Node& node)
{
    GlobalSection& global = m_out.config.global;
    if (!checkMap(node, "global",
                  {"supported_dtypes", "supported_ops", "supported_modules", "input_config"},
                  Severity::Warning))
        return;
    if (node["supported_dtypes"]) {
        global.hasDtypes = true;
        global.supportedDtypes =
            readOptions(node["supported_dtypes"], "supported_dtypes", ItemShape::DtypeMap);
    }
    if (node["supported_ops"]) {
        global.hasOps = true;
        global.supportedOps =
            readOptions(node["supported_ops"], "supported_ops", ItemShape::NameOrMap);
    }
    if (node["input_config"]) {
        m_out.config.hasInputConfig = true;
        canonical(node["input_config"], m_out.config.inputConfig);
    }
    if (node["supported_modules"]) {
        global.hasModules = true;
        global.supportedModules =
            readOptions(node["supported_modules"], "supported_modules", ItemShape::NameOrMap);
    }
    global.signature = signatureOf(node, {});
}

void ConfigReader::readRoot(const YAML::Node& root)
{
    // Other top-level keys (real configs carry `cases:`) are the framework's
    // to ignore and ours too.
    if (!checkMap(root, "the document", {"test_suite_config"}, std::nullopt))
        return;
    const YAML::Node suite = root["test_suite_config"];
    if (!suite) {
        add(Severity::Error, root, "no test_suite_config key");
        return;
    }
    if (!checkMap(suite, "test_suite_config", {"labels", "files", "global"}, Severity::Warning))
        return;
    m_out.config.hasLabels = static_cast<bool>(suite["labels"]);
    m_out.config.labels = readStrings(suite["labels"], "labels");
    if (const YAML::Node files = suite["files"]; files && files.IsSequence()) {
        for (const YAML::Node& file : files)
            readFile(file);
    } else {
        add(Severity::Error, suite, "test_suite_config has no files list");
    }
    if (suite["global"])
        readGlobal(suite["global"]);
    if (m_tooLarge)
        add(Severity::Error, root, "the document expands beyond the size limit (alias bomb?)");
}

} // namespace relayhud::config
