// The Markdown report, in the order a PR author or a backend's on-call acts
// on it, sized for a PR comment (issue 36: 40 lines outside the folds, under
// 20 KB): the summary line, the jobs that failed with their classes and
// failing tests, the merge gating, one line per backend for its greens;
// then folded: the failures by class (caused by this PR with its files and
// push, already broken upstream with the likely culprit, broken in the
// backend, flaky with the passing rerun, infra with its outage, others),
// the expected xfails per job (counted, never listed), the per-job verdict
// table, the mandatory tests that did not run, and what the sections mean.
#include "report_backends.h"
#include "report_cells.h"
#include "report_failed_jobs.h"
#include "report_gating.h"
#include "report_layout.h"
#include "report_section_rows.h"

#include "relayhud/model/count_kind.h"
#include "relayhud/verdict/report.h"

#include <algorithm>
#include <array>
#include <map>

namespace relayhud::verdict {
namespace {

using namespace cells;

constexpr std::size_t kReasonsShown = 8;
constexpr std::size_t kRangesShown = 10;
// A PR comment is read on one screen (issue 36): at most this many lines
// outside the folds. The jobs that failed give up lines first.
constexpr std::size_t kVisibleLines = 40;
constexpr std::size_t kFailedJobsShown = 15; // at most, when the lines allow
constexpr std::size_t kFailedJobsMin = 3;    // at least, whatever else there is

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

// The row's own counts, named for what they count (model/count_kind.h):
// "<br>self-reported health checks: 4, 1 failed".
std::string selfReportedCounts(const CheckRun& run)
{
    if (!run.reported.tests)
        return {};
    const TestCounts& c = *run.reported.tests;
    return "<br>self-reported " + std::string(countKindName(countKindOf(run.downstreamRepo).kind))
           + ": " + std::to_string(c.total) + ", " + std::to_string(c.failed) + " failed";
}

std::string testsCell(const RunVerdict& v)
{
    const std::string reported = selfReportedCounts(v.run);
    if (!v.testRun)
        return "not fetched" + reported;
    if (v.testRun->state != TestRunState::Stored)
        return escapeMarkdown(testRunStateName(v.testRun->state)) + reported;
    const TestRunTotals& t = v.testRun->totals;
    const std::int64_t failing = t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
                                 + t.count(TestOutcome::XPassStrict);
    return std::to_string(t.cases()) + " cases, " + std::to_string(failing) + " failing" + reported;
}

std::string reasonsCell(const RunVerdict& v)
{
    std::string out;
    for (std::size_t i = 0; i < v.reasons.size() && i < kReasonsShown; ++i)
        out += (out.empty() ? "" : "<br>") + esc(v.reasons[i]);
    if (v.reasons.size() > kReasonsShown)
        out += "<br>and " + std::to_string(v.reasons.size() - kReasonsShown) + " more";
    return out;
}

struct SectionText {
    const char* title;
    const char* one; // "1 regression"
    const char* many;
    const char* intro;
    const char* head;
};

const SectionText& sectionText(ReportSection s)
{
    // Each intro says exactly which classes the section holds
    // (model/failure_class.cpp's table): pre-existing, backend bug, ...
    static const std::array<SectionText, 6> texts = {{
        {"Caused by this PR", "failure caused by this PR", "failures caused by this PR",
         "Class regression: fails on this PR's heads and not on other PRs' runs of the same job "
         "at the time (a nightly: not on the previous one). The PR's changes (and the push that "
         "brought it) are the first place to look.",
         "| Job | Test | Failure line | Change | Why |\n|---|---|---|---|---|\n"},
        {"Already broken upstream", "already broken upstream", "already broken upstream",
         "Class pre-existing: PyTorch was broken before this SHA. Most PRs' runs of the job fail "
         "it since a breakage started, or main's or the nightly's previous build failed it too. "
         "First seen names the PR that failed it before it spread (the likely culprit).",
         "| Job | Test | Class | Failure line | First seen | Why |\n|---|---|---|---|---|---|\n"},
        {"Broken in the backend", "backend bug", "backend bugs",
         "Class backend bug: no PR failed it first, every run of the job started failing it at "
         "once (the backend changed), or a person or a rule named the backend. The backend's "
         "maintainers fix it, not the PR.",
         "| Job | Test | Class | Failure line | Why |\n|---|---|---|---|---|\n"},
        {"Flaky", "flaky", "flaky",
         "Class flaky: failed, then passed on a rerun of the same SHA, or other PRs' runs fail it "
         "now and then without a common start.",
         "| Job | Test | Passed on | Failure line | Why |\n|---|---|---|---|---|\n"},
        {"Infra", "infra", "infra",
         "Class infra: the job failed for reasons outside the code under test (runner, network, "
         "storage).",
         "| Job | Test | Failure line | Outage | Why |\n|---|---|---|---|---|\n"},
        {"Others", "other", "others",
         "Classes untriaged (nothing to compare against), test or config, and unexpected pass. "
         "Expected failures (xfail) are counted, not listed.",
         "| Job | Test | Class | Failure line | Why |\n|---|---|---|---|---|\n"},
    }};
    return texts[static_cast<std::size_t>(s)];
}

class Writer {
public:
    Writer(const ReportInput& in, const ReportOptions& options)
        : m_in(in), m_options(options),
          m_csvCommand(code("relayhud-cli report --format csv --sha " + in.sha.value)),
          m_doc(m_csvCommand), m_failedJobs(failedJobLines(in)), m_rows(in)
    {
        // A SHA's runs hold thousands of xfails that failed as expected:
        // counted (and per job in a fold), never a row each.
        for (const ClassifiedFailure& f : in.failures) {
            if (isExpectedXfail(f))
                ++m_expected;
            else
                m_sections[static_cast<std::size_t>(sectionOf(f))].push_back(&f);
        }
    }

