#pragma once
// The semantic model of a torch-spyre outcome config (DOMAIN.md, "torch-spyre
// outcome configs"), with every node's source position, and the findings of
// validating it. Parsing never edits text: config_edit.h splices the text and
// uses this model to prove an edit changed exactly what it meant to.
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

struct NameItem {
    std::string name;
    SourcePos pos;        // where the scalar starts
    bool pattern = false; // contains * ? [ ]: matched whole against base names
};

// A list of `{name: x, ...}` items or bare scalars, as supported lists and
// edits write them.
struct NamedOption {
    std::string name;
    SourcePos pos;
    bool forceXfail = false;
    std::vector<std::string> dtypes; // supported_ops[].dtypes[].name
};

struct IncludeExclude {
    bool hasInclude = false;
    std::vector<std::string> include;
    std::vector<std::string> exclude;
};

struct TestEntry {
    SourcePos pos; // the entry's first key
    std::vector<NameItem> names;
    std::optional<Mode> mode; // absent: mandatory_success
    SourcePos modePos;        // valid when mode is set
    IncludeExclude dtypes;
    IncludeExclude ops;
    // Everything but names and mode, canonically written: two entries with the
    // same signature differ only in names and mode (a "sibling" for a move).
    std::string signature;

    Mode effectiveMode() const { return mode.value_or(Mode::MandatorySuccess); }
};

struct FileSection {
    std::string path; // as written, tokens included
    SourcePos pos;
    std::optional<Mode> unlistedMode;
    bool hasTestsKey = false;
    std::vector<TestEntry> tests;
    std::string signature; // path, unlisted mode and other file-level keys

    // The code default when a file does not set unlisted_test_mode.
    Mode effectiveUnlistedMode() const { return unlistedMode.value_or(Mode::Xfail); }
};

struct GlobalSection {
    bool hasDtypes = false;
    std::vector<NamedOption> supportedDtypes;
    bool hasOps = false;
    std::vector<NamedOption> supportedOps;
    std::vector<NamedOption> supportedModules;
    std::string signature;
};

enum class Severity : unsigned char { Error, Warning };

struct Finding {
    Severity severity = Severity::Error;
    SourcePos pos;
    std::string message;
};

struct OutcomeConfig {
    std::vector<std::string> labels;
    std::vector<FileSection> files;
    GlobalSection global;
    std::size_t aliasCount = 0; // YAML aliases (*x); edits refuse files with any
};

struct ParsedConfig {
    OutcomeConfig config;
    std::vector<Finding> findings; // errors and warnings, in source order

    bool hasErrors() const;
};

struct ParseLimits {
    std::size_t maxAliases = 16;     // configs have no use for aliases; bombs use many
    std::size_t maxBytes = 16 << 20; // the largest real config is ~40 KB
};

// Parses and validates. Returns an error only when the text cannot be read as
// YAML at all (the message carries line:column); everything else a user should
// fix is a finding.
Result<ParsedConfig> parseOutcomeConfig(std::string_view text, const ParseLimits& limits = {});

// "12:5: error: unknown mode 'xfial'" style.
std::string formatFinding(const Finding& finding);

} // namespace relayhud::config
