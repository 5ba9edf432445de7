#pragma once
// torch-spyre's OOT test framework changed what a config means over time
// (../shared/specs/real-backends.md section 6, from the framework's git
// history: AdnanHoque/torch-spyre and later torch-spyre/torch-spyre versions).
// One table says which field or behaviour arrived when; the parser records
// where a config uses each field, lint names the framework a config needs,
// and the resolver asks whether a behaviour is in force at a framework date.
#include <optional>
#include <string>
#include <string_view>

namespace relayhud::config {

// Fields and behaviours that arrived after the class-based schema (#1013).
enum class FrameworkFeature : unsigned char {
    CpuMove,           // edits.functions.cpu_move[] (#2489)
    Labels,            // TestEntry.labels and test_suite_config.labels (#2923/#2924)
    OpsExcludeRule,    // edits.ops.exclude enforced in _should_run() (#2981)
    NoGrad,            // TestEntry.no_grad (#3101)
    FileLabels,        // files[].labels (filled by the multi-config merge)
    ModuleInputDtypes, // edits.modules.include dtypes from the tensor specs
    InputArgKinds,     // cache, module_path, config_path/model_id input args
    RetriedProperty,   // JUnit testcase property result.retried (mark_retried.py)
};
inline constexpr int kFrameworkFeatureCount = 8;

struct FrameworkChange {
    FrameworkFeature feature;
    std::string_view what;   // "`labels`", "edits.ops.exclude enforced"
    std::string_view since;  // "2026-07-01"; for a change seen only in a later version,
                             // the latest date known to precede it
    bool onlyLater;          // true: dated "later than `since`", not "from `since`"
    std::string_view pr;     // "#2923"
    std::string_view source; // the commit or file that shows it
};

const FrameworkChange& frameworkChange(FrameworkFeature feature);

// "torch-spyre framework from 2026-07-01, #2923" or
// "torch-spyre framework later than 2026-07-08, #3101".
std::string frameworkVersionText(FrameworkFeature feature);

// What explain, coverage and the verdict say where it matters.
inline constexpr std::string_view kOpsExcludeNotEnforced =
    "ops.exclude not enforced before 2026-07-01 (torch-spyre #2981, AdnanHoque/torch-spyre "
    "539fd3b0)";

// A framework date, "YYYY-MM-DD". The resolver's default (none) is the
// current framework, where every change of the table is in force.
struct FrameworkDate {
    std::string iso; // validated "YYYY-MM-DD"
};
// An error message when `text` is not a date of that shape.
std::optional<FrameworkDate> parseFrameworkDate(std::string_view text,
                                                std::string* error = nullptr);

// Whether a framework as of `asOf` has the change (none: the current one).
// A change known only from a later version counts as present on any date
// after its `since` date (the first date it may have been there).
bool frameworkHas(const std::optional<FrameworkDate>& asOf, FrameworkFeature feature);

} // namespace relayhud::config
