#include "report_section_rows.h"

#include "report_cells.h"

namespace relayhud::verdict {

using namespace cells;

SectionRows::SectionRows(const ReportInput& in) : m_in(in)
{
    for (const RunVerdict& job : in.jobs)
        m_jobs.emplace(job.checkRunRow, &job);
}

std::string SectionRows::jobCell(const ClassifiedFailure& f) const
{
    std::string out;
    if (auto it = m_jobs.find(f.checkRunRow); it != m_jobs.end())
        out = esc(it->second->run.downstreamRepo) + "<br>" + jobName(it->second->run, f.attempt);
    else
        out = "check run " + std::to_string(f.checkRunRow.value);
    if (linkable(f.logUrl))
        out += " " + link("log", f.logUrl);
    else if (linkable(f.runUrl))
        out += " " + link("run", f.runUrl);
    return out;
}

std::string SectionRows::testCell(const ClassifiedFailure& f)
{
    return f.test.empty() ? "(the job)" : code(f.test);
}

std::string SectionRows::lineCell(const ClassifiedFailure& f)
{
    if (f.line.empty())
        return "–";
    return code(f.line) + (f.logLine ? " (log line " + std::to_string(f.logLine) + ")" : "");
}

std::string SectionRows::classCell(const ClassifiedFailure& f)
{
    std::string out = escapeMarkdown(triage::failureClassName(f.cls));
    out += f.tagged() ? " (tagged by " + esc(f.taggedBy) + ")" : " (suggested)";
    if (linkable(f.bugUrl))
        out += " " + link("bug", f.bugUrl);
    return out;
}

// The ends the compare link names (".../compare/<base>...<head>"): a
// merged PR's build compares main's tested commits, not the row's SHAs.
std::pair<std::string, std::string> SectionRows::compareEnds(const std::string& url)
{
    const auto at = url.rfind("/compare/");
    const auto dots = url.find("...", at == std::string::npos ? 0 : at);
    if (at == std::string::npos || dots == std::string::npos)
        return {};
    return {url.substr(at + 9, dots - at - 9), url.substr(dots + 3)};
}

std::string SectionRows::rangeLabel(const ClassifiedFailure& f) const
{
    const auto [base, head] = compareEnds(f.compareUrl);
    if (base.empty() || head.empty())
        return esc(f.baseSha.shortSha()) + "..." + esc(m_in.sha.shortSha());
    return esc(base.substr(0, 7)) + "..." + esc(head.substr(0, 7));
}

std::string SectionRows::rangeCell(const ClassifiedFailure& f) const
{
    return linkable(f.compareUrl) ? link(rangeLabel(f), f.compareUrl) : "–";
}

// This PR's files, and the push that brought it when its previous head
// passed (or, for a merged PR's build, the main range it tested).
std::string SectionRows::changeCell(const ClassifiedFailure& f) const
{
    std::string out = linkable(f.changeUrl) ? link("files", f.changeUrl) : "";
    if (linkable(f.compareUrl)) {
        const auto [base, head] = compareEnds(f.compareUrl);
        const bool heads = base == f.baseSha.value && head == m_in.sha.value;
        out += (out.empty() ? "" : "<br>") + std::string(heads ? "push " : "main ") + rangeCell(f);
    }
    return out.empty() ? "–" : out;
}

std::string SectionRows::firstSeenCell(const ClassifiedFailure& f)
{
    std::string out = f.firstSeen.empty() ? "–" : esc(f.firstSeen);
    if (f.culpritPr.value > 0)
        out +=
            "<br>likely "
            + (linkable(f.culpritUrl) ? link("#" + std::to_string(f.culpritPr.value), f.culpritUrl)
                                      : "#" + std::to_string(f.culpritPr.value));
    return out;
}

std::string SectionRows::rerunCell(const ClassifiedFailure& f)
{
    if (!f.rerunAttempt)
        return "–";
    const std::string label = "attempt " + std::to_string(f.rerunAttempt);
    return linkable(f.rerunUrl) ? link(label, f.rerunUrl) : label;
}

std::string SectionRows::row(ReportSection s, const ClassifiedFailure& f) const
{
    std::string middle;
    switch (s) {
    case ReportSection::Regression: middle = lineCell(f) + " | " + changeCell(f); break;
    case ReportSection::Broken:
        middle = classCell(f) + " | " + lineCell(f) + " | " + firstSeenCell(f);
        break;
    case ReportSection::Backend:
    case ReportSection::Other: middle = classCell(f) + " | " + lineCell(f); break;
    case ReportSection::Flaky: middle = rerunCell(f) + " | " + lineCell(f); break;
    case ReportSection::Infra:
        middle = lineCell(f) + " | " + (f.group.empty() ? "–" : esc(f.group));
        break;
    }
    return "| " + jobCell(f) + " | " + testCell(f) + " | " + middle + " | " + esc(f.why) + " |\n";
}

} // namespace relayhud::verdict
