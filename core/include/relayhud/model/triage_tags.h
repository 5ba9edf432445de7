#pragma once
// Human triage in the cache (schema v3, table triage_tag): a maintainer's
// class, note and bug link on one failure, kept with author and time.
//
// A tag names its failure portably (TriageTarget): downstream repository,
// workflow, job, upstream SHA, run attempt and the test's identity, not a
// cache row id, so that a team's exported tags apply to another cache and
// survive a re-sync that renumbers rows. A tag on the job itself has an
// empty test.
//
// Clearing a tag stores FailureClass::Untriaged with its time rather than
// deleting the row, so that an import's "newest wins" carries the clearing
// too; only an undo (restoreTriageTags) deletes.
//
// Also here: what the matrix needs to mark a cell "all triaged"
// (TriageProgress) and the failing tests that clustering reads
// (FailureRecord, triage/cluster.h).
#include "relayhud/model/failure_class.h"
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

struct TriageTarget {
    std::string repo; // downstream "org/repo"
    std::string workflow;
    std::string job;
    Sha sha; // upstream
    int attempt = 1;
    std::string test; // "file::Class::name"; "" = the job itself

    bool isJob() const { return test.empty(); }
    auto operator<=>(const TriageTarget&) const = default;
};

struct TriageTag {
    TriageTarget target;
    triage::FailureClass cls = triage::FailureClass::Untriaged;
    std::string note;
    std::string bugUrl;
    std::string author;
    std::int64_t timeMs = 0; // when it was set, epoch milliseconds UTC

    // Same class, note and bug link: what a merge compares (author and time
    // say who and when, not what).
    bool sameVerdict(const TriageTag& other) const
    {
        return cls == other.cls && note == other.note && bugUrl == other.bugUrl;
    }
    bool operator==(const TriageTag&) const = default;
};

// A human tag that names a class (not Unset or Untriaged): what counts as
// "triaged" for the matrix marks and cluster tags.
bool isTriagedClass(triage::FailureClass cls);

// Triage state of one check run row, for the matrix marks.
struct TriageProgress {
    CheckRunRow checkRunRow;
    // Failed, error and xpass-strict results, as its test run's totals count
    // them (what the artifacts reported); 0 without stored results.
    int failingTests = 0;
    int triagedTests = 0; // of those, the ones whose human tag names a class
    // The human tag on the job itself (test ""), when there is one.
    std::optional<triage::FailureClass> jobClass;

    // Every failing test triaged; a run without failing tests (an infra
    // failure, no results) counts as triaged when its job tag names a class.
    bool allTriaged() const
    {
        if (failingTests > 0)
            return triagedTests >= failingTests;
        return jobClass && isTriagedClass(*jobClass);
    }
};

// Which failing test results clustering reads. The window is on upstream
// commit time; newestShas keeps only the N newest SHAs inside it.
struct FailureQuery {
    EpochSeconds since = 0;      // 0: no lower bound
    EpochSeconds until = 0;      // 0: no upper bound
    std::int64_t newestShas = 0; // 0: every SHA in the window
};

// One failing test result (failed, error or xpass-strict) with where it ran
// and the first meaningful line of its message (triage::firstMeaningfulLine;
// tracebacks are not read).
struct FailureRecord {
    Sha sha;
    EpochSeconds commitTime = 0;
    std::string repo; // downstream backend
    std::string workflow;
    std::string job;
    int attempt = 1;
    CheckRunRow checkRunRow;
    std::string test; // identity
    TestOutcome outcome = TestOutcome::Failed;
    std::string reason;

    TriageTarget target() const { return {repo, workflow, job, sha, attempt, test}; }
};

} // namespace relayhud
