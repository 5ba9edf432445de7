// Greens grouped by verdict, then by short reason: the unverified ones
// first, as they are what a backend's on-call can act on, disputed before
// incomplete before unverifiable; the verified last.
#include "report_backends.h"

#include <algorithm>
#include <map>
#include <utility>

namespace relayhud::verdict {
namespace {

bool isGreen(Verdict v) { return v == Verdict::VerifiedGreen || isUnverifiedGreen(v); }

// Where a green goes in the line, and what it is called after "N green (".
std::size_t greenRank(Verdict v)
{
    switch (v) {
    case Verdict::GreenDisputed: return 0;
    case Verdict::GreenIncomplete: return 1;
    case Verdict::GreenUnverifiable: return 2;
    default: return 3;
    }
}

const char* greenName(std::size_t rank)
{
    static constexpr const char* kNames[] = {"disputed", "incomplete", "unverifiable", "verified"};
    return kNames[rank];
}

// "9 unverifiable: no outcome config", or with several reasons, the most
// frequent first: "6 unverifiable: 4 no artifacts, 2 no outcome config".
std::string greenGroup(std::size_t rank, const std::map<std::string, std::size_t>& reasons)
{
    std::vector<std::pair<std::string, std::size_t>> sorted(reasons.begin(), reasons.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::size_t total = 0;
    for (const auto& [reason, n] : sorted)
        total += n;
    std::string out = std::to_string(total) + " " + greenName(rank);
    if (sorted.size() == 1)
        return out + (sorted.front().first.empty() ? "" : ": " + sorted.front().first);
    std::string sep = ": ";
    for (const auto& [reason, n] : sorted) {
        out += sep + std::to_string(n) + " " + (reason.empty() ? "other" : reason);
        sep = ", ";
    }
    return out;
}

std::string line(const std::vector<const RunVerdict*>& jobs)
{
    std::map<std::size_t, std::map<std::string, std::size_t>> greens; // rank -> reason -> jobs
    std::map<Verdict, std::size_t> others;
    std::size_t green = 0;
    for (const RunVerdict* job : jobs) {
        if (isGreen(job->verdict)) {
            ++green;
            ++greens[greenRank(job->verdict)][job->shortReason];
        } else {
            ++others[job->verdict];
        }
    }
    std::string out = green ? std::to_string(green) + " green (" : "no green";
    std::string sep;
    for (const auto& [rank, reasons] : greens) {
        out += sep + greenGroup(rank, reasons);
        sep = "; ";
    }
    if (green)
        out += ")";
    for (const auto& [verdict, n] : others)
        out += " · " + std::to_string(n) + " " + verdictName(verdict);
    return out;
}

} // namespace

std::vector<BackendSummary> backendSummaries(const std::vector<RunVerdict>& jobs)
{
    std::vector<std::pair<std::string, std::vector<const RunVerdict*>>> byBackend;
    std::map<std::string, std::size_t> index;
    for (const RunVerdict& job : jobs) {
        auto [it, fresh] = index.emplace(job.run.downstreamRepo, byBackend.size());
        if (fresh)
            byBackend.push_back({job.run.downstreamRepo, {}});
        byBackend[it->second].second.push_back(&job);
    }
    std::vector<BackendSummary> out;
    out.reserve(byBackend.size());
    for (const auto& [backend, list] : byBackend)
        out.push_back({backend, line(list)});
    return out;
}

} // namespace relayhud::verdict
