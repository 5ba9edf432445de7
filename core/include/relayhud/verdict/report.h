#pragma once
// Shareable reports: Markdown for one run or one upstream SHA across
// backends, ready to paste into a PR comment or an issue, and CSV of the
// per-job table. Everything from CI (test names, messages, reasons) is
// escaped, so a hostile name can neither break a table nor inject HTML.
//
// The failure classes come in as a plain list (ClassifiedFailure), so who
// classifies is the caller's business: failuresFromResults() fills it from
// the stored test results today; the triage engine can fill it instead.
#include "relayhud/verdict/verdict.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {
class Cache;
}

namespace relayhud::verdict {

// Against the previous SHA's run of the same job.
enum class Novelty : std::uint8_t { Unknown, New, PreExisting };
const char* noveltyName(Novelty novelty); // "unknown", "new", "pre-existing"

struct ClassifiedFailure {
    std::int64_t checkRunRow = 0;
    std::string test;      // the report's identity; "" for a job-level failure
    std::string className; // "untriaged", "unexpected pass", "expected failure", ...
    std::string why;       // one sentence: why this class
    std::string line;      // the failure line, or the message's first line
    Novelty novelty = Novelty::Unknown;
    Sha baseSha; // the previous SHA compared with ("" when none); the compare link's base
};

struct ReportInput {
    Sha sha; // the upstream SHA the report is about
    std::string upstreamRepo = "pytorch/pytorch";
    std::vector<RunVerdict> jobs;            // one per job (newest attempt)
    std::vector<ClassifiedFailure> failures; // of those jobs, by checkRunRow
};

struct ReportOptions {
    std::size_t openListLimit = 10; // longer lists go into a collapsed <details>
    // Rows per table; the rest is counted, not listed (a GitHub comment holds
    // at most 65,536 characters). The CSV and the CLI have them all.
    std::size_t maxRows = 50;
};

std::string markdownReport(const ReportInput& input, const ReportOptions& options = {});
// RFC 4180: CRLF line ends, a header row, fields quoted when they hold a
// comma, quote, CR or LF.
std::string csvReport(const ReportInput& input);

// Text from CI as Markdown that renders as the same text: punctuation
// backslash-escaped, <>& as entities, line breaks as spaces.
std::string escapeMarkdown(std::string_view text);
// A code span for a table cell that holds `text` whatever backticks or pipes
// it contains.
std::string markdownCode(std::string_view text);
std::string csvField(std::string_view text);

// https://github.com/pytorch/pytorch/compare/BASE...HEAD
std::string compareUrl(std::string_view upstreamRepo, const Sha& base, const Sha& head);

// The verdicts of every job's newest attempt on `sha` (or only of
// `checkRunRow`, which must be a run of that SHA), ordered by backend,
// workflow and job; failures are left to the caller.
Result<ReportInput> loadReportInput(const Cache& cache, const Sha& sha,
                                    std::optional<std::int64_t> checkRunRow,
                                    const VerdictSources& sources);

// The stand-in classifier: each failed, errored, strictly xpassed or
// xfailed case of the job's stored results, "untriaged" unless its outcome
// says what it is; new or pre-existing by the previous SHA's run of the same
// job (Cache::testHistory). A red job without a failing case gets one
// job-level entry.
Result<std::vector<ClassifiedFailure>> failuresFromResults(const Cache& cache,
                                                           const RunVerdict& job);

} // namespace relayhud::verdict
