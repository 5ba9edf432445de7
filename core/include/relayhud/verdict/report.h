#pragma once
// Shareable reports: Markdown for one run or one upstream SHA across
// backends, ready to paste into a PR comment or an issue, and CSV of the
// per-job table with every classified failure. Everything from CI (test
// names, messages, reasons) is escaped, so a hostile name can neither break a
// table nor inject HTML.
//
// Failures come in as a plain list (ClassifiedFailure): failuresFromResults()
// fills it from the cache, a person's triage tag over the suggestion engine's
// class (triage/suggest.h), so the report says what the HUD's triage says.
#include "relayhud/model/failure_class.h"
#include "relayhud/verdict/merge_gating.h"
#include "relayhud/verdict/verdict.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::verdict {

// Where a failure goes in the Markdown report, in this order: its class's
// section (model/failure_class.h).
using triage::ReportSection;
const char* reportSectionName(ReportSection section); // "this PR", "broken upstream", ...

struct ClassifiedFailure {
    CheckRunRow checkRunRow; // the job in the report (its newest attempt)
    int attempt = 1;         // the attempt it failed on (a flaky one: an earlier one)
    std::string test;        // the report's identity; "" for a job-level failure
    triage::FailureClass cls = triage::FailureClass::Untriaged;
    // Who decided cls: a person's tag ("" when the suggestion engine did).
    std::string taggedBy;
    std::string bugUrl;        // from the tag
    std::string why;           // the engine's sentence, or the tag's note
    std::string line;          // the test message's first line, or the job's failure line
    std::uint64_t logLine = 0; // the job log line of `line` (job-level), 0: unknown
    bool failedBefore =
        false;              // this PR's previous head (a nightly: the previous one) failed it too
    Sha baseSha;            // that previous head's SHA ("" when none)
    std::string compareUrl; // baseSha...this SHA: two heads of one PR, or two nightlies'
                            // main commits ("" when none); never two PRs' heads
    std::string changeUrl;  // this PR's files ("" for a nightly)
    PrNumber culpritPr;     // broken upstream: the PR that failed it first, on its own
    std::string culpritUrl; // ... and its files
    std::string firstSeen;  // broken upstream: "#158123 (3fa9c21) at 2026-12-03T09:40:00Z"
    int rerunAttempt = 0;   // flaky: the attempt that passed (0: none) ...
    std::string rerunUrl;   // ... and its run
    std::string group;      // infra: the outage it belongs to
    std::string runUrl;     // of the attempt it failed on
    std::string logUrl;     // that attempt's job log

    bool tagged() const { return !taggedBy.empty(); }
};
ReportSection sectionOf(const ClassifiedFailure& failure);

struct ReportInput {
    Sha sha; // the upstream SHA the report is about
    std::string upstreamRepo = "pytorch/pytorch";
    std::vector<RunVerdict> jobs;            // one per job (newest attempt)
    std::vector<ClassifiedFailure> failures; // of those jobs, by checkRunRow
    // The PR's merge gating when the SHA is a PR head (verdict/merge_gating.h).
    std::optional<MergeGating> gating;
    // The commit a job really tested where it is not the SHA's own (a merged
    // PR's build of its base's HEAD; model/tested_commit.h), by checkRunRow:
    // "tested main@abc1234 after #1234 merged (from its job name)".
    std::map<CheckRunRow, std::string> tested;
};

// A GitHub comment holds at most 65,536 characters; counting bytes is the
// safe side of that (a character is at least one byte).
inline constexpr std::size_t kCommentLimit = 65'536;
// What a report aims at (issue 36): a comment people read, not one that
// merely fits. Under 20 KB with everything folded in; the CSV has the rest.
inline constexpr std::size_t kReportBytes = 20'000;

struct ReportOptions {
    std::size_t openListLimit = 10; // longer lists go into a collapsed <details>
    // Rows per table, for a comment people read; the rest is counted.
    std::size_t maxRows = 50;
    // The whole report: when over, the longest lists lose rows first, down
    // to a common length that fits. Never cuts inside a row or a character.
    std::size_t maxBytes = kReportBytes;
};

std::string markdownReport(const ReportInput& input, const ReportOptions& options = {});
// RFC 4180: CRLF line ends, a header row, fields quoted when they hold a
// comma, quote, CR or LF. One row per job, then one per failure of it (the
// job's columns up to the verdict repeated, the class columns filled);
// nothing is capped.
std::string csvReport(const ReportInput& input);

// Text from CI as Markdown that renders as the same text: punctuation
// backslash-escaped, <>& as entities, line breaks as spaces.
std::string escapeMarkdown(std::string_view text);
// A code span for a table cell that holds `text` whatever backticks or pipes
// it contains.
std::string markdownCode(std::string_view text);
std::string csvField(std::string_view text);
// At most `maxBytes` of `text`, cut before a UTF-8 character that would not
// fit, with "…" when cut.
std::string clipUtf8(std::string_view text, std::size_t maxBytes);

// GitHub Actions shows one job's log at <run URL>/job/<job id>; the check
// run id is the job id. "" when the run URL is not an Actions run.
std::string jobLogUrl(const CheckRun& run);

// The verdicts of every job's newest attempt on `sha` (or only of
// `checkRunRow`, which must be a run of that SHA), ordered by backend,
// workflow and job, and the merge gating of the SHA's PR (if any); failures
// are left to the caller.
Result<ReportInput> loadReportInput(const Database& cache, const Sha& sha,
                                    std::optional<CheckRunRow> checkRunRow,
                                    const VerdictSources& sources);

// The failures of one job: each failed, errored, xfailed or strictly
// xpassed case of its stored results, and the job itself when it failed
// without a failing case; plus the failures of its earlier attempts that
// the engine calls flaky (they passed on a rerun, so the newest attempt no
// longer shows them). A person's tag that names a class wins; otherwise the
// suggestion engine's class, why and evidence.
Result<std::vector<ClassifiedFailure>> failuresFromResults(const Database& cache,
                                                           const RunVerdict& job);

} // namespace relayhud::verdict
