#pragma once
// What a pytest JUnit XML report says about each test case (DOMAIN.md,
// "pytest JUnit XML"), in a shape the store and the tests table share.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

enum class TestOutcome : unsigned char {
    Passed,      // includes a non-strict XPASS: pytest records it as passed
    Failed,      // <failure>
    Error,       // <error>: setup or teardown broke
    Skipped,     // <skipped>, any type but pytest.xfail
    XFailed,     // <skipped type="pytest.xfail">: failed as expected
    XPassStrict, // <failure> whose message says XPASS strict: passed, but must not
};
inline constexpr std::size_t kTestOutcomeCount = 6;

// "passed", "failed", "error", "skipped", "xfailed", "xpass-strict".
const char* outcomeName(TestOutcome outcome);

enum class MarkKind : unsigned char { Op, Dtype, Module, Platform, TestType, Model, Other };

struct Mark {
    MarkKind kind = MarkKind::Other;
    std::string value; // "add" for op__add; the whole tag for Other

    bool operator==(const Mark&) const = default;
};

// torch-spyre's marks, from `<property name="tag" value="op__add"/>`, in
// report order. Every mark is kept, not the first of each kind: a case can
// carry several of a kind (a test over a tuple of dtypes has one tag per
// dtype, a run has several testtype labels), and the base-name derivation
// must try every op a case was tagged with. One vector rather than one per
// kind keeps a case small: 100,000 of them are held at once.
struct TestMarks {
    std::vector<Mark> items;

    // Views into the marks: so never of a temporary (a loop over
    // parseMarkTags(text).values(...) would read freed memory).
    std::vector<std::string_view> values(MarkKind kind) const&;
    std::vector<std::string_view> values(MarkKind kind) const&& = delete;
    bool has(MarkKind kind, std::string_view value) const;
    bool empty() const { return items.empty(); }
};

// A message or traceback, capped for keeping inline: `text` holds at most the
// reader's inline limit (cut on a UTF-8 boundary, sanitised); `fullBytes` is
// the length of the whole text as the report has it.
struct CappedText {
    std::string text;
    std::size_t fullBytes = 0;
    bool cut = false;
};

struct TestCaseResult {
    std::string file;      // the collected module, "test/test_ops.py"
    std::string className; // "TestCommonPRIVATEUSE1"; nested classes joined by "::"
    std::string name;      // "test_compare_cpu_add_spyre_float16"
    std::string identity;  // pytest's node id: file::Class::name
    std::string baseName;  // the outcome configs' name: "TestCommon::test_compare_cpu"
    TestOutcome outcome = TestOutcome::Passed;
    // torch-spyre's `result.retried` property as written: "" (not retried) or a
    // comma list of signal, stall and pod, innermost retry first.
    std::string retried;
    double durationSeconds = 0.0;
    int line = 0; // the `line` attribute as the report writes it, 0 when absent
    TestMarks marks;
    CappedText message;   // message attribute of the deciding failure/error/skipped
    CappedText traceback; // that element's text
};

// The figures of a <testsuite> element: tests, failures, errors, skipped.
struct JunitTotals {
    std::size_t tests = 0;
    std::size_t failures = 0;
    std::size_t errors = 0;
    std::size_t skipped = 0;

    bool operator==(const JunitTotals&) const = default;
};

// Where the XML stopped being readable; the cases before it are kept.
struct ParseBreak {
    std::size_t byteOffset = 0;
    bool endsEarly = false; // truncated, rather than malformed in the middle
    std::string message;    // "XML ends unexpectedly at byte N; kept the M test cases before it"
};

struct JunitReport {
    std::vector<TestCaseResult> cases;
    std::size_t suiteCount = 0;
    // Summed over the <testsuite> attributes; what the report claims.
    JunitTotals declared;
    // The same figures counted from the cases the way pytest counts them: an
    // element of each kind counts once, so xfails are "skipped" and a case
    // that failed and then errored in teardown is in both failures and errors.
    JunitTotals counted;
    std::array<std::size_t, kTestOutcomeCount> outcomes{};
    std::vector<std::string> warnings;
    std::optional<ParseBreak> parseBreak;

    std::size_t count(TestOutcome outcome) const;
};

} // namespace relayhud
