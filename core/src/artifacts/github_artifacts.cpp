// GitHub Actions artifacts of a run and job logs (artifacts/stores.h).
#include "artifacts/stores.h"

#include "artifacts/github_api.h"
#include "artifacts/signed_download.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace relayhud::artifacts {
namespace {

using github::ArtifactInfo;

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
std::vector<std::size_t> narrow(const std::vector<std::string>& names,
                                std::vector<std::size_t> chosen,
                                const std::function<bool(const std::string&)>& applies,
                                const std::function<bool(const std::string&)>& keep)
{
    if (std::none_of(chosen.begin(), chosen.end(), [&](auto i) { return applies(names[i]); }))
        return chosen;
    std::erase_if(chosen, [&](auto i) { return !keep(names[i]); });
    return chosen;
}

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
                                   + "/actions/artifacts/" + std::to_string(artifact.id) + "/zip";
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

} // namespace

std::vector<std::size_t> selectArtifacts(const std::vector<std::string>& names,
                                         const std::string& jobId, int runAttempt)
{
    std::vector<std::size_t> chosen(names.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        chosen[i] = i;
    if (!jobId.empty())
        chosen = narrow(
            names, std::move(chosen), [](const auto& n) { return !jobSuffix(n).empty(); },
            [&](const auto& n) { return jobSuffix(n) == jobId; });
    if (runAttempt > 0)
        chosen = narrow(
            names, std::move(chosen), [](const auto& n) { return attemptIn(n) > 0; },
            [&](const auto& n) { return attemptIn(n) == runAttempt; });
    const auto isReport = [](const std::string& n) { return n.starts_with("test-reports"); };
    return narrow(names, std::move(chosen), isReport, isReport);
}

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
    if (list->artifacts.empty())
        return fetchWithStatus(FetchStatus::Empty, runText(location) + " has no artifacts");
    std::vector<std::string> names;
    for (const auto& artifact : list->artifacts)
        names.push_back(artifact.name);
    std::vector<ArtifactInfo> chosen;
    for (const auto i : selectArtifacts(names, location.jobId, location.runAttempt))
        chosen.push_back(list->artifacts[i]);
    if (chosen.empty())
        return fetchWithStatus(FetchStatus::Empty, "none of the " + std::to_string(names.size())
                                                       + " artifacts of " + runText(location)
                                                       + " belong to job " + location.jobId);
    return downloadChosen(context, call, api, location, chosen);
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
