// Which artifacts of a run to download for its reports
// (relayhud/artifacts/report_plan.h).
#include "relayhud/artifacts/report_plan.h"

#include "relayhud/util/read_file.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>

namespace relayhud {
namespace {

std::string lowered(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// A word of the name: "pytorch-wheel-<sha>" has "wheel", "wheelhouse" has not.
bool hasToken(const std::string& name, std::string_view token)
{
    for (auto at = name.find(token); at != std::string::npos; at = name.find(token, at + 1)) {
        const auto end = at + token.size();
        const auto separator = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) == 0;
        };
        if ((at == 0 || separator(name[at - 1])) && (end == name.size() || separator(name[end])))
            return true;
    }
    return false;
}

// "..._12345678" -> "12345678": PyTorch's upload-test-artifacts job suffix.
std::string jobSuffix(const std::string& name)
{
    const auto underscore = name.rfind('_');
    if (underscore == std::string::npos || underscore + 1 == name.size())
        return {};
    const std::string digits = name.substr(underscore + 1);
    const bool allDigits = std::all_of(digits.begin(), digits.end(),
                                       [](unsigned char c) { return std::isdigit(c) != 0; });
    return allDigits ? digits : std::string();
}

// "test-reports-runattempt2-..." -> 2; 0 when the name carries none.
int attemptIn(const std::string& name)
{
    constexpr std::string_view marker = "runattempt";
    const auto at = name.find(marker);
    if (at == std::string::npos)
        return 0;
    int attempt = 0;
    for (auto i = at + marker.size();
         i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && attempt < 100000;
         ++i)
        attempt = attempt * 10 + (name[i] - '0');
    return attempt;
}

// Keeps the indexes for which `keep` holds, unless `applies` holds for none of them.
void narrow(const std::vector<github::ArtifactInfo>& listing, std::vector<std::size_t>& chosen,
            const std::function<bool(const std::string&)>& applies,
            const std::function<bool(const std::string&)>& keep)
{
    if (std::none_of(chosen.begin(), chosen.end(),
                     [&](auto i) { return applies(listing[i].name); }))
        return;
    std::erase_if(chosen, [&](auto i) { return !keep(listing[i].name); });
}

bool isReportKind(ArtifactKind kind)
{
    return kind == ArtifactKind::Report || kind == ArtifactKind::MergedReports;
}

bool expiredAt(const github::ArtifactInfo& artifact, EpochSeconds now)
{
    return artifact.expired || (artifact.expiresAt > 0 && artifact.expiresAt <= now);
}

class Planner {
public:
    Planner(const std::vector<github::ArtifactInfo>& listing, EpochSeconds now)
        : m_listing(listing), m_now(now)
    {
    }

    ReportPlan plan(const std::string& jobId, int runAttempt)
    {
        std::vector<std::size_t> reports;
        for (std::size_t i = 0; i < m_listing.size(); ++i)
            if (!sortOut(i))
                reports.push_back(i);
        const std::vector<std::size_t> before = reports;
        if (!jobId.empty())
            narrow(
                m_listing, reports, [](const auto& n) { return !jobSuffix(n).empty(); },
                [&](const auto& n) { return jobSuffix(n) == jobId; });
        if (runAttempt > 0)
            narrow(
                m_listing, reports, [](const auto& n) { return attemptIn(n) > 0; },
                [&](const auto& n) { return attemptIn(n) == runAttempt; });
        for (const std::size_t i : before)
            if (std::find(reports.begin(), reports.end(), i) == reports.end())
                skip(i, std::string(kOtherJobOrAttempt));
        dropUnknownsBesideReports(reports);
        dropSuitesCoveredByMerged(reports);
        for (const std::size_t i : reports) {
            if (expiredAt(m_listing[i], m_now)) {
                ++m_out.expiredReports;
                m_out.expiredOn = std::max(m_out.expiredOn, m_listing[i].expiresAt);
                continue;
            }
            if (isReportKind(artifactKindOf(m_listing[i].name)))
                ++m_out.liveReports;
            m_out.download.push_back(i);
        }
        return std::move(m_out);
    }

private:
    // Binaries, health reports and big unknowns leave here, said why.
    bool sortOut(std::size_t i)
    {
        const github::ArtifactInfo& a = m_listing[i];
        switch (artifactKindOf(a.name)) {
        case ArtifactKind::Binary: skip(i, "a wheel or other binary"); return true;
        case ArtifactKind::HealthReport: skip(i, "health checks, not test cases"); return true;
        case ArtifactKind::Unknown:
            if (a.sizeInBytes > kPeekArtifactBytes) {
                skip(i, "its name is not a report's, and it is too big to look inside");
                return true;
            }
            return false;
        case ArtifactKind::Report:
        case ArtifactKind::MergedReports: return false;
        }
        return false;
    }

