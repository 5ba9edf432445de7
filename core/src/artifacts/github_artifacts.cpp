// GitHub Actions artifacts of a run and job logs (artifacts/stores.h).
#include "artifacts/stores.h"

#include "artifacts/github_api.h"
#include "artifacts/signed_download.h"
#include "relayhud/artifacts/report_plan.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace relayhud::artifacts {
namespace {

using github::ArtifactInfo;

// A file name from an artifact name: no folders, nothing a shell or a file
// system would read specially.
std::string safeFileName(const std::string& name)
{
    std::string out;
    for (const char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'
                   ? c
                   : '_';
    out.erase(0, out.find_first_not_of('.'));
    return out.empty() ? "artifact" : out;
}

std::string runText(const ArtifactLocation& location)
{
    return location.owner + "/" + location.repo + " run " + location.runId;
}

Result<ArtifactFetch> fromRefusal(FetcherContext& context, const github::GitHubApi& api,
                                  const github::Refusal& refusal, const ArtifactLocation& location)
{
    const std::string what = "the artifacts of " + runText(location);
    auto judged = github::judgeRefusal(context, api, refusal, what,
                                       "GitHub no longer has " + runText(location)
                                           + " (runs and artifacts expire)");
    if (!judged)
        return judged.error();
    return fetchWithStatus(judged->status, std::move(judged->message));
}

std::string expiredText(const ArtifactLocation& location)
{
    return "the artifacts of " + runText(location) + " have expired (GitHub keeps them 90 days)";
}

// Downloads the chosen artifacts; stops at the first refusal of the token.
Result<ArtifactFetch> downloadChosen(FetcherContext& context, FetchCall& call,
                                     github::GitHubApi& api, const ArtifactLocation& location,
                                     const std::vector<ArtifactInfo>& chosen)
{
    ArtifactFetch fetch;
    std::string whyNone = expiredText(location); // the last artifact's reason, when it had one
    for (const ArtifactInfo& artifact : chosen) {
        if (call.cancelled())
            return makeError("cancelled");
        if (artifact.expired)
            continue;
        const std::string apiUrl = api.repoUrl(location.owner, location.repo)
                                   + "/actions/artifacts/" + std::to_string(artifact.id.value)
                                   + "/zip";
        auto one = github::downloadSigned(
            context, call, api, apiUrl, safeFileName(artifact.name) + ".zip",
            "artifact " + artifact.name, "artifact " + artifact.name + " has expired");
        if (!one)
            return makeError(runText(location) + ": " + one.message());
        if (one->status == FetchStatus::Unauthorized)
            return fetchWithStatus(one->status, std::move(one->message));
        if (one->file)
            fetch.files.push_back(std::move(*one->file));
        else
            whyNone = std::move(one->message);
    }
    if (fetch.files.empty())
        return fetchWithStatus(FetchStatus::Expired, std::move(whyNone));
    return fetch;
}

// One run's listing and what to take from it.
struct RunListing {
    std::string runId;
    std::vector<ArtifactInfo> artifacts;
    ReportPlan plan;
    std::string childName; // the dispatched child run's name; "" for the row's own run
};

ArtifactLocation childLocation(const ArtifactLocation& parent, const std::string& childRunId)
{
    ArtifactLocation child = parent;
    child.runId = childRunId;
    child.jobId.clear(); // the child's jobs are its own
    child.runAttempt = 0;
    return child;
}

// torch-spyre's variant B (real-backends.md 3.2, 7; torch-spyre
// build_test_pytorch_source.yaml @5a14b852): the callback's run dispatches
// _upstream_tests_beta_matrix.yaml with correlation_id
// "<run_id>-<run_number>-<epoch ms>", and the child run's name ends
// " (<correlation_id>)". No API links the two: the repository's
// workflow_dispatch runs created since the parent started are searched for
// that name. The suites' reports are the child's artifacts.
Result<RunListing> dispatchedChild(github::GitHubApi& api, const ArtifactLocation& parent,
                                   EpochSeconds now)
{
    RunListing none;
    const EpochSeconds since =
        (parent.startedAt > 0 ? parent.startedAt : now - 3 * kSecondsPerDay) - kSecondsPerDay;
    auto runs = api.listRuns(parent.owner, parent.repo, "workflow_dispatch", since, 3);
    if (!runs)
        return runs.error();
    if (runs->refusal)
        return none; // the parent's own listing decides what to say
    const std::string marker = "(" + parent.runId + "-";
    const auto child = std::find_if(runs->runs.begin(), runs->runs.end(), [&](const auto& run) {
        return run.name.find(marker) != std::string::npos && run.name.ends_with(")");
    });
    if (child == runs->runs.end())
        return none;
    const std::string childId = std::to_string(child->id.value);
    auto list = api.listRunArtifacts(parent.owner, parent.repo, childId);
    if (!list)
        return list.error();
    if (list->refusal)
        return none;
    RunListing out{childId, std::move(list->artifacts), {}, child->name};
    out.plan = planReportDownloads(out.artifacts, "", 0, now);
    return out;
}

std::string expiredOnText(const RunListing& listing, const ArtifactLocation& location)
{
    const std::string whose = listing.childName.empty()
                                  ? runText(location)
                                  : runText(childLocation(location, listing.runId));
    if (listing.plan.expiredOn > 0)
        return "the reports of " + whose + " expired on "
               + formatIso(listing.plan.expiredOn).substr(0, 10);
    return "the reports of " + whose + " have expired";
}

std::string noReportsText(const RunListing& listing, const ArtifactLocation& location)
{
    const bool othersOnly =
        !listing.plan.skipped.empty()
        && std::all_of(listing.plan.skipped.begin(), listing.plan.skipped.end(),
                       [](const SkippedArtifact& s) { return s.why == kOtherJobOrAttempt; });
    if (othersOnly)
        return "none of the " + std::to_string(listing.artifacts.size()) + " artifacts of "
               + runText(location) + " belong to job " + location.jobId;
    if (listing.artifacts.empty())
        return "no reports uploaded: " + runText(location) + " has no artifacts";
    return "no reports uploaded: none of the " + std::to_string(listing.artifacts.size())
           + " artifacts of " + runText(location) + " is a test report";
}

// Downloads what the plan chose from `listing` (the row's run, or the child
// it dispatched; `parent` is the row's own listing then), saying what was
// left and why.
Result<ArtifactFetch> fetchPlanned(FetcherContext& context, FetchCall& call, github::GitHubApi& api,
                                   const ArtifactLocation& location, const RunListing& listing,
                                   const RunListing* parent)
{
    ArtifactFetch fetch;
    std::vector<ArtifactInfo> chosen;
    for (const std::size_t i : listing.plan.download)
        chosen.push_back(listing.artifacts[i]);
    if (!chosen.empty()) {
        const ArtifactLocation where = parent ? childLocation(location, listing.runId) : location;
        auto downloaded = downloadChosen(context, call, api, where, chosen);
        if (!downloaded)
            return downloaded.error();
        fetch = std::move(*downloaded);
    } else if (listing.plan.expiredReports > 0) {
        fetch = fetchWithStatus(FetchStatus::Expired, expiredOnText(listing, location));
    } else {
        fetch = fetchWithStatus(FetchStatus::Empty,
                                noReportsText(parent ? *parent : listing, location));
    }
    if (parent) {
        fetch.notes.push_back("reports of the dispatched run " + listing.runId + " ("
                              + listing.childName + ")");
        for (const ArtifactInfo& a : parent->artifacts)
            fetch.listedNames.push_back(a.name);
        for (const SkippedArtifact& s : parent->plan.skipped)
            fetch.notes.push_back("not downloaded: " + skippedText(s));
    }
    for (const ArtifactInfo& a : listing.artifacts)
        fetch.listedNames.push_back(a.name);
    for (const SkippedArtifact& s : listing.plan.skipped)
        fetch.notes.push_back("not downloaded: " + skippedText(s));
    return fetch;
}

} // namespace

Result<ArtifactFetch> fetchGitHubArtifacts(FetcherContext& context, FetchCall& call,
                                           const ArtifactLocation& location)
{
    if (auto refused = context.standingRefusal("github"))
        return fetchWithStatus(FetchStatus::Unauthorized, *refused);
    github::GitHubApi api(context, call);
    auto list = api.listRunArtifacts(location.owner, location.repo, location.runId);
    if (!list)
        return makeError(runText(location) + ": " + list.message());
    if (list->refusal)
        return fromRefusal(context, api, *list->refusal, location);
    const EpochSeconds now = nowSeconds();
    RunListing listing{location.runId, std::move(list->artifacts), {}, {}};
    listing.plan = planReportDownloads(listing.artifacts, location.jobId, location.runAttempt, now);
    // Only a run that uploaded something (its wheels, say) may have
    // dispatched the run that holds its reports: one search, not one per
    // run that uploads nothing at all.
    if (listing.plan.liveReports == 0 && !listing.artifacts.empty()) {
        auto child = dispatchedChild(api, location, now);
        if (!child)
            return makeError(runText(location) + ": " + child.message());
        if (child->plan.liveReports > 0 || child->plan.expiredReports > 0)
            return fetchPlanned(context, call, api, location, *child, &listing);
    }
    return fetchPlanned(context, call, api, location, listing, nullptr);
}

Result<JobLogFetch> fetchGitHubJobLog(FetcherContext& context, FetchCall& call,
                                      const std::string& owner, const std::string& repo,
                                      const std::string& jobId)
{
    JobLogFetch fetch;
    if (auto refused = context.standingRefusal("github")) {
        fetch.status = FetchStatus::Unauthorized;
        fetch.message = *refused;
        return fetch;
    }
    github::GitHubApi api(context, call);
    const std::string apiUrl = api.repoUrl(owner, repo) + "/actions/jobs/" + jobId + "/logs";
    const std::string what = "the log of job " + jobId + " in " + owner + "/" + repo;
    auto got = github::downloadSigned(context, call, api, apiUrl, "job-" + jobId + ".log", what,
                                      what + " is no longer on GitHub (logs expire)");
    if (!got)
        return got.error();
    fetch.status = got->status;
    fetch.message = std::move(got->message);
    if (got->file)
        fetch.file = std::move(*got->file);
    return fetch;
}

} // namespace relayhud::artifacts
