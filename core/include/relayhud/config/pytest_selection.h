#pragma once
// What a CI job's own pytest command selects of a config's tests. torch-spyre
// runs its suites with `-v -m "not xfail" --mode=<mode>`
// (../shared/specs/real-backends.md 3.3-3.4: torch-spyre/torch-spyre
// .github/workflows/_upstream_tests_beta_matrix.yaml @1c1da12d; also
// AdnanHoque/torch-spyre .github/workflows/torch_spyre_tests.yaml @8dc6ee97
// L133). The framework marks both xfail and xfail_strict variants with
// pytest.mark.xfail, so `-m "not xfail"` deselects all of them, and every
// unlisted test (default mode xfail): they are absent from the JUnit, which
// is "deselected by the job", not "missing".
//
// The text is a job log or a workflow/action file. Recognised commands:
// a line invoking pytest (`pytest ...`, `python3 -m pytest ...`), run_test.sh
// (which forwards its extra arguments to pytest), a workflow's
// `extra_test_flags:` value, and run-test-suite's echo `Extra flags   : ...`
// (AdnanHoque/torch-spyre .github/actions/run-test-suite/action.yml @e1abccf7
// L126, L153), where bash has already removed the quotes.
#include <cstddef>
#include <string>
#include <string_view>

namespace relayhud::config {

enum class Tri : unsigned char { No, Yes, Unknown };
const char* triName(Tri value); // "no", "yes", "unknown"

struct PytestSelection {
    // Whether the job deselects tests marked xfail (and so every xfail and
    // xfail_strict variant): Unknown when no command was found, or commands
    // disagree, or a marker expression could not be read.
    Tri deselectsXfail = Tri::Unknown;
    bool runxfail = false;      // --runxfail on a command
    std::size_t commands = 0;   // commands read
    std::size_t line = 0;       // 1-based line of the first command read (0: none)
    std::string markExpression; // the first command's -m expression ("" when none)
    std::string why;            // one sentence: what was read, or why it is unknown

    // Whether xfail-mode tests can run at all under this selection.
    bool runsXfailTests() const { return deselectsXfail == Tri::No; }
};

// Reads at most `maxBytes` of `text` (a log may be huge: the rest is not
// read, and the sentence says so when nothing was found before it).
PytestSelection pytestSelectionFromText(std::string_view text,
                                        std::size_t maxBytes = std::size_t{64} << 20);

// Whether a pytest marker expression (`-m`) deselects a test marked only
// `xfail`: Yes when it is false with xfail true and every other marker false;
// Unknown when it does not parse. Iterative (no recursion on outside text),
// at most 1024 characters.
Tri expressionDeselectsXfail(std::string_view expression);

} // namespace relayhud::config