    // Where the names show reports, an artifact whose name says nothing is
    // not looked into.
    void dropUnknownsBesideReports(std::vector<std::size_t>& reports)
    {
        const auto isReport = [&](std::size_t i) {
            return isReportKind(artifactKindOf(m_listing[i].name));
        };
        if (std::none_of(reports.begin(), reports.end(), isReport))
            return;
        std::erase_if(reports, [&](std::size_t i) {
            if (isReport(i))
                return false;
            skip(i, "not a report by its name, beside the run's reports");
            return true;
        });
    }

    // torch-spyre's report job merges the per-suite `<config stem>.xml`
    // artifacts into `upstream-beta-reports-<sha>`: the same cases. While the
    // merged one lives, it alone is read.
    void dropSuitesCoveredByMerged(std::vector<std::size_t>& reports)
    {
        const auto merged = std::find_if(reports.begin(), reports.end(), [&](std::size_t i) {
            return artifactKindOf(m_listing[i].name) == ArtifactKind::MergedReports
                   && !expiredAt(m_listing[i], m_now);
        });
        if (merged == reports.end())
            return;
        const std::string mergedName = m_listing[*merged].name;
        std::erase_if(reports, [&](std::size_t i) {
            const bool suite = lowered(m_listing[i].name).ends_with(".xml");
            if (suite)
                skip(i, "the same cases as " + mergedName);
            return suite;
        });
    }

    void skip(std::size_t i, std::string why)
    {
        m_out.skipped.push_back({m_listing[i].name, m_listing[i].sizeInBytes, std::move(why)});
    }

    const std::vector<github::ArtifactInfo>& m_listing;
    EpochSeconds m_now;
    ReportPlan m_out;
};

} // namespace

ArtifactKind artifactKindOf(const std::string& rawName)
{
    const std::string name = lowered(rawName);
    if (name.ends_with(".whl") || hasToken(name, "wheel") || hasToken(name, "wheels")
        || hasToken(name, "whl") || name.ends_with(".deb") || name.ends_with(".rpm")
        || name.ends_with(".so") || hasToken(name, "docker") || hasToken(name, "image")
        || hasToken(name, "binaries") || hasToken(name, "sdist"))
        return ArtifactKind::Binary;
    if (name.starts_with("crcr-health"))
        return ArtifactKind::HealthReport;
    if (name.starts_with("upstream-beta-reports"))
        return ArtifactKind::MergedReports;
    if (name.starts_with("test-reports") || name.ends_with(".xml") || name.ends_with(".xml.gz")
        || contains(name, "junit") || contains(name, "test-results")
        || contains(name, "test_results") || hasToken(name, "reports"))
        return ArtifactKind::Report;
    return ArtifactKind::Unknown;
}

const char* artifactKindName(ArtifactKind kind)
{
    switch (kind) {
    case ArtifactKind::Report: return "report";
    case ArtifactKind::MergedReports: return "merged reports";
    case ArtifactKind::Binary: return "wheel or binary";
    case ArtifactKind::HealthReport: return "health report";
    case ArtifactKind::Unknown: return "unknown";
    }
    return "unknown";
}

ReportPlan planReportDownloads(const std::vector<github::ArtifactInfo>& listing,
                               const std::string& jobId, int runAttempt, EpochSeconds now)
{
    return Planner(listing, now).plan(jobId, runAttempt);
}

std::string skippedText(const SkippedArtifact& skipped)
{
    std::string out = skipped.name + " (";
    if (skipped.bytes > 0)
        out += byteSizeText(static_cast<std::uint64_t>(skipped.bytes)) + ", ";
    return out + skipped.why + ")";
}

} // namespace relayhud
