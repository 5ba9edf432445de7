// Reads an outcome config into the model of outcome_config.h from the YAML
// tree (yaml/yaml_tree.h), which keeps node positions but not comments: positions
// are all the editor needs, since edits splice the original text.
#include "config_reader.h"

#include "relayhud/config/spyre_names.h"
#include "relayhud/util/utf8.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace relayhud::config {
namespace {

const std::string& scalarOf(YNode node) { return node.scalar(); }

// PyYAML reads YAML 1.1 booleans (yaml.safe_load, what the framework uses).
bool isTrue(std::string_view text)
{
    return text == "true" || text == "True" || text == "TRUE" || text == "yes" || text == "Yes"
           || text == "YES" || text == "on" || text == "On" || text == "ON";
}

bool isFalse(std::string_view text)
{
    return text == "false" || text == "False" || text == "FALSE" || text == "no" || text == "No"
           || text == "NO" || text == "off" || text == "Off" || text == "OFF";
}

} // namespace

ConfigReader::ConfigReader(ParsedConfig& out, const ParseLimits& limits)
    : m_out(out), m_limits(limits)
{
}

void ConfigReader::add(Severity severity, YNode node, std::string message)
{
    m_out.findings.push_back({severity, nodePos(node), std::move(message)});
}

// Canonical text of a subtree, for comparing entries semantically. Sized so
// that an alias chain cannot make it grow without bound.
bool ConfigReader::canonical(YNode node, std::string& out)
{
    if (out.size() > m_limits.maxBytes)
        return false;
    if (node.isScalar()) {
        out += '"';
        out += node.scalar();
        out += '"';
        return true;
    }
    if (node.isSequence()) {
        out += '[';
        for (const YNode item : node.items()) {
            if (!canonical(item, out))
                return false;
            out += ',';
        }
        out += ']';
        return true;
    }
    if (node.isMap())
        return canonicalMap(node, {}, out);
    out += "~";
    return true;
}

