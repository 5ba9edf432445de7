#pragma once
// The classes a failure can be put in (issue 5's vocabulary), and the one
// table that says everything core knows about each: its name (TSV, JSON
// exchange, the command line), the number SQLite stores, whether a person may
// tag it, whether a rule file may imply it, and where a report lists it.
// Adding a class is a line in the enum and a row in kFailureClasses
// (failure_class.cpp), and a row in the UI's look table (triage_style.cpp);
// docs/ARCHITECTURE.md has the recipe.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::triage {

// The values are what the cache stores (triage_tag.class,
// job_failure_line.class): never renumber one; a new class takes the next.
enum class FailureClass : std::uint8_t {
    Unset = 0, // a rule that names no class
    Regression = 1,
    PreExisting = 2,
    Flaky = 3,
    Infra = 4,
    BackendBug = 5,
    TestOrConfig = 6,
    Expected = 7,
    UnexpectedPass = 8,
    Untriaged = 9, // a cleared tag, or the engine cannot tell
};

// Where a report lists a failure of the class, in this order. As a PR author
// and a backend on-call read it: caused by this PR, already broken upstream,
// broken in the backend, flaky, infra, and the rest. Not stored: a report
// names a section by reportSectionName (verdict/report.h).
enum class ReportSection : std::uint8_t { Regression, Broken, Backend, Flaky, Infra, Other };

struct FailureClassInfo {
    FailureClass value;
    std::string_view name; // "backend bug"; "" for Unset
    bool taggable;         // a person may set it (menus, keys, tag import)
    bool ruleMayImply;     // a rule file's `class` may name it (a log line alone tells)
    ReportSection section;
};

// Every class, in enum order (which is menu order for the taggable ones).
std::span<const FailureClassInfo> failureClasses();
// The row of a class; Unset's row for a value no row has.
const FailureClassInfo& failureClassInfo(FailureClass value);
// The classes a person may set, in menu order.
std::vector<FailureClass> taggableClasses();

// The number SQLite stores, and back: a number no row has (a newer
// RelayHUD's class) reads as Unset, which counts as not triaged.
constexpr std::int64_t storedClass(FailureClass value) { return static_cast<std::int64_t>(value); }
FailureClass classFromStored(std::int64_t stored);
// A class with a row of its own.
bool isKnownClass(FailureClass value);

// "infra", "backend bug", "test or config", ...; "" for Unset.
std::string_view failureClassName(FailureClass value);
// The same with '-' for spaces, for TSV and the command line: "backend-bug".
std::string failureClassSlug(FailureClass value);
// The names a tag may carry, quoted or not: "regression, pre-existing, ...,
// untriaged" (the taggable classes and Untriaged, which clears).
std::string tagClassNames(bool quoted = false);

// Parses a class name case-insensitively, with '-' and '_' read as spaces
// ("backend-bug", "Pre_Existing"): a class a tag may carry (taggable or
// Untriaged), else nullopt.
std::optional<FailureClass> parseTagClass(std::string_view text);
// Parses a rule file's `class` value the same way: only the classes a rule
// may imply parse; the others give nullopt.
std::optional<FailureClass> parseRuleClass(std::string_view text);

} // namespace relayhud::triage