    // The jobs that failed give up lines until the report fits
    // kVisibleLines outside its folds; each render shows fewer, so this
    // ends after a few.
    std::string write()
    {
        std::size_t shown = std::min(kFailedJobsShown, m_failedJobs.size());
        std::string md = render(shown);
        for (std::size_t over = linesOver(md); over > 0 && shown > kFailedJobsMin;
             over = linesOver(md)) {
            // The fold of the rest costs two lines: its summary and a blank.
            shown = shown > kFailedJobsMin + over + 2 ? shown - over - 2 : kFailedJobsMin;
            md = render(shown);
        }
        return md;
    }

private:
    static std::size_t linesOver(const std::string& md)
    {
        const std::size_t lines = layout::visibleLines(md);
        return lines > kVisibleLines ? lines - kVisibleLines : 0;
    }

    // What a reader needs first, then what they may open: the summary, the
    // jobs that failed, the merge gating, each backend's greens in a line;
    // then folded, the failures by class, the expected xfails per job, every
    // job's row, the mandatory tests that did not run and the legend.
    std::string render(std::size_t failedShown)
    {
        m_doc = layout::Document(m_csvCommand);
        title();
        failedJobs(failedShown);
        if (m_in.gating)
            writeGatingSection(m_doc, *m_in.gating, m_in.sha);
        backends();
        failureTables();
        expectedXfails();
        jobTable();
        unverifiedGreens();
        legend();
        return m_doc.render(m_options);
    }

    // The heading, and the summary right under it.
    void title()
    {
        const Sha& sha = m_in.sha;
        const std::string url = "https://github.com/" + m_in.upstreamRepo + "/commit/" + sha.value;
        const std::string label = esc(m_in.upstreamRepo) + "@" + esc(sha.shortSha());
        m_doc.text("## RelayHUD report: " + (linkable(url) ? link(label, url) : label) + "\n"
                   + totals());
    }

    // The first `shown` jobs that failed, open; the rest folded.
    void failedJobs(std::size_t shown)
    {
        if (m_failedJobs.empty()) {
            m_doc.text(m_in.failures.empty() ? "No failing test or job.\n\n" : "");
            return;
        }
        layout::Table open;
        open.intro = "### Jobs that failed (" + std::to_string(m_failedJobs.size()) + ")\n";
        const std::size_t n = std::min(shown, m_failedJobs.size());
        open.rows.assign(m_failedJobs.begin(), m_failedJobs.begin() + static_cast<long>(n));
        open.fullList = m_csvCommand;
        open.capped = false;
        open.whole = true;
        m_doc.table(std::move(open));
        if (n == m_failedJobs.size())
            return;
        layout::Table rest;
        rest.summary =
            countOf(m_failedJobs.size() - n, "more job that failed", "more jobs that failed");
        rest.alwaysFolded = true;
        rest.rows.assign(m_failedJobs.begin() + static_cast<long>(n), m_failedJobs.end());
        rest.fullList = m_csvCommand;
        rest.capped = false;
        rest.whole = true;
        m_doc.table(std::move(rest));
    }

    // One line per backend (its greens counted, not listed): the per-job
    // rows are folded further down.
    void backends()
    {
        if (m_in.jobs.empty())
            return;
        layout::Table list;
        list.intro = "### Jobs by backend\n";
        for (const BackendSummary& b : backendSummaries(m_in.jobs))
            list.rows.push_back("- **" + esc(b.backend) + "**: " + escapeMarkdown(b.text) + "\n");
        list.fullList = m_csvCommand;
        list.capped = false; // every backend, unless the comment cannot hold them
        m_doc.table(std::move(list));
    }

