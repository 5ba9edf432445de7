// The CSV report: one row per job with its verdict and counts, then one per
// failure of it with the job's key columns (SHA to verdict) repeated and the
// class columns filled, so a spreadsheet filter finds them. Nothing is
// capped: this is the full list the Markdown report points to.
#include "relayhud/verdict/report.h"

#include <map>

namespace relayhud::verdict {
namespace {

constexpr const char* kHeader =
    "upstream_sha,check_run_id,backend,workflow,job,run_attempt,conclusion,verdict,reasons,cases,"
    "passed,failing,skipped,xfailed,mandatory_not_run,run_url,artifact_url,test,class,section,"
    "decided_by,failed_on_attempt,why,failure_line,previous_head_sha,compare_url,culprit_pr,"
    "first_seen,passed_on_attempt,"
    "outage_group,log_url,bug_url\r\n";

// upstream_sha .. verdict: what a failure row repeats of its job.
constexpr std::size_t kJobKeyColumns = 8;

std::vector<std::string> jobFields(const Sha& sha, const RunVerdict& job)
{
    const CheckRun& r = job.run;
    std::string reasons;
    for (const std::string& reason : job.reasons)
        reasons += (reasons.empty() ? "" : "; ") + reason;
    TestRunTotals t;
    if (job.testRun && job.testRun->state == TestRunState::Stored)
        t = job.testRun->totals;
    const std::int64_t failing = t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
                                 + t.count(TestOutcome::XPassStrict);
    const std::string notRun =
        job.configCoverage ? std::to_string(job.configCoverage->mandatoryNotRun.size()) : "";
    return {sha.value,
            r.checkRunId.value,
            r.downstreamRepo,
            r.workflow,
            r.jobName,
            std::to_string(r.runAttempt),
            std::string(toString(r.reported.conclusion)),
            verdictName(job.verdict),
            reasons,
            std::to_string(t.cases()),
            std::to_string(t.count(TestOutcome::Passed)),
            std::to_string(failing),
            std::to_string(t.count(TestOutcome::Skipped)),
            std::to_string(t.count(TestOutcome::XFailed)),
            notRun,
            r.reported.runUrl,
            r.reported.artifactUrl};
}

std::vector<std::string> failureFields(const ClassifiedFailure& f)
{
    return {f.test,
            std::string(triage::failureClassName(f.cls)),
            reportSectionName(sectionOf(f)),
            f.tagged() ? "tag by " + f.taggedBy : "suggestion",
            std::to_string(f.attempt),
            f.why,
            f.line,
            f.baseSha.value,
            f.compareUrl,
            f.culpritPr.value > 0 ? std::to_string(f.culpritPr.value) : "",
            f.firstSeen,
            f.rerunAttempt ? std::to_string(f.rerunAttempt) : "",
            f.group,
            f.logUrl,
            f.bugUrl};
}

void appendRow(const std::vector<std::string>& fields, std::string& out)
{
    for (std::size_t i = 0; i < fields.size(); ++i)
        out += (i ? "," : "") + csvField(fields[i]);
    out += "\r\n";
}

} // namespace

std::string csvReport(const ReportInput& input)
{
    std::map<CheckRunRow, std::vector<const ClassifiedFailure*>> failuresOf;
    for (const ClassifiedFailure& f : input.failures)
        failuresOf[f.checkRunRow].push_back(&f);
    const std::vector<std::string> noFailure(failureFields(ClassifiedFailure{}).size());
    std::string out = kHeader;
    for (const RunVerdict& job : input.jobs) {
        std::vector<std::string> fields = jobFields(input.sha, job);
        const std::size_t jobColumns = fields.size();
        fields.insert(fields.end(), noFailure.begin(), noFailure.end());
        appendRow(fields, out);
        // A failure row names its job (up to the verdict) but leaves the
        // job's reasons, counts and links to the job row: repeating a long
        // reasons list on thousands of rows would multiply it.
        for (std::size_t i = kJobKeyColumns; i < jobColumns; ++i)
            fields[i].clear();
        for (const ClassifiedFailure* f : failuresOf[job.checkRunRow]) {
            fields.resize(jobColumns);
            const std::vector<std::string> more = failureFields(*f);
            fields.insert(fields.end(), more.begin(), more.end());
            appendRow(fields, out);
        }
    }
    return out;
}

} // namespace relayhud::verdict
