// The Markdown report, in the order a PR author or a backend's on-call acts
// on it: the failures by section first (caused by this PR with its files and
// push, already broken upstream with the likely culprit, flaky with the
// passing rerun, infra with its outage, others), then one line per backend
// for its greens and other jobs, then folded: the per-job verdict table,
// what unverified greens are missing, and what the sections mean. Long lists
// fold into <details>; the whole fits a GitHub comment (report_layout.h).
#include "report_backends.h"
#include "report_gating.h"
#include "report_layout.h"

#include "relayhud/model/count_kind.h"
#include "relayhud/verdict/report.h"

#include <algorithm>
#include <array>
#include <map>

namespace relayhud::verdict {
namespace {

// A cell's worth of CI text: a hostile megabyte name must not make a row
// that alone overflows the comment.
constexpr std::size_t kCellBytes = 512;
constexpr std::size_t kUrlBytes = 2048;
constexpr std::size_t kReasonsShown = 8;
constexpr std::size_t kRangesShown = 10;

std::string esc(std::string_view text) { return escapeMarkdown(clipUtf8(text, kCellBytes)); }
std::string code(std::string_view text) { return markdownCode(clipUtf8(text, kCellBytes)); }

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
    return (url.starts_with("https://") || url.starts_with("http://")) && url.size() <= kUrlBytes
           && url.find_first_of(" \t\r\n<>\"'`") == std::string_view::npos;
}

std::string link(std::string_view label, std::string_view url)
{
    return "[" + std::string(label) + "](<" + std::string(url) + ">)";
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

// The attempt is named when it is a rerun, or not the one the job table
// shows (a flaky failure of an earlier attempt).
std::string jobName(const CheckRun& run, int attempt)
{
    const bool named = attempt > 1 || attempt != run.runAttempt;
    return esc(run.workflow + " / " + run.jobName)
           + (named ? " (attempt " + std::to_string(attempt) + ")" : "");
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

std::string plural(std::size_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
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
    static const std::array<SectionText, 5> texts = {{
        {"Caused by this PR", "failure caused by this PR", "failures caused by this PR",
         "Fails on this PR's heads and not on other PRs' runs of the same job at the time: the "
         "PR's changes (and the push that brought it) are the first place to look.",
         "| Job | Test | Failure line | Change | Why |\n|---|---|---|---|---|\n"},
        {"Already broken upstream", "already broken", "already broken",
         "Most PRs' runs of the job fail it since a breakage started: not this PR's doing. First "
         "seen names the PR that failed it before it spread (the likely culprit); with none, "
         "every run started failing at once (the backend changed).",
         "| Job | Test | Class | Failure line | First seen | Why |\n|---|---|---|---|---|---|\n"},
        {"Flaky", "flaky", "flaky",
         "Failed, then passed on a rerun of the same SHA, or other PRs' runs fail it now and then "
         "without a common start.",
         "| Job | Test | Passed on | Failure line | Why |\n|---|---|---|---|---|\n"},
        {"Infra", "infra", "infra",
         "The job failed for reasons outside the code under test (runner, network, storage).",
         "| Job | Test | Failure line | Outage | Why |\n|---|---|---|---|---|\n"},
        {"Others", "other", "others",
         "Failures with nothing to compare against, test or config problems, expected failures "
         "(xfail) and unexpected passes.",
         "| Job | Test | Class | Failure line | Why |\n|---|---|---|---|---|\n"},
    }};
    return texts[static_cast<std::size_t>(s)];
}

class Writer {
public:
    Writer(const ReportInput& in, const ReportOptions& options)
        : m_in(in), m_options(options),
          m_csvCommand(code("relayhud-cli report --format csv --sha " + in.sha.value)),
          m_doc(m_csvCommand)
    {
        for (const RunVerdict& job : in.jobs)
            m_jobs.emplace(job.checkRunRow, &job);
        for (const ClassifiedFailure& f : in.failures)
            m_sections[static_cast<std::size_t>(sectionOf(f))].push_back(&f);
        // A SHA's runs hold thousands of xfails that failed as expected:
        // the others a reader must look at come before them.
        auto& others = m_sections[static_cast<std::size_t>(ReportSection::Other)];
        std::stable_sort(others.begin(), others.end(),
                         [](const ClassifiedFailure* a, const ClassifiedFailure* b) {
                             return isExpected(*a) < isExpected(*b);
                         });
    }

    std::string write()
    {
        title();
        for (std::size_t s = 0; s < m_sections.size(); ++s)
            section(static_cast<ReportSection>(s));
        if (m_in.failures.empty())
            m_doc.text("No failing test or job.\n\n");
        if (m_in.gating)
            writeGatingSection(m_doc, *m_in.gating, m_in.sha);
        backends();
        jobTable();
        unverifiedGreens();
        legend();
        return m_doc.render(m_options);
    }

private:
    void title()
    {
        const Sha& sha = m_in.sha;
        const std::string url = "https://github.com/" + m_in.upstreamRepo + "/commit/" + sha.value;
        const std::string label = esc(m_in.upstreamRepo) + "@" + esc(sha.shortSha());
        m_doc.text("## RelayHUD report: " + (linkable(url) ? link(label, url) : label) + "\n");
    }

    // One line per backend (its greens counted, not listed), then the
    // totals: the per-job rows are folded further down.
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
        m_doc.text(totals());
    }

    // "26 jobs · ✅ 3 verified green · ...", and the failures by section on
    // a second line of the same paragraph (a hard line break).
    std::string totals() const
    {
        std::string out = plural(m_in.jobs.size(), "job", "jobs");
        std::map<Verdict, int> counts;
        for (const RunVerdict& job : m_in.jobs)
            ++counts[job.verdict];
        for (const auto& [verdict, n] : counts)
            out += " · " + std::string(verdictMark(verdict)) + " " + std::to_string(n) + " "
                   + verdictName(verdict);
        std::string failures;
        for (std::size_t s = 0; s < m_sections.size(); ++s) {
            const SectionText& text = sectionText(static_cast<ReportSection>(s));
            if (m_sections[s].empty())
                continue;
            failures +=
                (failures.empty() ? "" : " · ") + plural(m_sections[s].size(), text.one, text.many);
            if (const std::size_t expected = expectedCount(m_sections[s]))
                failures += " (" + std::to_string(expected) + " expected)";
        }
        if (!failures.empty())
            out += "\\\nFailures: " + failures;
        return out + "\n\n";
    }

    void jobTable()
    {
        layout::Table table;
        table.summary = "All " + plural(m_in.jobs.size(), "job", "jobs")
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
    std::string testedNote(std::int64_t checkRunRow) const
    {
        const auto it = m_in.tested.find(checkRunRow);
        return it == m_in.tested.end() ? std::string() : "<br>" + esc(it->second);
    }

    std::string jobCell(const ClassifiedFailure& f) const
    {
        std::string out;
        if (auto it = m_jobs.find(f.checkRunRow); it != m_jobs.end())
            out =
                esc(it->second->run.downstreamRepo) + "<br>" + jobName(it->second->run, f.attempt);
        else
            out = "check run " + std::to_string(f.checkRunRow);
        if (linkable(f.logUrl))
            out += " " + link("log", f.logUrl);
        else if (linkable(f.runUrl))
            out += " " + link("run", f.runUrl);
        return out;
    }

    static std::string testCell(const ClassifiedFailure& f)
    {
        return f.test.empty() ? "(the job)" : code(f.test);
    }

    static std::string lineCell(const ClassifiedFailure& f)
    {
        if (f.line.empty())
            return "–";
        return code(f.line) + (f.logLine ? " (log line " + std::to_string(f.logLine) + ")" : "");
    }

    static std::string classCell(const ClassifiedFailure& f)
    {
        std::string out = escapeMarkdown(triage::failureClassName(f.cls));
        out += f.tagged() ? " (tagged by " + esc(f.taggedBy) + ")" : " (suggested)";
        if (linkable(f.bugUrl))
            out += " " + link("bug", f.bugUrl);
        return out;
    }

    // The ends the compare link names (".../compare/<base>...<head>"): a
    // merged PR's build compares main's tested commits, not the row's SHAs.
    static std::pair<std::string, std::string> compareEnds(const std::string& url)
    {
        const auto at = url.rfind("/compare/");
        const auto dots = url.find("...", at == std::string::npos ? 0 : at);
        if (at == std::string::npos || dots == std::string::npos)
            return {};
        return {url.substr(at + 9, dots - at - 9), url.substr(dots + 3)};
    }

    std::string rangeLabel(const ClassifiedFailure& f) const
    {
        const auto [base, head] = compareEnds(f.compareUrl);
        if (base.empty() || head.empty())
            return esc(f.baseSha.shortSha()) + "..." + esc(m_in.sha.shortSha());
        return esc(base.substr(0, 7)) + "..." + esc(head.substr(0, 7));
    }

    std::string rangeCell(const ClassifiedFailure& f) const
    {
        return linkable(f.compareUrl) ? link(rangeLabel(f), f.compareUrl) : "–";
    }

    // This PR's files, and the push that brought it when its previous head
    // passed (or, for a merged PR's build, the main range it tested).
    std::string changeCell(const ClassifiedFailure& f) const
    {
        std::string out = linkable(f.changeUrl) ? link("files", f.changeUrl) : "";
        if (linkable(f.compareUrl)) {
            const auto [base, head] = compareEnds(f.compareUrl);
            const bool heads = base == f.baseSha.value && head == m_in.sha.value;
            out +=
                (out.empty() ? "" : "<br>") + std::string(heads ? "push " : "main ") + rangeCell(f);
        }
        return out.empty() ? "–" : out;
    }

    static std::string firstSeenCell(const ClassifiedFailure& f)
    {
        std::string out = f.firstSeen.empty() ? "–" : esc(f.firstSeen);
        if (f.culpritPr > 0)
            out += "<br>likely "
                   + (linkable(f.culpritUrl) ? link("#" + std::to_string(f.culpritPr), f.culpritUrl)
                                             : "#" + std::to_string(f.culpritPr));
        return out;
    }

    static std::string rerunCell(const ClassifiedFailure& f)
    {
        if (!f.rerunAttempt)
            return "–";
        const std::string label = "attempt " + std::to_string(f.rerunAttempt);
        return linkable(f.rerunUrl) ? link(label, f.rerunUrl) : label;
    }

    std::string row(ReportSection s, const ClassifiedFailure& f) const
    {
        std::string middle;
        switch (s) {
        case ReportSection::Regression: middle = lineCell(f) + " | " + changeCell(f); break;
        case ReportSection::Broken:
            middle = classCell(f) + " | " + lineCell(f) + " | " + firstSeenCell(f);
            break;
        case ReportSection::Other: middle = classCell(f) + " | " + lineCell(f); break;
        case ReportSection::Flaky: middle = rerunCell(f) + " | " + lineCell(f); break;
        case ReportSection::Infra:
            middle = lineCell(f) + " | " + (f.group.empty() ? "–" : esc(f.group));
            break;
        }
        return "| " + jobCell(f) + " | " + testCell(f) + " | " + middle + " | " + esc(f.why)
               + " |\n";
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
            culprits
                ? distinct(list,
                           [](const ClassifiedFailure& f) {
                               return f.culpritPr > 0 ? std::to_string(f.culpritPr) : std::string();
                           })
                : distinct(list, [](const ClassifiedFailure& f) { return f.group; });
        std::string out;
        for (std::size_t i = 0; i < groups.size() && i < kRangesShown; ++i) {
            const ClassifiedFailure& f = *groups[i].first;
            const std::string number = "#" + std::to_string(f.culpritPr);
            const std::string what = !culprits                ? esc(f.group)
                                     : linkable(f.culpritUrl) ? link(number, f.culpritUrl)
                                                              : number;
            out += (out.empty() ? "" : " · ") + what + " ("
                   + plural(groups[i].second, "failure", "failures") + ")";
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
        // No blank lines after a heading, here and above: a report is read
        // where lines are scarce (issue 17), and headings need none.
        table.intro = "### " + std::string(text.title) + " (" + std::to_string(list.size()) + ")\n";
        table.summary = plural(list.size(), text.one, text.many);
        if (const std::size_t expected = expectedCount(list))
            table.summary += ", " + std::to_string(expected) + " expected (xfail)";
        table.head = text.head;
        // Rows past maxRows would never show: count them, don't build them.
        for (std::size_t i = 0; i < list.size() && i < m_options.maxRows; ++i)
            table.rows.push_back(row(s, *list[i]));
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
        out += "\nA green is verified only when the artifacts and the backend's outcome config "
               "back it.\n\n</details>\n";
        m_doc.text(std::move(out));
    }

    void unverifiedGreens()
    {
        bool any = false;
        for (const RunVerdict& job : m_in.jobs) {
            if (!job.configCoverage || job.configCoverage->mandatoryNotRun.empty())
                continue;
            const auto& missing = job.configCoverage->mandatoryNotRun;
            layout::Table table;
            if (!any)
                table.intro = "### Mandatory tests that did not run\n\n";
            any = true;
            table.intro += "**" + esc(job.run.downstreamRepo) + "** "
                           + jobName(job.run, job.run.runAttempt) + ": "
                           + std::to_string(missing.size()) + " missing\n\n";
            table.summary = plural(missing.size(), "mandatory test", "mandatory tests");
            table.head = "| Config name | File | Line | |\n|---|---|---|---|\n";
            table.total = missing.size();
            for (std::size_t i = 0; i < missing.size() && i < m_options.maxRows; ++i) {
                const MissingTest& m = missing[i];
                table.rows.push_back("| " + code(m.name) + " | " + code(m.file) + " | "
                                     + std::to_string(m.line) + " | "
                                     + (m.skipped ? "skipped" : "absent") + " |\n");
            }
            table.fullList = code("relayhud-cli verdict --check-run " + job.run.checkRunId.value);
            m_doc.table(std::move(table));
        }
    }

    static bool isExpected(const ClassifiedFailure& f)
    {
        return f.cls == triage::FailureClass::Expected;
    }

    static std::size_t expectedCount(const std::vector<const ClassifiedFailure*>& list)
    {
        return static_cast<std::size_t>(std::count_if(
            list.begin(), list.end(), [](const ClassifiedFailure* f) { return isExpected(*f); }));
    }

    const ReportInput& m_in;
    const ReportOptions& m_options;
    const std::string m_csvCommand;
    layout::Document m_doc;
    std::map<std::int64_t, const RunVerdict*> m_jobs;
    std::array<std::vector<const ClassifiedFailure*>, 5> m_sections;
};

} // namespace

std::string markdownReport(const ReportInput& input, const ReportOptions& options)
{
    return Writer(input, options).write();
}

} // namespace relayhud::verdict
