#pragma once
// The schema walk behind parseOutcomeConfig(): one method per kind of node,
// each adding findings with the node's position.
#include "relayhud/config/outcome_config.h"

#include "relayhud/yaml/yaml_tree.h"

#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace relayhud::config {

using yaml::YNode;

// 1-based line and column of a node; {0, 0} for a missing one.
inline SourcePos nodePos(YNode node)
{
    if (!node)
        return {};
    return {node.line() + 1, node.column() + 1};
}

class ConfigReader {
public:
    ConfigReader(ParsedConfig& out, const ParseLimits& limits);
    void readRoot(YNode root);

private:
    void add(Severity severity, YNode node, std::string message);
    bool canonical(YNode node, std::string& out);
    bool canonicalMap(YNode node, std::initializer_list<std::string_view> skip, std::string& out);
    std::string signatureOf(YNode map, std::initializer_list<std::string_view> skip);
    // How list items may be written: what pydantic accepts for that list.
    enum class ItemShape : unsigned char {
        NameOrMap, // supported_ops, supported_modules: "add" or {name: add, ...}
        Map,       // edits.ops/modules items: {name: x, ...}
        DtypeMap,  // dtype items: {name: float16, ...}, the name a config dtype
    };

    // Unknown keys get a finding of `unknownSeverity`, none when unset.
    bool checkMap(YNode node, std::string_view what, std::initializer_list<std::string_view> known,
                  std::optional<Severity> unknownSeverity);
    std::optional<Mode> readMode(YNode node);
    void checkDtype(const std::string& name, YNode node);
    std::vector<std::string> readStrings(YNode list, std::string_view what);
    std::vector<NamedOption> readOptions(YNode list, std::string_view what, ItemShape shape);
    IncludeExclude readIncludeExclude(YNode node, std::string_view what, ItemShape shape);
    void readEdits(YNode node, TestEntry& entry);
    void readModuleItems(YNode list, TestEntry& entry);
    void readOpItems(YNode list);
    // edits.inputs-shaped blocks (oot_test_config_models.py InputsEdits);
    // the floating dtypes of tensor specs go to `dtypes` when given.
    void readInputs(YNode node, std::string_view what, std::set<std::string>* dtypes);
    void readInputArg(YNode arg, std::string_view what, std::set<std::string>* dtypes);
    void readTensorSpec(YNode spec, std::string_view what, std::set<std::string>* dtypes);
    void useFeature(FrameworkFeature feature, YNode node, std::string detail = {});
    void readName(YNode item, TestEntry& entry);
    void readNames(YNode node, TestEntry& entry);
    void entryKeys(YNode node, TestEntry& entry);
    TestEntry readEntry(YNode node);
    void readFile(YNode node);
    void checkDuplicateNames(const FileSection& file);
    void readGlobal(YNode node);

    ParsedConfig& m_out;
    const ParseLimits& m_limits;
    bool m_tooLarge = false;
    bool m_inGlobal = false;
};

} // namespace relayhud::config
