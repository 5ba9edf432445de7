// The Markdown report: a summary line, the per-job verdict table,
// regressions with the upstream compare link, failures grouped by class, and
// what unverified greens are missing. Long lists fold into <details>.
#include "relayhud/verdict/report.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace relayhud::verdict {
namespace {

const char* verdictMark(Verdict v)
{
    switch (v) {
    case Verdict::VerifiedGreen: return "✅";
    case Verdict::GreenIncomplete: return "⚠️";
    case Verdict::GreenUnverifiable: return "❔";
    case Verdict::GreenDisputed: return "❗";
    case Verdict::Red: return "❌";
    case Verdict::Inconclusive: return "⚪";
    case Verdict::Pending: return "⏳";
    case Verdict::Stale: return "💤";
    }
    return "";
}

// Only plain http(s) URLs become links; anything else from CI is dropped
// rather than allowed to break out of the link syntax.
bool linkable(std::string_view url)
{
    return (url.starts_with("https://") || url.starts_with("http://"))
           && url.find_first_of(" \t\r\n<>\"'`") == std::string_view::npos;
}

std::string link(std::string_view label, std::string_view url)
{
    return "[" + std::string(label) + "](<" + std::string(url) + ">)";
}

// GitHub Actions shows one job's log at <run URL>/job/<job id>; the check
// run id is the job id.
std::string jobLogUrl(const CheckRun& run)
{
    if (run.reported.runUrl.find("/actions/runs/") == std::string::npos
        || run.checkRunId.value.empty())
        return {};
    return run.reported.runUrl + "/job/" + run.checkRunId.value;
}

std::string links(const CheckRun& run)
{
    std::vector<std::string> parts;
    if (linkable(run.reported.runUrl))
        parts.push_back(link("run", run.reported.runUrl));
    if (const std::string log = jobLogUrl(run); linkable(log))
        parts.push_back(link("log", log));
    if (linkable(run.reported.artifactUrl))
        parts.push_back(link("artifacts", run.reported.artifactUrl));
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : " · ") + p;
    return out.empty() ? "–" : out;
}

std::string jobName(const CheckRun& run)
{
    return escapeMarkdown(
        run.workflow + " / " + run.jobName
        + (run.runAttempt > 1 ? " (attempt " + std::to_string(run.runAttempt) + ")" : ""));
}

std::string testsCell(const RunVerdict& v)
{
    if (!v.testRun)
        return "not fetched";
    if (v.testRun->state != TestRunState::Stored)
        return escapeMarkdown(testRunStateName(v.testRun->state));
    const TestRunTotals& t = v.testRun->totals;
    const std::int64_t failing = t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
                                 + t.count(TestOutcome::XPassStrict);
    return std::to_string(t.cases()) + " cases, " + std::to_string(failing) + " failing";
}

std::string reasonsCell(const RunVerdict& v)
{
    std::string out;
    for (const std::string& r : v.reasons)
        out += (out.empty() ? "" : "<br>") + escapeMarkdown(r);
    return out;
}

class Writer {
public:
    Writer(const ReportInput& in, const ReportOptions& options) : m_in(in), m_options(options)
    {
        for (const RunVerdict& job : in.jobs)
            m_jobs.emplace(job.checkRunRow, &job);
    }

    std::string write()
    {
        header();
        jobTable();
        regressions();
        failureClasses();
        unverifiedGreens();
        return m_out.str();
    }

private:
    void header()
    {
        const Sha& sha = m_in.sha;
        m_out << "## RelayHUD report: "
              << link(escapeMarkdown(m_in.upstreamRepo) + "@" + sha.shortSha(),
                      "https://github.com/" + m_in.upstreamRepo + "/commit/" + sha.value)
              << "\n\n";
        std::map<Verdict, int> counts;
        for (const RunVerdict& job : m_in.jobs)
            ++counts[job.verdict];
        m_out << m_in.jobs.size() << (m_in.jobs.size() == 1 ? " job" : " jobs");
        for (const auto& [verdict, n] : counts)
            m_out << " · " << verdictMark(verdict) << ' ' << n << ' ' << verdictName(verdict);
        m_out << "\n\nA green is verified only when the artifacts and the backend's outcome config "
                 "back it.\n\n";
    }

    void jobTable()
    {
        m_out << "| Backend | Job | Verdict | Reasons | Tests | Links |\n"
                 "|---|---|---|---|---|---|\n";
        for (const RunVerdict& job : m_in.jobs)
            m_out << "| " << escapeMarkdown(job.run.downstreamRepo) << " | " << jobName(job.run)
                  << " | " << verdictMark(job.verdict) << ' ' << verdictName(job.verdict) << " | "
                  << reasonsCell(job) << " | " << testsCell(job) << " | " << links(job.run)
                  << " |\n";
        m_out << '\n';
    }

    std::string jobCell(std::int64_t row) const
    {
        auto it = m_jobs.find(row);
        if (it == m_jobs.end())
            return "check run " + std::to_string(row);
        return escapeMarkdown(it->second->run.downstreamRepo) + "<br>" + jobName(it->second->run);
    }

    static std::string testCell(const ClassifiedFailure& f)
    {
        return f.test.empty() ? "(the job)" : markdownCode(f.test);
    }

