#pragma once
// Failure clusters (issue 5): failing tests whose reasons differ only in
// numbers, addresses, temp paths, durations and the like are one failure.
// A reason is the first meaningful line of a test's message; its cluster key
// replaces the parts that vary between instances with placeholders:
//   <N>     numbers (integers, decimals, exponents)    "expected 3 got 4"
//   <HEX>   hashes and ids: 8+ hex digits (6+ after a digit), UUIDs
//   <ADDR>  0x addresses and hex literals               "0x7f3a2c"
//   <PATH>  temp paths: /tmp/..., /var/folders/...,
//           .../pytest-of-<user>/..., tmpXXXXXXXX names
//   <DUR>   durations: "12.3s", "300ms", "after 300 seconds", ">30min"
//   <SIZE>  memory sizes: "20.00 MiB", "1.5 GB", "4096 bytes"
//   <TIME>  timestamps: "2026-05-04T20:48:28.123Z", "2026-05-04 20:48:28"
// and collapses runs of white space. One pass over the reason, no regex:
// it runs over 100,000 reasons (relayhud-bench "clusters").
#include "relayhud/model/failure_class.h"
#include "relayhud/model/triage_tags.h"
#include "relayhud/model/types.h"

#include "relayhud/util/message_text.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::triage {

using relayhud::firstMeaningfulLine; // util/message_text.h

// The key of a reason (firstMeaningfulLine() of it is taken first).
std::string clusterKey(std::string_view reason);
// The same into `out` (cleared first), reusing its capacity.
void clusterKeyInto(std::string_view reason, std::string& out);

enum class ClusterTagState {
    Untriaged, // no member has a human class
    Tagged,    // every member has the same human class: `cls`
    Mixed,     // members differ (or only some are tagged)
};

struct FailureCluster {
    std::string key;
    std::string example; // the reason of its newest member
    std::size_t count = 0;
    Sha firstSeenSha; // of the member with the oldest commit time
    EpochSeconds firstSeenTime = 0;
    std::vector<std::string> backends; // sorted, unique
    std::vector<std::string> jobs;     // "workflow / job", sorted, unique
    std::vector<std::size_t> members;  // indexes into the failures given
    ClusterTagState tagState = ClusterTagState::Untriaged;
    FailureClass cls = FailureClass::Untriaged; // when Tagged
    std::size_t tagged = 0;                     // members with a human class
};

// "untriaged", "mixed" or the class name.
std::string clusterTagName(const FailureCluster& cluster);

// Groups failures by clusterKey(reason). `tags` are the human tags known for
// them (TriageStore::triageTags(); others are ignored). Sorted by count, largest
// first; ties by key.
std::vector<FailureCluster> buildClusters(const std::vector<FailureRecord>& failures,
                                          const std::vector<TriageTag>& tags);

} // namespace relayhud::triage
