#pragma once
// The semantic model of a torch-spyre outcome config (DOMAIN.md, "torch-spyre
// outcome configs"), with every node's source position, and the findings of
// validating it. Parsing never edits text: config_edit.h splices the text and
// uses this model to prove an edit changed exactly what it meant to.
#include "relayhud/config/framework_age.h"
#include "relayhud/config/name_regex.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

enum class Mode : unsigned char { MandatorySuccess, Xfail, XfailStrict, Skip };

// "mandatory_success", "xfail", "xfail_strict", "skip".
const char* modeName(Mode mode);
std::optional<Mode> parseMode(std::string_view text);

// 1-based line and column, as editors and compilers print them.
struct SourcePos {
    std::size_t line = 0;
    std::size_t column = 0;
};
// "line 12": where a thing is, as the explanations and warnings say it.
std::string lineText(const SourcePos& pos);

// One `names` item. The framework keys it by its method part alone
// (spyre_names.h): "TestA::test_x" governs test_x in every class.
struct NameItem {
    std::string name;      // as written: "TestA::test_x", "test_x", "Test.*::test_(a|b).*"
    SourcePos pos;         // where the scalar starts
    std::string method;    // the part the framework matches: "test_x"
    std::string classPart; // never checked; kept for display and edits
    bool regex = false;    // the method part is a Python regex, fullmatched
    // For a regex: whether RE2 can run it (name_regex.h). Invalid fails the
    // framework's collection of the whole file; Unsupported cannot be judged.
    RegexStatus regexStatus = RegexStatus::Ok;
};

// A list of `{name: x, ...}` items or bare scalars, as supported lists and
// edits write them.
struct NamedOption {
    std::string name;
    std::string canonical; // the whole item, canonically written (merges compare it)
    SourcePos pos;
    bool forceXfail = false;
    std::vector<std::string> dtypes; // supported_ops[].dtypes[].name
};

// edits.<kind>.include / exclude: the items' names (dtype names as written;
// compare them through canonicalDtype()).
struct IncludeExclude {
    bool hasInclude = false;
    std::vector<std::string> include;
    std::vector<std::string> exclude;
};

// An edits.modules.include item. One with a module_path is registered into
// module_db, and the dtype variants @modules generates for it depend on the
// framework's age (registeredModuleDtypes).
struct ModuleItem {
    std::string name;
    SourcePos pos;
    bool hasModulePath = false;
    // The floating dtypes of its tensor / tensor_list specs in
    // constructor_inputs and forward_inputs (sample_inputs_func when
    // forward_inputs is absent), args and kwargs alike, canonical and sorted:
    // ModulesNamedItem.resolved_input_dtypes (torch-spyre/torch-spyre
    // tests/oot_framework/oot_test_config_models.py@1591b63f).
    std::vector<std::string> inputDtypes;
};

// The dtype variants @modules generates for a registered module under a
// framework as of `asOf`: later frameworks take the tensor specs' floating
// dtypes, or float32, float16 and bfloat16 when it has none (a later
// oot_test_base_common.py _register_custom_modules_from_edits); up to
// 2026-07-01 always float32 and float16 (AdnanHoque/torch-spyre
// tests/oot_framework/oot_test_base_common.py@539fd3b0 L280-286).
std::vector<std::string> registeredModuleDtypes(const ModuleItem& item,
                                                const std::optional<FrameworkDate>& asOf);

// Where a config first uses a field that only some framework ages know.
struct FeatureUse {
    FrameworkFeature feature = FrameworkFeature::Labels;
    SourcePos pos;
    std::string detail; // "cache", "module_path", ... for input arg kinds
};

struct TestEntry {
    SourcePos pos; // the entry's first key
    std::vector<NameItem> names;
    std::optional<Mode> mode; // absent: mandatory_success
    SourcePos modePos;        // valid when mode is set
    std::vector<std::string> tags;
    std::vector<std::string> labels; // checked against TORCH_SPYRE_TEST_TYPE
    IncludeExclude dtypes;
    IncludeExclude ops;     // include never adds an op; exclude drops by name or "<name>_" prefix
    IncludeExclude modules; // applies to every @modules test of the file section
    std::vector<ModuleItem> moduleItems; // modules.include, with their input dtypes
    std::vector<std::string> cpuMove;    // edits.functions.cpu_move names
    bool noGrad = false;                 // TestEntry.no_grad (module test_forward)
    // Everything but names and mode, canonically written: two entries with the
    // same signature differ only in names and mode (a "sibling" for a move).
    std::string signature;
    // What run_test.sh's merge compares to drop a repeated block: the set of
    // names, the tags and the edits (oot_test_utilities.py:597-660).
    std::string mergeKey;
    std::size_t origin = 0; // index into OutcomeConfig::origins (merged configs)

    Mode effectiveMode() const { return mode.value_or(Mode::MandatorySuccess); }
};

struct FileSection {
    std::string path; // as written, tokens included
    SourcePos pos;
    std::optional<Mode> unlistedMode;
    // FileEntry.labels: run_test.sh's merge fills it with the origin
    // config's suite labels; a hand-written config does not set it.
    std::vector<std::string> labels;
    bool hasTestsKey = false;
    std::vector<TestEntry> tests;
    std::string signature; // path, unlisted mode and other file-level keys
    std::size_t origin = 0;

    // The code default when a file does not set unlisted_test_mode.
    Mode effectiveUnlistedMode() const { return unlistedMode.value_or(Mode::Xfail); }
};

struct GlobalSection {
    bool hasDtypes = false;
    std::vector<NamedOption> supportedDtypes; // empty (or absent): no dtype filter
    bool hasOps = false;
    std::vector<NamedOption> supportedOps; // empty (or absent): no op filter
    bool hasModules = false;
    std::vector<NamedOption> supportedModules;
    std::string signature;

    bool filtersDtypes() const { return !supportedDtypes.empty(); }
};

enum class Severity : unsigned char { Error, Warning };

struct Finding {
    Severity severity = Severity::Error;
    SourcePos pos;
    std::string message;
};

struct OutcomeConfig {
    // The suite's labels choose which config files a CI job runs
    // (utils/filter_configs.py:102-133); absent means ["full"].
    bool hasLabels = false;
    std::vector<std::string> labels;
    std::vector<FileSection> files;
    GlobalSection global;
    std::size_t aliasCount = 0; // YAML aliases (*x); edits refuse files with any
    // The files a merged config came from, in order; empty for one file.
    std::vector<std::string> origins;
    bool hasInputConfig = false;
    std::string inputConfig; // global.input_config, canonically written
    // The first use of each field a framework age may lack (and each
    // input-arg kind), in source order.
    std::vector<FeatureUse> featureUses;
};

struct ParsedConfig {
    OutcomeConfig config;
    std::vector<Finding> findings; // errors and warnings, in source order

    bool hasErrors() const;
};

struct ParseLimits {
    std::size_t maxAliases = 16;     // configs have no use for aliases; bombs use many
    std::size_t maxBytes = 16 << 20; // the largest real config is ~1.5 MB (model_ops)
};

// Parses and validates. Returns an error only when the text cannot be read as
// YAML at all (the message carries line:column); everything else a user should
// fix is a finding.
Result<ParsedConfig> parseOutcomeConfig(std::string_view text, const ParseLimits& limits = {});

// "12:5: error: unknown mode 'xfial'" style.
std::string formatFinding(const Finding& finding);

} // namespace relayhud::config
