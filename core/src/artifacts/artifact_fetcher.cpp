// ArtifactFetcher: checks a location and hands it to its store's fetch code.
#include "relayhud/artifacts/artifact_store.h"

#include "artifacts/fetch_context.h"
#include "artifacts/stores.h"

#include <algorithm>
#include <cctype>

namespace relayhud {

struct ArtifactFetcher::Impl : artifacts::FetcherContext {
    using FetcherContext::FetcherContext;
};

namespace {

bool isPathPart(const std::string& text, bool digitsOnly)
{
    return !text.empty() && text.size() <= 100 && text != "." && text != ".."
           && std::all_of(text.begin(), text.end(), [&](unsigned char c) {
                  return digitsOnly ? std::isdigit(c) != 0
                                    : std::isalnum(c) || c == '-' || c == '_' || c == '.';
              });
}

// The parts that go into a GitHub API path must be names and numbers only.
Result<void> checkGitHubParts(const std::string& owner, const std::string& repo,
                              const std::string& id, const char* idName)
{
    if (!isPathPart(owner, false) || !isPathPart(repo, false))
        return makeError("not a GitHub repository: \"" + owner + "/" + repo + "\"");
    if (!isPathPart(id, true))
        return makeError(std::string("not a GitHub ") + idName + ": \"" + id + "\"");
    return {};
}

Result<ArtifactFetch> dispatch(artifacts::FetcherContext& context, artifacts::FetchCall& call,
                               const ArtifactLocation& location)
{
    switch (location.kind) {
    case StoreKind::GitHubArtifacts:
        if (auto ok = checkGitHubParts(location.owner, location.repo, location.runId, "run id");
            !ok)
            return ok.error();
        return artifacts::fetchGitHubArtifacts(context, call, location);
    case StoreKind::S3:
        if (location.bucket.empty())
            return makeError("no S3 bucket in " + location.url);
        return artifacts::fetchS3(context, call, location);
    case StoreKind::Https: return artifacts::fetchHttpsFile(context, call, location);
    case StoreKind::LocalPath: return artifacts::fetchLocalPath(location);
    }
    return makeError("unknown kind of artifact store");
}

} // namespace

ArtifactFetcher::ArtifactFetcher(HttpClient& http, ContentCache& blobs, ArtifactSettings settings,
                                 Credentials credentials)
    : m_impl(std::make_shared<Impl>(http, blobs, std::move(settings), std::move(credentials)))
{
}

Result<ArtifactFetch> ArtifactFetcher::fetch(const ArtifactLocation& location,
                                             const std::atomic<bool>* cancel)
{
    artifacts::FetchCall call{cancel};
    auto fetched = call.cancelled() ? Result<ArtifactFetch>(makeError("cancelled"))
                                    : dispatch(*m_impl, call, location);
    if (!fetched && call.cancelled())
        return makeError("cancelled"); // whatever broke off, that is why
    if (!fetched)
        return makeError(m_impl->redact(fetched.message()));
    fetched->requests = call.requests;
    fetched->message = m_impl->redact(fetched->message);
    return fetched;
}

Result<JobLogFetch> ArtifactFetcher::fetchJobLog(const std::string& owner, const std::string& repo,
                                                 const std::string& jobId,
                                                 const std::atomic<bool>* cancel)
{
    if (auto ok = checkGitHubParts(owner, repo, jobId, "job id"); !ok)
        return ok.error();
    artifacts::FetchCall call{cancel};
    auto fetched = artifacts::fetchGitHubJobLog(*m_impl, call, owner, repo, jobId);
    if (!fetched && call.cancelled())
        return makeError("cancelled");
    if (!fetched)
        return makeError(m_impl->redact(fetched.message()));
    fetched->message = m_impl->redact(fetched->message);
    return fetched;
}

Result<RepoFilesFetch> ArtifactFetcher::fetchWorkflowFiles(const std::string& owner,
                                                           const std::string& repo,
                                                           const std::atomic<bool>* cancel)
{
    if (auto ok = checkGitHubParts(owner, repo, "0", "id"); !ok)
        return ok.error();
    artifacts::FetchCall call{cancel};
    auto fetched = artifacts::fetchGitHubWorkflows(*m_impl, call, owner, repo);
    if (!fetched && call.cancelled())
        return makeError("cancelled");
    if (!fetched)
        return makeError(m_impl->redact(fetched.message()));
    fetched->message = m_impl->redact(fetched->message);
    fetched->requests = call.requests;
    return fetched;
}

RepoFilesFetch ArtifactFetcher::keptWorkflowFiles(const std::string& owner,
                                                  const std::string& repo) const
{
    if (!checkGitHubParts(owner, repo, "0", "id"))
        return RepoFilesFetch{FetchStatus::Empty, "not a GitHub repository", {}, 0};
    return artifacts::keptGitHubWorkflows(*m_impl, owner, repo);
}

RateLimitState ArtifactFetcher::rateLimit() const { return m_impl->rateLimit.state(); }

ContentCache& ArtifactFetcher::contentCache() const { return m_impl->blobs; }

} // namespace relayhud
