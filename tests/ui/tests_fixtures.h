#pragma once
// Hand-made test results and histories for the tests-panel tests.
#include "relayhud/model/test_results.h"

#include <QString>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

// Readable QStrings in GoogleTest's failure messages.
inline void PrintTo(const QString& text, std::ostream* os)
{
    *os << '"' << text.toStdString() << '"';
}

namespace relayhud::ui::test {

// A result with identity file::Class::name (no class when `className` is
// empty); testId and the ids of its texts are the caller's.
StoredTestResult result(std::int64_t testId, const std::string& file, const std::string& className,
                        const std::string& name, TestOutcome outcome, const std::string& marks = {},
                        const std::string& message = {});

// A history whose points have the given outcomes, oldest first (nullopt: the
// run lacks the test); SHAs are "sha<i>" padded to 40 characters.
TestHistory history(std::int64_t testId, const std::vector<std::optional<TestOutcome>>& outcomes);

// The results of a JUnit report read from `path`, numbered from 1; empty
// when the report cannot be read.
std::vector<StoredTestResult> resultsFromJunit(const std::string& path);

} // namespace relayhud::ui::test
