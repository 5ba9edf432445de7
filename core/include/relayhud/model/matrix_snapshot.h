#pragma once
// A compact, immutable picture of the SHA x job matrix, built by the cache on
// a worker thread and handed to the UI model. 24 bytes per cell, so 1,000
// SHAs x 300 jobs stay under 8 MB; details are read from the cache by row id.
#include "relayhud/model/tested_commit.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace relayhud {

struct MatrixQuery {
    EpochSeconds now = 0;           // for staleness; 0 = current time
    std::int64_t maxCommits = 1000; // newest first
    bool latestAttemptOnly = true;  // false: show the first attempt instead
};

struct MatrixColumn {
    std::string backend; // "org/repo"
    Level level = Level::Unknown;
    std::string workflow;
    std::string job;
    JobRow jobId;
    bool allowlisted = true; // false: reports, but not at L2+ in the allowlist (Backend)
};

struct MatrixCell {
    enum Flag : std::uint16_t {
        Retried = 1u << 0, // more than one attempt exists
        Stale = 1u << 1,   // in_progress for more than kStaleAfterSeconds
        HasArtifacts = 1u << 2,
        // Triage marks, set by the GUI's loader from the cache's triage
        // progress (model/triage_tags.h); a cell that did not fail has neither.
        Triaged = 1u << 3,   // every failure has a person's class
        Untriaged = 1u << 4, // at least one failure has none
        // Verdict marks of self-reported greens whose evidence was examined
        // (verdict/verdict.h), set by the GUI's loader; a green whose
        // artifacts were never fetched has none of them.
        GreenVerified = 1u << 5,
        GreenUnverified = 1u << 6, // incomplete or unverifiable
        GreenDisputed = 1u << 7,   // the evidence contradicts the green
        // The run said success, but its stored JUnit has failing cases:
        // not a green, whatever the callback said (torch-spyre's variant B
        // sends its validate-mode child run's conclusion: real-backends.md
        // 3.2). Set by Database::matrix from the stored test results.
        ReportedGreenTestsFailed = 1u << 8,
    };
    CheckRunRow runRowId; // 0: no run in this cell
    float durationSeconds = 0;
    RunStatus status = RunStatus::Unknown;
    Conclusion conclusion = Conclusion::None;
    std::uint8_t attempts = 0;
    std::uint16_t flags = 0;
    EpochSeconds startedAt = 0; // 0: unknown (the cell tooltip shows it)

    bool empty() const { return !runRowId; }
    bool operator==(const MatrixCell&) const = default;
    bool has(Flag f) const { return (flags & f) != 0; }
};

struct MatrixSnapshot {
    std::vector<UpstreamCommit> rows;  // newest first
    std::vector<MatrixColumn> columns; // grouped by backend, then workflow, job
    std::vector<MatrixCell> cells;     // rows.size() * columns.size(), row-major
    // The commit each run really tested, where known (Database::testedCommits),
    // by run row: the GUI's loader sets it for the cells' tooltips.
    std::unordered_map<CheckRunRow, TestedCommit, IdHash> tested;

    const MatrixCell& cell(std::size_t row, std::size_t column) const
    {
        return cells[row * columns.size() + column];
    }
};

} // namespace relayhud
