#pragma once
// Sharing human triage as a JSON file (issue 5): export a cache's tags, and
// import a file into a cache by merging, newest wins per target.
//
//   {"format": "relayhud-triage", "version": 1, "tags": [
//     {"repo": "org/repo", "workflow": "pull", "job": "test (1)",
//      "sha": "<40 hex>", "attempt": 1, "test": "test/x.py::TestX::test_y",
//      "class": "flaky", "note": "", "bug": "https://...", "author": "alice",
//      "time": "2026-05-04T20:48:28.123Z"}, ...]}
//
// "test" is "" for a tag on the job itself; "class" is a failureClassName()
// ("backend bug", "untriaged", ...). An import is checked whole before
// anything is written, and written in one transaction: a bad file changes
// nothing and its error names the field and the tag's index.
#include "relayhud/model/failure_class.h"
#include "relayhud/model/triage_tags.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::triage {

inline constexpr std::string_view kExchangeFormat = "relayhud-triage";
inline constexpr int kExchangeVersion = 1;
// Larger files are refused unread: a year of a busy team's tags is a few MB.
inline constexpr std::size_t kMaxExchangeBytes = 64u << 20;

// "2026-05-04T20:48:28.123Z" and back. Parsing takes that shape, with or
// without the milliseconds; nullopt otherwise.
std::string formatTimeMs(std::int64_t epochMs);
std::optional<std::int64_t> parseTimeMs(std::string_view text);

// The document, tags in the order given.
std::string exportTriageJson(const std::vector<TriageTag>& tags);
// Checks and reads a document; the error names what is wrong and where
// ("tag 3: \"class\": unknown class \"flakey\"").
Result<std::vector<TriageTag>> parseTriageJson(std::string_view json);

enum class MergeWinner { Local, Imported };

// Both sides tag the same target with a different class, note or bug link.
struct MergeConflict {
    TriageTag local;
    TriageTag imported;
    MergeWinner winner = MergeWinner::Local;
    std::string why; // "imported is newer (... > ...)", "same time: local kept"
};

struct MergeReport {
    std::size_t added = 0;     // targets the cache had no tag for
    std::size_t updated = 0;   // imported replaced an older local tag
    std::size_t unchanged = 0; // same class, note and bug on both sides
    std::size_t keptLocal = 0; // the local tag is newer (or as new): kept
    std::vector<MergeConflict> conflicts;
};

struct MergePlan {
    std::vector<TriageTag> writes; // what to store
    MergeReport report;
};

// Newest wins per target: an imported tag replaces a local one only when its
// time is later; on equal times the local tag stays (an import never
// overrides what is here on a tie). `local[i]` is the cache's tag for
// `imported[i].target`.
MergePlan planMerge(const std::vector<TriageTag>& imported,
                    const std::vector<std::optional<TriageTag>>& local);

// Tags of these SHAs (empty: all) as a document, written atomically.
Result<std::size_t> exportTriageFile(const Database& cache, const std::string& path,
                                     const std::vector<Sha>& shas = {});
// Parses, plans against the cache and writes the winners in one transaction.
Result<MergeReport> importTriageJson(Database& cache, std::string_view json);
// The same from a file, refused when larger than kMaxExchangeBytes.
Result<MergeReport> importTriageFile(Database& cache, const std::string& path);

} // namespace relayhud::triage
