#pragma once
// GitHub's `GET /repos/pytorch/pytorch/pulls/{n}` for the dataset's PRs, in
// the REST API's shape (https://docs.github.com/rest/pulls/pulls#get-a-pull-request).
#include "relayhud/sim/sim_dataset.h"
#include "sim_columns.h"

#include <string>

namespace relayhud::sim {

inline constexpr std::string_view kUpstreamRepo = "pytorch/pytorch";
inline constexpr const char* kPullDocs =
    "https://docs.github.com/rest/pulls/pulls#get-a-pull-request";

// apiUrl: "{base}/api/v3"; now: the pull's head is its newest one pushed by then.
Json pullRequestJson(const SimPullRequest& pr, const std::string& apiUrl, EpochSeconds now);

} // namespace relayhud::sim
