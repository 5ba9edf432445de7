// The commit a run really tested (model/tested_commit.h).
#include "relayhud/model/tested_commit.h"

#include "relayhud/util/ascii.h"

#include <algorithm>
#include <array>

namespace relayhud {
namespace {

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool allHex(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), isHexDigit);
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// The full SHA right after `prefix` in `text`, up to `suffix` (or the end
// when suffix is empty); "" when the text has another shape.
std::string shaBetween(std::string_view text, std::string_view prefix, std::string_view suffix)
{
    if (!startsWith(text, prefix) || text.size() < prefix.size() + suffix.size())
        return {};
    text.remove_prefix(prefix.size());
    if (text.substr(text.size() - suffix.size()) != suffix)
        return {};
    text.remove_suffix(suffix.size());
    return isUpstreamCommit(text) ? lowerAscii(text) : std::string();
}

// build_test_pytorch_source.yaml (TS @01f88357, @5a14b852): the build job's
// name and its checkout step's (real-backends.md 3.2, 3.5).
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kJobNames{{
    {"Build PyTorch@", " + torch-spyre"},
    {"Checkout pytorch@", ""},
}};

// The wheels and the merged reports of one build (real-backends.md 3.2, 3.6).
constexpr std::array<std::string_view, 3> kArtifactPrefixes{"pytorch-wheel-", "torch-spyre-wheel-",
                                                            "upstream-beta-reports-"};

std::string shortOf(const std::string& sha) { return sha.substr(0, 7); }

} // namespace

bool isUpstreamCommit(std::string_view sha)
{
    return (sha.size() == 40 || sha.size() == 64) && allHex(sha);
}

bool sameCommit(std::string_view tested, std::string_view sha)
{
    if (tested.size() < 7 || sha.size() < tested.size() || !allHex(tested))
        return false;
    return lowerAscii(sha.substr(0, tested.size())) == lowerAscii(tested)
           && (tested.size() == sha.size() || tested.size() < 40);
}

std::string testedCommitSourceName(TestedCommitSource source)
{
    switch (source) {
    case TestedCommitSource::ActionsCheckout: return "log (actions/checkout)";
    case TestedCommitSource::FetchRef: return "log (FETCH_REF)";
    case TestedCommitSource::JobName: return "job name";
    case TestedCommitSource::ArtifactName: return "artifact name";
    }
    return "?";
}

std::optional<TestedCommit> testedCommitFromJobName(std::string_view jobName)
{
    for (const auto& [prefix, suffix] : kJobNames)
        if (std::string sha = shaBetween(jobName, prefix, suffix); !sha.empty())
            return TestedCommit{
                std::move(sha), {}, TestedCommitSource::JobName, std::string(jobName), 0};
    return std::nullopt;
}

Result<std::optional<TestedCommit>>
testedCommitFromArtifactNames(const std::vector<std::string>& names)
{
    std::optional<TestedCommit> found;
    for (const std::string& name : names) {
        for (const std::string_view prefix : kArtifactPrefixes) {
            std::string sha = shaBetween(name, prefix, "");
            if (sha.empty())
                continue;
            if (found && found->sha != sha)
                return makeError("the run's artifacts name two commits: " + found->evidence
                                 + " and " + name);
            if (!found)
                found = TestedCommit{std::move(sha), {}, TestedCommitSource::ArtifactName, name, 0};
        }
    }
    return found;
}

std::optional<TestedCommit> testedCommitFromCheckouts(const std::vector<LogCheckout>& checkouts,
                                                      std::string_view upstreamRepo)
{
    const std::string repo = lowerAscii(upstreamRepo);
    for (auto it = checkouts.rbegin(); it != checkouts.rend(); ++it) {
        if (it->sha.empty() || lowerAscii(it->repository) != repo)
            continue;
        const bool fetched = !it->fetchRef.empty();
        return TestedCommit{
            it->sha, fetched && !isUpstreamCommit(it->fetchRef) ? it->fetchRef : std::string(),
            fetched ? TestedCommitSource::FetchRef : TestedCommitSource::ActionsCheckout,
            fetched ? "FETCH_REF " + it->fetchRef : std::string(), it->line};
    }
    return std::nullopt;
}

bool isMergedBuildSource(TestedCommitSource source)
{
    return source != TestedCommitSource::ActionsCheckout;
}

std::string testedCommitText(const TestedCommit& tested, const Sha& rowSha, PrNumber prNumber,
                             std::string_view baseBranch)
{
    if (sameCommit(tested.sha, rowSha.value))
        return "tested the row's commit";
    const std::string branch = !baseBranch.empty() ? std::string(baseBranch) : tested.ref;
    const std::string at = (branch.empty() ? std::string() : branch + "@") + shortOf(tested.sha);
    if (prNumber.value > 0 && isMergedBuildSource(tested.source))
        return "tested " + at + " after #" + std::to_string(prNumber.value) + " merged";
    if (prNumber.value > 0)
        return "tested " + at + ", not the PR's head";
    return "tested " + at;
}

} // namespace relayhud
