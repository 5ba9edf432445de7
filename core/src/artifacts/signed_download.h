#pragma once
// GitHub's download dance for artifact zips and job logs: the API URL is
// asked with the token and answers 302 to a short-lived signed URL, which is
// fetched without it (the signature is the credential there, and the token
// must never reach the storage host). A signed URL that expired before use
// is asked for again once.
#include "artifacts/fetch_context.h"
#include "artifacts/github_api.h"

#include <optional>
#include <string>

namespace relayhud::github {

struct SignedDownload {
    FetchStatus status = FetchStatus::Fetched;
    std::string message;
    std::optional<FetchedFile> file;
};

// `what` names the thing in messages ("artifact test-reports-...", "the log
// of job 123"); `goneText` says what a 404/410 means for it.
Result<SignedDownload> downloadSigned(artifacts::FetcherContext& context,
                                      artifacts::FetchCall& call, GitHubApi& api,
                                      const std::string& apiUrl, const std::string& name,
                                      const std::string& what, const std::string& goneText);

// The status and message for a GitHub API refusal: 401/403 (and 404 without
// a token) Unauthorized, 404/410 Expired; an Error for anything else.
Result<SignedDownload> judgeRefusal(artifacts::FetcherContext& context, const GitHubApi& api,
                                    const Refusal& refusal, const std::string& what,
                                    const std::string& goneText);

} // namespace relayhud::github