    // "26 jobs · ✅ 3 verified green · ...", and the failures by section on
    // a second line of the same paragraph (a hard line break).
    std::string totals() const
    {
        std::string out = countOf(m_in.jobs.size(), "job", "jobs");
        std::map<Verdict, int> counts;
        for (const RunVerdict& job : m_in.jobs)
            ++counts[job.verdict];
        for (const auto& [verdict, n] : counts)
            out += " · " + std::string(verdictMark(verdict)) + " " + std::to_string(n) + " "
                   + verdictName(verdict);
        std::string failures;
        for (std::size_t s = 0; s < m_sections.size(); ++s) {
            const SectionText& text = sectionText(static_cast<ReportSection>(s));
            if (!m_sections[s].empty())
                failures += (failures.empty() ? "" : " · ")
                            + countOf(m_sections[s].size(), text.one, text.many);
        }
        if (m_expected > 0)
            failures +=
                (failures.empty() ? "" : " · ")
                + countOf(m_expected, "expected failure (xfail)", "expected failures (xfail)");
        if (!failures.empty())
            out += "\\\nFailures: " + failures;
        return out + "\n\n";
    }

    // The tables by class, each under its heading, all in one fold.
    void failureTables()
    {
        std::string counts;
        for (std::size_t s = 0; s < m_sections.size(); ++s)
            if (!m_sections[s].empty())
                counts +=
                    (counts.empty() ? "" : ", ")
                    + countOf(m_sections[s].size(), sectionText(static_cast<ReportSection>(s)).one,
                              sectionText(static_cast<ReportSection>(s)).many);
        if (counts.empty())
            return;
        m_doc.text("<details><summary>The failures by class: " + counts + "</summary>\n\n");
        for (std::size_t s = 0; s < m_sections.size(); ++s)
            section(static_cast<ReportSection>(s));
        m_doc.text("</details>\n\n");
    }

    // The count is in the summary; how they spread over the jobs, folded.
    void expectedXfails()
    {
        if (m_expected == 0)
            return;
        layout::Table table;
        table.summary = countOf(m_expected, "expected failure (xfail)", "expected failures (xfail)")
                        + ", by job";
        table.alwaysFolded = true;
        table.rows = expectedByJobLines(m_in);
        table.fullList = m_csvCommand;
        table.capped = false;
        m_doc.table(std::move(table));
    }

    void jobTable()
    {
        layout::Table table;
        table.summary = "All " + countOf(m_in.jobs.size(), "job", "jobs")
                        + ": verdicts, reasons, tests and links";
        table.alwaysFolded = true;
        table.head = "| Backend | Job | Verdict | Reasons | Tests | Links |\n"
                     "|---|---|---|---|---|---|\n";
        for (const RunVerdict& job : m_in.jobs)
            table.rows.push_back("| " + esc(job.run.downstreamRepo) + " | "
                                 + jobName(job.run, job.run.runAttempt)
                                 + testedNote(job.checkRunRow) + " | " + verdictMark(job.verdict)
                                 + " " + verdictName(job.verdict) + " | " + reasonsCell(job) + " | "
                                 + testsCell(job) + " | " + links(job.run) + " |\n");
        table.fullList = m_csvCommand;
        table.capped = false; // every job, unless the comment cannot hold them
        m_doc.table(std::move(table));
    }

    // "<br>tested main@abc1234 after #1234 merged (from its job name)"
    std::string testedNote(CheckRunRow checkRunRow) const
    {
        const auto it = m_in.tested.find(checkRunRow);
        return it == m_in.tested.end() ? std::string() : "<br>" + esc(it->second);
    }

    // Distinct values of `key` over a section's failures, with their count,
    // in order of first appearance.
    template <class Key>
    static std::vector<std::pair<const ClassifiedFailure*, std::size_t>>
    distinct(const std::vector<const ClassifiedFailure*>& list, Key key)
    {
        std::vector<std::pair<const ClassifiedFailure*, std::size_t>> out;
        std::map<std::string, std::size_t> index;
        for (const ClassifiedFailure* f : list) {
            const std::string& k = key(*f);
            if (k.empty())
                continue;
            auto [it, fresh] = index.emplace(k, out.size());
            if (fresh)
                out.emplace_back(f, 0);
            ++out[it->second].second;
        }
        return out;
    }

