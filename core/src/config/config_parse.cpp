// Reads an outcome config into the model of outcome_config.h with yaml-cpp,
// which keeps node marks (line/column) but not comments: positions are all the
// editor needs from it, since edits splice the original text.
#include "config_reader.h"

#include "relayhud/junit/test_identity.h"
#include "relayhud/util/utf8.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
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

bool isPatternName(std::string_view name)
{
    return name.find_first_of("*?[]") != std::string_view::npos;
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
                            std::initializer_list<std::string_view> known, Severity unknownSeverity)
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
        else if (std::find(known.begin(), known.end(), key) == known.end())
            add(unknownSeverity, pair.first, "unknown key '" + key + "' in " + std::string(what));
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
    // torch-spyre's framework also accepts "half" (torch.half is float16):
    // oot_test_constants.py:42-60 _VALID_DTYPE_STRINGS @539fd3b0.
    if (!isTorchDtypeName(name) && name != "half")
        add(Severity::Error, node, "unknown dtype '" + name + "'");
}

// `[add, {name: mul, force_xfail: true, dtypes: [...]}]`: bare scalars or maps.
std::vector<NamedOption> ConfigReader::readOptions(const YAML::Node& list, std::string_view what,
                                                   bool dtypes)
{
    std::vector<NamedOption> out;
    if (!list)
        return out;
    if (!list.IsSequence()) {
        if (!list.IsNull())
            add(Severity::Error, list, std::string(what) + " must be a list");
        return out;
    }
    for (const YAML::Node& item : list) {
        NamedOption option;
        option.pos = posOf(item);
        if (item.IsScalar()) {
            option.name = item.Scalar();
        } else if (checkMap(item, what, {"name", "force_xfail", "dtypes", "precision"},
                            Severity::Warning)) {
            option.name = scalarOf(item["name"]);
            if (item["force_xfail"])
                option.forceXfail = scalarOf(item["force_xfail"]) == "true";
            for (const NamedOption& dtype : readOptions(item["dtypes"], "dtypes", true))
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
                                                bool dtypes)
{
    IncludeExclude out;
    if (!checkMap(node, what, {"include", "exclude"}, Severity::Error))
        return out;
    if (node["include"]) {
        out.hasInclude = true;
        for (const NamedOption& option : readOptions(node["include"], what, dtypes))
            out.include.push_back(option.name);
    }
    for (const NamedOption& option : readOptions(node["exclude"], what, dtypes))
        out.exclude.push_back(option.name);
    return out;
}

void ConfigReader::readEdits(const YAML::Node& node, TestEntry& entry)
{
    if (!checkMap(node, "edits", {"ops", "dtypes", "modules", "functions"}, Severity::Error))
        return;
    if (node["dtypes"])
        entry.dtypes = readIncludeExclude(node["dtypes"], "edits.dtypes", true);
    if (node["ops"])
        entry.ops = readIncludeExclude(node["ops"], "edits.ops", false);
    if (node["modules"])
        readIncludeExclude(node["modules"], "edits.modules", false);
    if (node["functions"])
        checkMap(node["functions"], "edits.functions", {"cpu_move"}, Severity::Warning);
}

void ConfigReader::readNames(const YAML::Node& node, TestEntry& entry)
{
    if (!node.IsSequence()) {
        add(Severity::Error, node, "names must be a list of test names");
        return;
    }
    for (const YAML::Node& item : node) {
        if (!item.IsScalar() || item.Scalar().empty()) {
            add(Severity::Error, item, "a name must be a non-empty string");
            continue;
        }
        entry.names.push_back({item.Scalar(), posOf(item), isPatternName(item.Scalar())});
    }
}

TestEntry ConfigReader::readEntry(const YAML::Node& node)
{
    TestEntry entry;
    entry.pos = posOf(node);
    if (!checkMap(node, "a tests entry", {"names", "mode", "tags", "labels", "no_grad", "edits"},
                  Severity::Error))
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
    if (node["edits"])
        readEdits(node["edits"], entry);
    entry.signature = signatureOf(node, {"names", "mode"});
    return entry;
}

void ConfigReader::readFile(const YAML::Node& node)
{
    FileSection file;
    file.pos = posOf(node);
    if (!checkMap(node, "a files entry", {"path", "unlisted_test_mode", "tests", "input_config"},
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

void ConfigReader::checkDuplicateNames(const FileSection& file)
{
    std::map<std::string, SourcePos> seen;
    for (const TestEntry& entry : file.tests) {
        for (const NameItem& item : entry.names) {
            const auto [at, inserted] = seen.emplace(item.name, item.pos);
            if (!inserted)
                m_out.findings.push_back({Severity::Warning, item.pos,
                                          "'" + item.name + "' is listed again (first at line "
                                              + std::to_string(at->second.line)
                                              + "); the first listing decides"});
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
        global.supportedDtypes = readOptions(node["supported_dtypes"], "supported_dtypes", true);
    }
    if (node["supported_ops"]) {
        global.hasOps = true;
        global.supportedOps = readOptions(node["supported_ops"], "supported_ops", false);
    }
    if (node["supported_modules"])
        global.supportedModules =
            readOptions(node["supported_modules"], "supported_modules", false);
    global.signature = signatureOf(node, {});
}

void ConfigReader::readRoot(const YAML::Node& root)
{
    if (!checkMap(root, "the document", {"test_suite_config"}, Severity::Warning))
        return;
    const YAML::Node suite = root["test_suite_config"];
    if (!suite) {
        add(Severity::Error, root, "no test_suite_config key");
        return;
    }
    if (!checkMap(suite, "test_suite_config", {"labels", "files", "global", "input_config"},
                  Severity::Warning))
        return;
    for (const NamedOption& label : readOptions(suite["labels"], "labels", false))
        m_out.config.labels.push_back(label.name);
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
