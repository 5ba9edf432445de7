#include "report_failed_jobs.h"

#include "report_cells.h"

#include <algorithm>
#include <map>

namespace relayhud::verdict {
namespace {

using namespace cells;

// A line is read, not studied: the first few tests, each clipped, and a
// count of the rest (the folded tables and the CSV have them all).
constexpr std::size_t kTestsShown = 3;
constexpr std::size_t kNameBytes = 160;

bool isRed(const RunVerdict& job)
{
    return job.verdict == Verdict::Red || job.verdict == Verdict::GreenDisputed;
}

std::string failureText(const ClassifiedFailure& f)
{
    if (!f.test.empty())
        return inlineCode(f.test, kNameBytes);
    if (!f.line.empty())
        return "the job, " + inlineCode(f.line, kNameBytes);
    return "the job"
           + (f.why.empty() ? std::string() : " (" + esc(clipUtf8(f.why, kNameBytes)) + ")");
}

// "regression: `a`, `b`; untriaged: the job, `No space left`; and 4 more",
// the classes in report-section order.
std::string failuresText(std::vector<const ClassifiedFailure*> list)
{
    std::stable_sort(list.begin(), list.end(),
                     [](const auto* a, const auto* b) { return sectionOf(*a) < sectionOf(*b); });
    std::string out;
    triage::FailureClass current = triage::FailureClass::Unset;
    for (std::size_t i = 0; i < list.size() && i < kTestsShown; ++i) {
        const ClassifiedFailure& f = *list[i];
        if (i == 0 || f.cls != current)
            out += std::string(i ? "; " : "") + std::string(triage::failureClassName(f.cls)) + ": ";
        else
            out += ", ";
        current = f.cls;
        out += failureText(f);
    }
    if (list.size() > kTestsShown)
        out += "; and " + std::to_string(list.size() - kTestsShown) + " more";
    return out;
}

std::string logLink(const RunVerdict& job)
{
    if (const std::string log = jobLogUrl(job.run); linkable(log))
        return " " + link("log", log);
    return linkable(job.run.reported.runUrl) ? " " + link("run", job.run.reported.runUrl) : "";
}

std::string jobLine(const RunVerdict& job, const std::vector<const ClassifiedFailure*>& failures,
                    std::size_t expected)
{
    std::string out = "- " + std::string(verdictMark(job.verdict)) + " **"
                      + esc(job.run.downstreamRepo) + "** " + jobName(job.run, job.run.runAttempt)
                      + logLink(job) + ": ";
    if (!failures.empty())
        out += failuresText(failures);
    else if (!job.reasons.empty())
        out += esc(clipUtf8(job.reasons.front(), kNameBytes));
    else
        out += verdictName(job.verdict);
    if (expected > 0)
        out += " (and " + std::to_string(expected) + " expected xfail" + (expected == 1 ? "" : "s")
               + ")";
    return out + "\n";
}

} // namespace

bool isExpectedXfail(const ClassifiedFailure& failure)
{
    return failure.cls == triage::FailureClass::Expected;
}

std::vector<std::string> failedJobLines(const ReportInput& in)
{
    std::map<CheckRunRow, std::vector<const ClassifiedFailure*>> failures;
    std::map<CheckRunRow, std::size_t> expected;
    for (const ClassifiedFailure& f : in.failures) {
        if (isExpectedXfail(f))
            ++expected[f.checkRunRow];
        else
            failures[f.checkRunRow].push_back(&f);
    }
    // (worst section, position in in.jobs) per listed job.
    std::vector<std::pair<std::size_t, std::size_t>> order;
    for (std::size_t i = 0; i < in.jobs.size(); ++i) {
        const auto found = failures.find(in.jobs[i].checkRunRow);
        if (found == failures.end() && !isRed(in.jobs[i]))
            continue;
        std::size_t worst = static_cast<std::size_t>(ReportSection::Other) + 1;
        if (found != failures.end())
            for (const ClassifiedFailure* f : found->second)
                worst = std::min(worst, static_cast<std::size_t>(sectionOf(*f)));
        order.emplace_back(worst, i);
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<std::string> out;
    out.reserve(order.size());
    for (const auto& [worst, i] : order) {
        const RunVerdict& job = in.jobs[i];
        const auto found = failures.find(job.checkRunRow);
        const auto count = expected.find(job.checkRunRow);
        out.push_back(jobLine(job,
                              found == failures.end() ? decltype(found->second){} : found->second,
                              count == expected.end() ? 0 : count->second));
    }
    return out;
}

std::vector<std::string> expectedByJobLines(const ReportInput& in)
{
    std::map<CheckRunRow, std::size_t> expected;
    for (const ClassifiedFailure& f : in.failures)
        if (isExpectedXfail(f))
            ++expected[f.checkRunRow];
    std::vector<std::pair<std::size_t, const RunVerdict*>> jobs;
    for (const RunVerdict& job : in.jobs)
        if (const auto it = expected.find(job.checkRunRow); it != expected.end())
            jobs.emplace_back(it->second, &job);
    std::stable_sort(jobs.begin(), jobs.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> out;
    for (const auto& [n, job] : jobs)
        out.push_back("- **" + esc(job->run.downstreamRepo) + "** "
                      + jobName(job->run, job->run.runAttempt) + ": " + std::to_string(n)
                      + " expected (xfail)\n");
    return out;
}

} // namespace relayhud::verdict