    // The likely culprits (already broken) or outages (infra) in one line
    // under the table, so they show even when the table is trimmed. Not for
    // a lone failure: its row names them.
    std::string overview(ReportSection s, const std::vector<const ClassifiedFailure*>& list) const
    {
        const bool culprits = s == ReportSection::Broken;
        if ((!culprits && s != ReportSection::Infra) || list.size() < 2)
            return {};
        const auto groups =
            culprits ? distinct(list,
                                [](const ClassifiedFailure& f) {
                                    return f.culpritPr.value > 0 ? std::to_string(f.culpritPr.value)
                                                                 : std::string();
                                })
                     : distinct(list, [](const ClassifiedFailure& f) { return f.group; });
        std::string out;
        for (std::size_t i = 0; i < groups.size() && i < kRangesShown; ++i) {
            const ClassifiedFailure& f = *groups[i].first;
            const std::string number = "#" + std::to_string(f.culpritPr.value);
            const std::string what = !culprits                ? esc(f.group)
                                     : linkable(f.culpritUrl) ? link(number, f.culpritUrl)
                                                              : number;
            out += (out.empty() ? "" : " · ") + what + " ("
                   + countOf(groups[i].second, "failure", "failures") + ")";
        }
        if (groups.size() > kRangesShown)
            out += " · and " + std::to_string(groups.size() - kRangesShown) + " more";
        return out.empty() ? out : (culprits ? "Likely broken by: " : "Outages: ") + out + "\n\n";
    }

    void section(ReportSection s)
    {
        const auto& list = m_sections[static_cast<std::size_t>(s)];
        if (list.empty())
            return;
        const SectionText& text = sectionText(s);
        layout::Table table;
        // The heading, then the rows: what the section means is in the legend.
        // No blank lines after a heading: headings need none. Never folded
        // on its own: every section is in one fold already.
        table.intro = "### " + std::string(text.title) + " (" + std::to_string(list.size()) + ")\n";
        table.head = text.head;
        // Rows past maxRows would never show: count them, don't build them.
        for (std::size_t i = 0; i < list.size() && i < m_options.maxRows; ++i)
            table.rows.push_back(m_rows.row(s, *list[i]));
        table.total = list.size();
        table.fullList = m_csvCommand;
        m_doc.table(std::move(table));
        if (std::string groups = overview(s, list); !groups.empty())
            m_doc.text(std::move(groups));
    }

    // What each section present means and what a verified green is: read
    // once, so folded at the end, not repeated above every table.
    void legend()
    {
        std::string out = "<details><summary>How to read this report</summary>\n\n";
        for (std::size_t s = 0; s < m_sections.size(); ++s)
            if (!m_sections[s].empty()) {
                const SectionText& text = sectionText(static_cast<ReportSection>(s));
                out += "- **" + std::string(text.title) + "**: " + text.intro + "\n";
            }
        if (m_expected > 0)
            out += "- **Expected failures (xfail)**: tests whose xfail mark expects them to fail, "
                   "and that failed: counted here, listed in the CSV.\n";
        out += "\nA green is verified only when the artifacts and the backend's outcome config "
               "back it.\n\n</details>\n";
        m_doc.text(std::move(out));
    }

    // Per job, its mandatory tests that did not run: all in one fold.
    void unverifiedGreens()
    {
        std::vector<const RunVerdict*> jobs;
        for (const RunVerdict& job : m_in.jobs)
            if (job.configCoverage && !job.configCoverage->mandatoryNotRun.empty())
                jobs.push_back(&job);
        if (jobs.empty())
            return;
        m_doc.text("<details><summary>Mandatory tests that did not run: "
                   + countOf(jobs.size(), "job", "jobs") + "</summary>\n\n");
        for (const RunVerdict* job : jobs) {
            const auto& missing = job->configCoverage->mandatoryNotRun;
            layout::Table table;
            table.intro = "**" + esc(job->run.downstreamRepo) + "** "
                          + jobName(job->run, job->run.runAttempt) + ": "
                          + std::to_string(missing.size()) + " missing\n\n";
            table.head = "| Config name | File | Line | |\n|---|---|---|---|\n";
            table.total = missing.size();
            for (std::size_t i = 0; i < missing.size() && i < m_options.maxRows; ++i) {
                const MissingTest& m = missing[i];
                table.rows.push_back("| " + code(m.name) + " | " + code(m.file) + " | "
                                     + std::to_string(m.line) + " | "
                                     + (m.skipped ? "skipped" : "absent") + " |\n");
            }
            table.fullList = code("relayhud-cli verdict --check-run " + job->run.checkRunId.value);
            m_doc.table(std::move(table));
        }
        m_doc.text("</details>\n\n");
    }

    const ReportInput& m_in;
    const ReportOptions& m_options;
    const std::string m_csvCommand;
    layout::Document m_doc;
    const std::vector<std::string> m_failedJobs; // a list item each (report_failed_jobs.h)
    const SectionRows m_rows;
    std::array<std::vector<const ClassifiedFailure*>, 6> m_sections; // expected xfails left out
    std::size_t m_expected = 0;                                      // ... and counted
};

} // namespace

std::string markdownReport(const ReportInput& input, const ReportOptions& options)
{
    return Writer(input, options).write();
}

} // namespace relayhud::verdict
