#pragma once
// Which outcome an outcome config gives a test from a report, and which entry
// decides it: the precedence of DOMAIN.md walked step by step.
#include "relayhud/config/outcome_config.h"
#include "relayhud/junit/test_identity.h"
#include "relayhud/junit/test_result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// A test as a report names it: "test/test_x.py::TestXPRIVATEUSE1::test_y_spyre_int8",
// "TestXPRIVATEUSE1::test_y_spyre_int8" or a base name "TestX::test_y".
struct TestQuery {
    std::string file; // "" when the config has one file section
    std::string className;
    std::string method;
    TestMarks marks; // op and dtype marks, when the report has them
};

// Splits a node id: the part ending in ".py" is the file, the last part the
// method, anything between the class (nested classes joined by "::").
TestQuery parseTestQuery(std::string_view text);

enum class Decision : unsigned char { ExplicitEntry, Pattern, Unlisted };

struct Explanation {
    std::string baseName;
    std::size_t fileIndex = 0;
    Decision decision = Decision::Unlisted;
    std::optional<std::size_t> entryIndex; // set unless Unlisted
    std::optional<std::size_t> nameIndex;  // the deciding name within that entry
    Mode configMode = Mode::Xfail;         // what the entry (or unlisted_test_mode) says
    Mode finalMode = Mode::Xfail;          // after force_xfail
    bool dropped = false;                  // the variant is not generated at all
    std::vector<std::string> steps;        // one line per precedence step, with line numbers

    // "mandatory_success", ..., or "dropped".
    std::string outcome() const;
};

// The file section a test belongs to, or an error naming the candidates.
Result<std::size_t> findFileSection(const OutcomeConfig& config, std::string_view file);

// fnmatch-style: `*`, `?`, `[abc]`, `[!abc]`, matched against the whole text.
bool globMatch(std::string_view pattern, std::string_view text);

Result<Explanation> explainTest(const OutcomeConfig& config, const TestQuery& query,
                                const BaseNameOptions& options = {});

} // namespace relayhud::config
