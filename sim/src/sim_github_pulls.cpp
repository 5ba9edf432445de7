#include "sim_github_pulls.h"
#include "sim_github_ids.h"

#include "sim_text.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

Json user(const std::string& login)
{
    const std::int64_t id = gitHubIdOf(login, 1'000'000);
    return Json{
        {"login", login},
        {"id", id},
        {"avatar_url", "https://avatars.githubusercontent.com/u/" + std::to_string(id) + "?v=4"},
        {"url", "https://api.github.com/users/" + login},
        {"html_url", gitHubWebUrl(login)},
        {"type", "User"},
        {"site_admin", false}};
}

Json repo(const std::string& fullName, const std::string& apiUrl, bool fork)
{
    const std::int64_t id = gitHubIdOf(fullName, 65'000'000);
    const std::string ownerLogin = fullName.substr(0, fullName.find('/'));
    return Json{{"id", id},
                {"name", fullName.substr(fullName.find('/') + 1)},
                {"full_name", fullName},
                {"private", false},
                {"owner", user(ownerLogin)},
                {"html_url", gitHubWebUrl(fullName)},
                {"fork", fork},
                {"url", apiUrl + "/repos/" + fullName},
                {"default_branch", "main"}};
}

Json timeOrNull(EpochSeconds t) { return t != 0 ? Json(githubTime(t)) : Json(nullptr); }

// The newest head pushed by `now` (the PR's first if none is).
const SimPullHead* headAt(const SimPullRequest& pr, EpochSeconds now)
{
    const SimPullHead* out = pr.heads.empty() ? nullptr : &pr.heads.front();
    for (const SimPullHead& h : pr.heads)
        if (h.time <= now)
            out = &h;
    return out;
}

} // namespace

Json pullRequestJson(const SimPullRequest& pr, const std::string& apiUrl, EpochSeconds now)
{
    const std::string upstream(kUpstreamRepo);
    const std::string number = std::to_string(pr.number.value);
    const std::string url = apiUrl + "/repos/" + upstream + "/pulls/" + number;
    const SimPullHead* head = headAt(pr, now);
    const EpochSeconds updated = std::max(head ? head->time : pr.createdAt, pr.closedAt);
    const std::string fork = pr.author + "/pytorch";
    const std::int64_t id = gitHubIdOf(upstream + "#" + number, 1'900'000'000);
    return Json{
        {"url", url},
        {"id", id},
        {"html_url", gitHubWebUrl(upstream + "/pull/" + number)},
        {"diff_url", gitHubWebUrl(upstream + "/pull/" + number + ".diff")},
        {"patch_url", gitHubWebUrl(upstream + "/pull/" + number + ".patch")},
        {"issue_url", apiUrl + "/repos/" + upstream + "/issues/" + number},
        {"number", pr.number.value},
        {"state", pr.closedAt != 0 ? "closed" : "open"},
        {"locked", false},
        {"title", pr.title},
        {"user", user(pr.author)},
        {"body", nullptr},
        {"labels", Json::array()},
        {"created_at", githubTime(pr.createdAt)},
        {"updated_at", githubTime(updated)},
        {"closed_at", timeOrNull(pr.closedAt)},
        {"merged_at", timeOrNull(pr.mergedAt)},
        {"merge_commit_sha", pr.merged() ? Json(pr.mergeCommitSha.value) : Json(nullptr)},
        {"head", Json{{"label", pr.author + ":" + pr.headRef},
                      {"ref", pr.headRef},
                      {"sha", head ? head->sha.value : std::string()},
                      {"user", user(pr.author)},
                      {"repo", repo(fork, apiUrl, true)}}},
        {"base", Json{{"label", "pytorch:" + pr.baseRef},
                      {"ref", pr.baseRef},
                      {"sha", pr.baseSha.value},
                      {"user", user("pytorch")},
                      {"repo", repo(upstream, apiUrl, false)}}},
        {"author_association", "CONTRIBUTOR"},
        {"draft", false},
        {"merged", pr.merged()},
        {"merged_by", pr.merged() ? user("pytorchmergebot") : Json(nullptr)},
        {"commits", pr.heads.size()},
    };
}

} // namespace relayhud::sim
