#pragma once
// The schema walk behind parseOutcomeConfig(): one method per kind of node,
// each adding findings with the node's position.
#include "relayhud/config/outcome_config.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace YAML {
class Node;
}

namespace relayhud::config {

class ConfigReader {
public:
    ConfigReader(ParsedConfig& out, const ParseLimits& limits);
    void readRoot(const YAML::Node& root);

private:
    void add(Severity severity, const YAML::Node& node, std::string message);
    bool canonical(const YAML::Node& node, std::string& out);
    bool canonicalMap(const YAML::Node& node, std::initializer_list<std::string_view> skip,
                      std::string& out);
    std::string signatureOf(const YAML::Node& map, std::initializer_list<std::string_view> skip);
    // How list items may be written: what pydantic accepts for that list.
    enum class ItemShape : unsigned char {
        NameOrMap, // supported_ops, supported_modules: "add" or {name: add, ...}
        Map,       // edits.ops/modules items: {name: x, ...}
        DtypeMap,  // dtype items: {name: float16, ...}, the name a config dtype
    };

    // Unknown keys get a finding of `unknownSeverity`, none when unset.
    bool checkMap(const YAML::Node& node, std::string_view what,
                  std::initializer_list<std::string_view> known,
                  std::optional<Severity> unknownSeverity);
    std::optional<Mode> readMode(const YAML::Node& node);
    void checkDtype(const std::string& name, const YAML::Node& node);
    std::vector<std::string> readStrings(const YAML::Node& list, std::string_view what);
    std::vector<NamedOption> readOptions(const YAML::Node& list, std::string_view what,
                                         ItemShape shape);
    IncludeExclude readIncludeExclude(const YAML::Node& node, std::string_view what,
                                      ItemShape shape);
    void readEdits(const YAML::Node& node, TestEntry& entry);
    void readName(const YAML::Node& item, TestEntry& entry);
    void readNames(const YAML::Node& node, TestEntry& entry);
    std::string mergeKeyOf(const YAML::Node& node, const TestEntry& entry);
    TestEntry readEntry(const YAML::Node& node);
    void readFile(const YAML::Node& node);
    void checkDuplicateNames(const FileSection& file);
    void readGlobal(const YAML::Node& node);

    ParsedConfig& m_out;
    const ParseLimits& m_limits;
    bool m_tooLarge = false;
};

} // namespace relayhud::config
