#pragma once
// Downloads into the content cache: one URL's answer becomes a blob, found
// again by a stable URL (the API URL, never a short-lived signed one). Asks
// conditionally (If-None-Match with the recorded ETag) when told to, and
// resumes a partial download left by an earlier try.
#include "artifacts/fetch_context.h"

#include <optional>
#include <string>

namespace relayhud::artifacts {

struct BlobAnswer {
    HttpResponse response;           // status, headers; an error answer's body
    std::optional<FetchedFile> file; // set for a 2xx, or a 304 with the blob still cached
};

// The blob `stableUrl` gave last time, if it is still cached, as `name`.
std::optional<FetchedFile> cachedFile(const FetcherContext& context, const std::string& stableUrl,
                                      const std::string& name);

// GETs `request` into the cache and records it under `stableUrl`. With
// `conditional`, sends the recorded ETag; a 304 reuses the blob. An answer
// that is not a 2xx/304 (the request must ask for it with statusAsAnswer or
// followRedirects=false) comes back with no file, for the caller to judge.
Result<BlobAnswer> downloadToCache(FetcherContext& context, FetchCall& call,
                                   const std::string& stableUrl, HttpRequest request,
                                   bool conditional, const std::string& name);

// Moves a finished download (`part`, from HttpClient::download) into the
// cache and records it under `stableUrl` with the answer's validators.
Result<FetchedFile> adoptDownload(FetcherContext& context, const std::string& stableUrl,
                                  const std::string& part, const HttpResponse& response,
                                  const std::string& name);

// A URL for messages: no query (a signed URL's signature and credential
// scope stay out of logs) and no user info.
std::string displayUrl(const std::string& url);

} // namespace relayhud::artifacts
