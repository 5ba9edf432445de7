#pragma once
// Measuring a rule set against hand-marked logs (../shared/corpus/logs/):
// a fixture may start with a "#=SOURCE=# URL" line, marks the line that
// explains the failure with a leading "#=MATCH=# " and wraps the expected
// captures in "‹ ›". A fixture without a MATCH line expects no match.
#include "relayhud/triage/classifier.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::triage {

struct MarkedLog {
    std::string text;                          // the log with every mark removed
    std::optional<std::uint64_t> expectedLine; // in `text`, from 1
    // The "‹ ›" spans of the MATCH line, escapes removed; empty when unmarked.
    std::vector<std::string> expectedCaptures;
};

MarkedLog parseMarkedLog(std::string_view fixture);

struct AccuracyCase {
    std::string file; // name within the folder
    std::optional<std::uint64_t> expectedLine;
    std::optional<FailureLine> verdict;
    bool agrees() const;
};

struct AccuracyReport {
    std::vector<AccuracyCase> cases; // by file name
    std::size_t agreeing() const;
    double percent() const; // 0-100; 0 for no cases
};

// Every regular file in `dir`, classified. An error when the folder or a file
// cannot be read, or holds no fixtures.
Result<AccuracyReport> measureAccuracy(const Classifier& classifier, const std::string& dir);

} // namespace relayhud::triage
