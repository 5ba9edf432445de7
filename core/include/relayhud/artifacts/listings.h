#pragma once
// The artifact stores' listings, read from their bodies: GitHub's
// "List workflow run artifacts" JSON page with its Link header, and S3's
// ListObjectsV2 and error XML. Server answers are outside data: anything a
// body holds gives a page or an Error, never an exception.
#include "relayhud/model/ids.h"
#include "relayhud/util/result.h"
#include "relayhud/util/time.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::github {

// GitHub's numeric ids of an artifact and of a workflow run (their REST
// API's `id`), each its own type; a run's id as the relay reports it is text
// (CheckRun::runId).
using ArtifactId = IntId<struct ArtifactIdTag>;
using WorkflowRunId = IntId<struct WorkflowRunIdTag>;

struct ArtifactInfo {
    ArtifactId id;
    std::string name;
    std::int64_t sizeInBytes = 0; // "size_in_bytes"; 0 when not given
    bool expired = false;
    EpochSeconds createdAt = 0; // "created_at"; 0 when not given
    EpochSeconds expiresAt = 0; // "expires_at"; 0 when not given
};

// One page of a run's artifact listing
// (GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts).
struct ArtifactPage {
    std::vector<ArtifactInfo> artifacts;
    std::int64_t totalCount = 0;
};

// Items without an integer id are left out; a field of the wrong type reads
// as its default. An Error (naming `url`) when the body is no artifact list.
Result<ArtifactPage> parseArtifactPage(std::string_view body, const std::string& url);

// One workflow run of a "List workflow runs for a repository" page
// (GET /repos/{owner}/{repo}/actions/runs?event=...): what finding a
// dispatched child run by the correlation id in its name needs.
struct WorkflowRunInfo {
    WorkflowRunId id;
    std::string name; // the run name: "upstream-tests-beta-matrix (reusable) (<correlation id>)"
    std::string event;
    std::string htmlUrl;
    EpochSeconds createdAt = 0;
};

struct WorkflowRunPage {
    std::vector<WorkflowRunInfo> runs;
    std::int64_t totalCount = 0;
};

// As parseArtifactPage, for {"total_count": n, "workflow_runs": [...]}.
Result<WorkflowRunPage> parseWorkflowRunPage(std::string_view body, const std::string& url);

// The `rel="next"` target of a Link header, or "".
std::string nextLink(std::string_view linkHeader);

} // namespace relayhud::github

namespace relayhud::artifacts {

struct S3Object {
    std::string key;
    std::string etag;
    std::int64_t size = -1; // <Size>; -1 when not listed
};

struct S3Error {
    std::string code;
    std::string message;
};

struct S3ListPage {
    std::vector<S3Object> objects;
    std::string nextToken; // "" on the last page
};

// A ListObjectsV2 answer; `what` ("s3://bucket/prefix") names it in the Error.
Result<S3ListPage> parseS3Listing(std::string_view body, const std::string& what);
// The Code and Message of an S3 <Error> body; empty when it is none.
S3Error parseS3Error(std::string_view body);

} // namespace relayhud::artifacts
