#pragma once
// The classes a failure can be put in (issue 5's vocabulary). A rule may imply
// one of them for the failures whose line it picks; a regression is never a
// rule's call (it needs a baseline), so rule files can only name the few a
// log line alone can tell.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relayhud::triage {

enum class FailureClass : std::uint8_t {
    Unset, // a rule that names no class
    Regression,
    PreExisting,
    Flaky,
    Infra,
    BackendBug,
    TestOrConfig,
    Expected,
    UnexpectedPass,
    Untriaged,
};

// "infra", "backend bug", "test or config", ...; "" for Unset.
std::string_view failureClassName(FailureClass value);
// The same with '-' for spaces, for TSV and the command line: "backend-bug".
std::string failureClassSlug(FailureClass value);

// Parses a rule file's `class` value: "infra", "backend bug" ("backend-bug"
// and "backend_bug" too), "test or config"; case-insensitive. Only the
// classes a rule may imply parse; the others give nullopt.
std::optional<FailureClass> parseRuleClass(std::string_view text);

} // namespace relayhud::triage