    static std::string lineCell(const ClassifiedFailure& f)
    {
        return f.line.empty() ? "–" : markdownCode(f.line);
    }

    // Whether row `index` (0-based) of a table still fits under maxRows.
    bool listed(std::size_t index) const { return index < m_options.maxRows; }

    // A table of `rows` rows (the first maxRows of them written), folded into
    // <details> when it is long.
    void foldable(const std::string& summary, std::size_t rows, const std::string& table)
    {
        std::string body = table;
        if (rows > m_options.maxRows)
            body += "\n… and " + std::to_string(rows - m_options.maxRows)
                    + " more (the CSV report and `relayhud-cli tests` list them all)\n";
        if (rows <= m_options.openListLimit) {
            m_out << body << '\n';
            return;
        }
        m_out << "<details><summary>" << summary << "</summary>\n\n" << body << "\n</details>\n\n";
    }

    void regressions()
    {
        std::vector<const ClassifiedFailure*> fresh;
        for (const ClassifiedFailure& f : m_in.failures)
            if (f.novelty == Novelty::New)
                fresh.push_back(&f);
        if (fresh.empty())
            return;
        m_out << "### Regressions (" << fresh.size() << ")\n\n"
              << "Failing here, passing in the previous upstream SHA's run of the same job; the "
                 "upstream range is the first place to look.\n\n";
        std::string table = "| Job | Test | Failure line | Upstream range |\n|---|---|---|---|\n";
        for (std::size_t i = 0; i < fresh.size() && listed(i); ++i) {
            const ClassifiedFailure* f = fresh[i];
            table +=
                "| " + jobCell(f->checkRunRow) + " | " + testCell(*f) + " | " + lineCell(*f) + " | "
                + (f->baseSha.empty() ? std::string("–")
                                      : link(f->baseSha.shortSha() + "..." + m_in.sha.shortSha(),
                                             compareUrl(m_in.upstreamRepo, f->baseSha, m_in.sha)))
                + " |\n";
        }
        foldable(std::to_string(fresh.size()) + " regressions", fresh.size(), table);
    }

    void failureClasses()
    {
        std::map<std::string, std::vector<const ClassifiedFailure*>> byClass;
        for (const ClassifiedFailure& f : m_in.failures)
            byClass[f.className].push_back(&f);
        if (byClass.empty())
            return;
        std::vector<std::pair<std::string, std::vector<const ClassifiedFailure*>>> ordered(
            byClass.begin(), byClass.end());
        std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
            return a.second.size() > b.second.size();
        });
        m_out << "### Failures by class\n\n";
        for (const auto& [name, list] : ordered) {
            m_out << "#### " << escapeMarkdown(name) << " (" << list.size() << ")\n\n";
            std::string table =
                "| Job | Test | Novelty | Failure line | Why |\n|---|---|---|---|---|\n";
            for (std::size_t i = 0; i < list.size() && listed(i); ++i) {
                const ClassifiedFailure* f = list[i];
                table += "| " + jobCell(f->checkRunRow) + " | " + testCell(*f) + " | "
                         + noveltyName(f->novelty) + " | " + lineCell(*f) + " | "
                         + escapeMarkdown(f->why) + " |\n";
            }
            foldable(std::to_string(list.size()) + " " + escapeMarkdown(name), list.size(), table);
        }
    }

    void unverifiedGreens()
    {
        bool any = false;
        for (const RunVerdict& job : m_in.jobs) {
            if (!job.configCoverage || job.configCoverage->mandatoryNotRun.empty())
                continue;
            if (!any)
                m_out << "### Mandatory tests that did not run\n\n";
            any = true;
            const auto& missing = job.configCoverage->mandatoryNotRun;
            std::string table = "| Config name | File | Line | |\n|---|---|---|---|\n";
            for (std::size_t i = 0; i < missing.size() && listed(i); ++i) {
                const MissingTest& m = missing[i];
                table += "| " + markdownCode(m.name) + " | " + markdownCode(m.file) + " | "
                         + std::to_string(m.line) + " | " + (m.skipped ? "skipped" : "absent")
                         + " |\n";
            }
            m_out << "**" << escapeMarkdown(job.run.downstreamRepo) << "** " << jobName(job.run)
                  << ": " << missing.size() << " missing\n\n";
            foldable(std::to_string(missing.size()) + " mandatory tests", missing.size(), table);
        }
    }

    const ReportInput& m_in;
    const ReportOptions& m_options;
    std::map<std::int64_t, const RunVerdict*> m_jobs;
    std::ostringstream m_out;
};

} // namespace

std::string markdownReport(const ReportInput& input, const ReportOptions& options)
{
    return Writer(input, options).write();
}

std::string csvReport(const ReportInput& input)
{
    std::string out = "upstream_sha,check_run_id,backend,workflow,job,run_attempt,conclusion,"
                      "verdict,reasons,cases,passed,failing,skipped,xfailed,mandatory_not_run,"
                      "run_url,artifact_url\r\n";
    for (const RunVerdict& job : input.jobs) {
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
        const std::vector<std::string> fields = {input.sha.value,
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
        for (std::size_t i = 0; i < fields.size(); ++i)
            out += (i ? "," : "") + csvField(fields[i]);
        out += "\r\n";
    }
    return out;
}

} // namespace relayhud::verdict