bool ConfigReader::canonicalMap(YNode node, std::initializer_list<std::string_view> skip,
                                std::string& out)
{
    std::map<std::string, std::string> sorted;
    for (const auto& pair : node.pairs()) {
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

std::string ConfigReader::signatureOf(YNode map, std::initializer_list<std::string_view> skip)
{
    std::string out;
    if (!canonicalMap(map, skip, out))
        m_tooLarge = true;
    return out;
}

// Reports duplicate and unknown keys of a mapping; returns false (after a
// finding) when `node` is not a mapping at all.
bool ConfigReader::checkMap(YNode node, std::string_view what,
                            std::initializer_list<std::string_view> known,
                            std::optional<Severity> unknownSeverity)
{
    if (!node.isMap()) {
        add(Severity::Error, node, std::string(what) + " must be a mapping of keys");
        return false;
    }
    std::map<std::string, SourcePos> seen;
    for (const auto& pair : node.pairs()) {
        const std::string key = scalarOf(pair.first);
        const auto [at, inserted] = seen.emplace(key, nodePos(pair.first));
        if (!inserted)
            add(Severity::Error, pair.first,
                "duplicate key '" + key + "' in " + std::string(what) + " (first at line "
                    + std::to_string(at->second.line) + "); YAML keeps only one of them");
        else if (unknownSeverity && std::find(known.begin(), known.end(), key) == known.end())
            add(*unknownSeverity, pair.first,
                "unknown key '" + key + "' in " + std::string(what)
                    + (*unknownSeverity == Severity::Error
                           ? "; torch-spyre's framework refuses the whole file"
                           : "; torch-spyre's framework ignores it"));
    }
    return true;
}

std::optional<Mode> ConfigReader::readMode(YNode node)
{
    const std::optional<Mode> mode = parseMode(scalarOf(node));
    if (!mode)
        add(Severity::Error, node,
            "unknown mode '" + scalarOf(node)
                + "' (expected mandatory_success, xfail, xfail_strict or skip)");
    return mode;
}

void ConfigReader::checkDtype(const std::string& name, YNode node)
{
    if (!isConfigDtypeName(name))
        add(Severity::Error, node,
            "unknown dtype '" + name
                + "'; torch-spyre's framework accepts float16, float32, float64, bfloat16, "
                  "int8-64, uint8-64, complex32/64/128, bool and half, and refuses the whole "
                  "file otherwise");
}

// `[a, b]` of plain strings (labels, tags).
std::vector<std::string> ConfigReader::readStrings(YNode list, std::string_view what)
{
    std::vector<std::string> out;
    if (!list || list.isNull())
        return out;
    if (!list.isSequence()) {
        add(Severity::Error, list, std::string(what) + " must be a list of strings");
        return out;
    }
    for (const YNode item : list.items()) {
        if (item.isScalar())
            out.push_back(item.scalar());
        else
            add(Severity::Error, item, std::string(what) + " must be a list of strings");
    }
    return out;
}

// A list of `{name: x, ...}` items, or (for supported_ops and
// supported_modules, which the framework normalises) bare names too. Other
// lists of bare names fail pydantic's validation of the whole file.
std::vector<NamedOption> ConfigReader::readOptions(YNode list, std::string_view what,
                                                   ItemShape shape)
{
    std::vector<NamedOption> out;
    if (!list || list.isNull())
        return out;
    if (!list.isSequence()) {
        add(Severity::Error, list, std::string(what) + " must be a list");
        return out;
    }
    const bool dtypes = shape == ItemShape::DtypeMap;
    for (const YNode item : list.items()) {
        NamedOption option;
        option.pos = nodePos(item);
        if (m_inGlobal) // only merges compare global items whole
            canonical(item, option.canonical);
        if (item.isScalar()) {
            option.name = item.scalar();
            if (shape != ItemShape::NameOrMap)
                add(Severity::Error, item,
                    std::string(what) + " items must be written `- name: " + option.name
                        + "`; torch-spyre's framework refuses a bare name here");
        } else if (checkMap(item, what, {}, std::nullopt)) {
            option.name = scalarOf(item["name"]);
            if (item["force_xfail"])
                option.forceXfail = isTrue(scalarOf(item["force_xfail"]));
            for (const NamedOption& dtype :
                 readOptions(item["dtypes"], "dtypes", ItemShape::DtypeMap))
                option.dtypes.push_back(dtype.name);
        }
        if (option.name.empty())
            add(Severity::Error, item, std::string(what) + " item without a name");
        else if (dtypes)
            checkDtype(option.name, item.isMap() ? item["name"] : item);
        out.push_back(std::move(option));
    }
    return out;
}

IncludeExclude ConfigReader::readIncludeExclude(YNode node, std::string_view what, ItemShape shape)
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

void ConfigReader::readEdits(YNode node, TestEntry& entry)
{
    if (!checkMap(node, "edits", {"ops", "dtypes", "modules", "functions"}, Severity::Warning))
        return;
    if (node["dtypes"])
        entry.dtypes = readIncludeExclude(node["dtypes"], "edits.dtypes", ItemShape::DtypeMap);
    if (node["ops"]) {
        entry.ops = readIncludeExclude(node["ops"], "edits.ops", ItemShape::Map);
        if (!entry.ops.exclude.empty())
            useFeature(FrameworkFeature::OpsExcludeRule, node["ops"]["exclude"]);
        if (node["ops"].isMap())
            readOpItems(node["ops"]["include"]);
    }
    if (node["modules"]) {
        entry.modules = readIncludeExclude(node["modules"], "edits.modules", ItemShape::Map);
        if (node["modules"].isMap())
            readModuleItems(node["modules"]["include"], entry);
    }
    if (const YNode functions = node["functions"];
        functions && checkMap(functions, "edits.functions", {"cpu_move"}, Severity::Warning)
        && functions["cpu_move"]) {
        // FunctionsEdits.cpu_move: a list of {name: method} (#2489, TSF 8028f916).
        useFeature(FrameworkFeature::CpuMove, functions["cpu_move"]);
        for (const NamedOption& option :
             readOptions(functions["cpu_move"], "edits.functions.cpu_move", ItemShape::Map))
            entry.cpuMove.push_back(option.name);
    }
}

void ConfigReader::useFeature(FrameworkFeature feature, YNode node, std::string detail)
{
    for (const FeatureUse& use : m_out.config.featureUses)
        if (use.feature == feature && use.detail == detail)
            return;
    m_out.config.featureUses.push_back({feature, nodePos(node), std::move(detail)});
}

// TestEntry.validate_name (oot_test_config_models.py:742-765): a name is
// "method" or "Class::method", no part empty; more parts fail the file.
void ConfigReader::readName(YNode item, TestEntry& entry)
{
    if (!item.isScalar() || item.scalar().empty()) {
        add(Severity::Error, item, "a name must be a non-empty string");
        return;
    }
    const std::string& text = item.scalar();
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
    NameItem name{text, nodePos(item), std::string(split.method), std::string(split.classPart)};
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

void ConfigReader::readNames(YNode node, TestEntry& entry)
{
    if (node.isScalar()) { // validate_name takes a single string as a list of one
        readName(node, entry);
        return;
    }
    if (!node.isSequence()) {
        add(Severity::Error, node, "names must be a list of test names");
        return;
    }
    for (const YNode item : node.items())
        readName(item, entry);
}

// Every key but names and mode, canonically written, each once: the entry's
// signature and run_test.sh's merge key (names as a set, tags, edits) are
// both made of them, and edits of model_ops entries run to megabytes.
void ConfigReader::entryKeys(YNode node, TestEntry& entry)
{
    std::map<std::string, std::string> parts;
    for (const auto& pair : node.pairs()) {
        const std::string& key = scalarOf(pair.first);
        if (key == "names" || key == "mode")
            continue;
        std::string value;
        if (!canonical(pair.second, value))
            m_tooLarge = true;
        parts[key] = std::move(value);
    }
    entry.signature = "{";
    for (const auto& [key, value] : parts)
        entry.signature += key + ':' + value + ',';
    entry.signature += '}';
    std::set<std::string> names;
    for (const NameItem& item : entry.names)
        names.insert(item.name);
    for (const std::string& name : names)
        entry.mergeKey += name + '\n';
    for (const char* part : {"tags", "edits"}) {
        const auto it = parts.find(part);
        entry.mergeKey += '|' + (it == parts.end() ? std::string("~absent") : it->second);
    }
}

TestEntry ConfigReader::readEntry(YNode node)
{
    TestEntry entry;
    entry.pos = nodePos(node);
    if (!checkMap(node, "a tests entry", {"names", "mode", "tags", "labels", "no_grad", "edits"},
                  Severity::Warning))
        return entry;
    for (const auto& pair : node.pairs()) {
        if (scalarOf(pair.first) == "mode") {
            entry.mode = readMode(pair.second);
            entry.modePos = nodePos(pair.second);
        }
    }
    if (node["names"])
        readNames(node["names"], entry);
    else
        add(Severity::Error, node, "a tests entry without names");
    entry.tags = readStrings(node["tags"], "tags");
    entry.labels = readStrings(node["labels"], "labels");
    if (node["labels"])
        useFeature(FrameworkFeature::Labels, node["labels"]);
    if (const YNode noGrad = node["no_grad"]) {
        // TestEntry.no_grad: bool (torch-spyre #3101); pydantic refuses a non-bool.
        useFeature(FrameworkFeature::NoGrad, noGrad);
        const std::string& text = scalarOf(noGrad);
        entry.noGrad = isTrue(text) || text == "1"; // pydantic's lax bool takes 1 and 0
        if (!entry.noGrad && !isFalse(text) && text != "0")
            add(Severity::Error, noGrad,
                "no_grad must be true or false; torch-spyre's framework refuses the whole file");
    }
    if (node["edits"])
        readEdits(node["edits"], entry);
    entryKeys(node, entry);
    return entry;
}

void ConfigReader::readFile(YNode node)
{
    FileSection file;
    file.pos = nodePos(node);
    if (!checkMap(node, "a files entry", {"path", "unlisted_test_mode", "labels", "tests"},
                  Severity::Warning))
        return;
    if (node["labels"]) {
        file.labels = readStrings(node["labels"], "labels");
        useFeature(FrameworkFeature::FileLabels, node["labels"]);
    }
    file.path = scalarOf(node["path"]);
    if (file.path.empty())
        add(Severity::Error, node, "a files entry without a path");
    if (node["unlisted_test_mode"])
        file.unlistedMode = readMode(node["unlisted_test_mode"]);
    file.hasTestsKey = static_cast<bool>(node["tests"]);
    if (const YNode tests = node["tests"]; tests && tests.isSequence()) {
        for (const YNode entry : tests.items())
            file.tests.push_back(readEntry(entry));
    } else if (tests && !tests.isNull()) {
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

void ConfigReader::readGlobal(YNode node)
{
    struct InGlobal {
        bool& flag;
        ~InGlobal() { flag = false; }
    } inGlobal{m_inGlobal = true};
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

void ConfigReader::readRoot(YNode root)
{
    if (!root || root.isNull()) {
        m_out.findings.push_back(
            {Severity::Error, {1, 1}, "the document is empty; a config needs test_suite_config"});
        return;
    }
    // Other top-level keys (real configs carry `cases:`) are the framework's
    // to ignore and ours too.
    if (!checkMap(root, "the document", {"test_suite_config"}, std::nullopt))
        return;
    const YNode suite = root["test_suite_config"];
    if (!suite) {
        add(Severity::Error, root, "no test_suite_config key");
        return;
    }
    if (!checkMap(suite, "test_suite_config", {"labels", "files", "global"}, Severity::Warning))
        return;
    m_out.config.hasLabels = static_cast<bool>(suite["labels"]);
    m_out.config.labels = readStrings(suite["labels"], "labels");
    if (suite["labels"])
        useFeature(FrameworkFeature::Labels, suite["labels"]);
    if (const YNode files = suite["files"]; files && files.isSequence()) {
        for (const YNode file : files.items())
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
