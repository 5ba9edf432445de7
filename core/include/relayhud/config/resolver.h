#pragma once
// The one place that decides what an outcome config does to a test variant,
// exactly as torch-spyre's OOT framework decides it
// (../shared/specs/spyre-config-semantics.md, citing torch-spyre/torch-spyre
// tests/oot_framework/ @539fd3b0): the file section (path tokens, wrapper
// files), the base method, the candidate entries (exact listings in YAML
// order, then regex listings), the dtype-aware choice between them, the
// filters (labels, dtype, op exclusion), force_xfail and the mode.
// explain, the verdict, coverage, suggestions, edits and the simulator all
// ask it; nothing else decides.
#include "relayhud/config/outcome_config.h"
#include "relayhud/util/result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// A variant as a report (or a user) names it.
struct VariantQuery {
    std::string file;      // "test/test_x.py" or its wrapper; "" when the config has one section
    std::string className; // "TestXPRIVATEUSE1"; the framework never looks at it
    std::string method;    // "test_y_add_spyre_float16"
    // The op marks of the case, or the op a user named: raw OpInfo names or
    // torch-spyre's sanitised marks (`copy_` or `copy`), tried in turn.
    std::vector<std::string> ops;
    // Seen in a report: it was generated, so the generation-time filters
    // (supported_ops, per-op dtypes) can only have kept it; they become notes.
    bool observed = false;
};

struct ResolveContext {
    // TORCH_SPYRE_TEST_TYPE; unset reads as "full" (oot_test_base_common.py:374-387).
    std::optional<std::string> testType;
    std::string device = "spyre"; // the PRIVATEUSE1 backend name in method names
    // The framework a run used, as of a date (framework_age.h); none: the
    // current one. Where behaviour changed, the resolver decides as that
    // framework did: before 2026-07-01 edits.ops.exclude was not enforced
    // (torch-spyre #2981, AdnanHoque/torch-spyre 539fd3b0) and labels did not
    // exist (#2923, 8dc6ee97), so neither drops a variant.
    std::optional<FrameworkDate> frameworkAsOf;
};

enum class Outcome : unsigned char {
    MandatorySuccess,
    Xfail,
    XfailStrict,
    Skip,    // deleted before collection by its mode
    Dropped, // never generated, or deleted before collection by a filter
    CannotJudge,
};

// "mandatory_success", "xfail", "xfail_strict", "skip", "dropped", "cannot_judge".
const char* outcomeName(Outcome outcome);
Outcome outcomeOf(Mode mode);

enum class Decision : unsigned char {
    Exact,    // an exact listing of the base method
    Regex,    // a regex listing that fullmatches it
    OpIndex,  // test_model_ops_db's n-th edits.ops.include item (spec 5.3)
    Unlisted, // no candidate: the section's unlisted_test_mode
};

// The step that removed the variant (spec 6, steps 1-5).
// ModuleDtypes: a dtype a registered edits.modules.include module is not
// generated in (registeredModuleDtypes, outcome_config.h).
enum class DropStep : unsigned char {
    None,
    SupportedOps,
    OpDtypes,
    Labels,
    Dtype,
    OpExclude,
    ModuleDtypes
};

struct Candidate {
    std::size_t entry = 0;
    std::size_t name = 0; // the name of that entry that made it a candidate
    bool regex = false;
};

struct Resolution {
    Outcome outcome = Outcome::Xfail;
    std::size_t fileIndex = 0;
    std::string baseMethod;
    std::string op;                    // the op cut from the name, as given; "" when none
    std::optional<std::string> dtype;  // read from the variant name, canonical
    std::vector<Candidate> candidates; // in the framework's order
    Decision decision = Decision::Unlisted;
    std::optional<std::size_t> entryIndex; // the deciding entry
    std::optional<std::size_t> nameIndex;  // its name that made it a candidate
    Mode configMode = Mode::Xfail;         // the entry's mode or unlisted_test_mode
    Mode finalMode = Mode::Xfail;          // after force_xfail; what runs unless dropped
    DropStep droppedBy = DropStep::None;
    std::string dropReason;
    std::string cannotJudge; // why, when outcome is CannotJudge
    // With explain: the generation filters an observed variant passed, the file
    // the framework fails collecting.
    std::vector<std::string> notes;
    std::vector<std::string> steps; // with explain: one line per step, with line numbers

    bool dropped() const { return outcome == Outcome::Dropped; }
    // Collected and run (a report shows it).
    bool runs() const
    {
        return outcome == Outcome::MandatorySuccess || outcome == Outcome::Xfail
               || outcome == Outcome::XfailStrict;
    }
};

class Resolver {
public:
    // Indexes every section once: exact names by method, regex names in one
    // RE2::Set, test_model_ops_db's op-index map. `config` must outlive it.
    explicit Resolver(const OutcomeConfig& config);
    ~Resolver();
    Resolver(Resolver&&) noexcept;
    Resolver& operator=(Resolver&&) = delete;
    Resolver(const Resolver&) = delete;

    const OutcomeConfig& config() const { return m_config; }

    // The first section whose path (token removed) is the file's, after
    // mapping a wrapper back to its original (oot_test_parsing.py:77-98, 246-259).
    Result<std::size_t> sectionFor(std::string_view file) const;

    // With `explain`, Resolution::steps says what each step decided.
    Result<Resolution> resolve(const VariantQuery& query, const ResolveContext& context = {},
                               bool explain = false) const;

    // The candidates of a base method in a section, in the framework's order;
    // regexes RE2 cannot run are left out.
    std::vector<Candidate> candidatesFor(std::size_t section, std::string_view baseMethod) const;

    // Whether a name fullmatches a base method: exact compare, or the regex
    // (false for a regex RE2 cannot run).
    bool nameMatches(std::size_t section, std::size_t entry, std::size_t name,
                     std::string_view baseMethod) const;

    struct Section; // one file section's index (resolver_index.h)
    struct Globals; // the global section's

private:
    const OutcomeConfig& m_config;
    std::unique_ptr<Globals> m_globals;
    std::vector<std::unique_ptr<Section>> m_sections;
};

} // namespace relayhud::config
