#pragma once
// Triage tags (model/triage_tags.h): set, undone and read per target, the
// matrix's "all triaged" progress, and the failures clustering reads.
// Table: triage_tag.
#include "relayhud/model/triage_tags.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class TriageStore {
public:
    explicit TriageStore(const Database& db);

    // --- Triage tags (model/triage_tags.h) ---
    // Writes every tag (insert or replace by target) in one transaction and
    // returns what each target had before, in the order of `tags` (nullopt:
    // no row), which is what restoreTriageTags() needs to undo it. A target
    // given twice keeps the later tag; its second "before" is the first tag.
    Result<std::vector<std::optional<TriageTag>>> setTriageTags(const std::vector<TriageTag>& tags);

    // Undo: puts `previous[i]` back for `targets[i]`, or deletes the target's
    // row where it is nullopt. One transaction; the sizes must match.
    Result<void> restoreTriageTags(const std::vector<TriageTarget>& targets,
                                   const std::vector<std::optional<TriageTag>>& previous);

    // The stored tag of each target (nullopt: none), in order.
    Result<std::vector<std::optional<TriageTag>>>
    triageTagsFor(const std::vector<TriageTarget>& targets) const;

    // Every tag on one check run: its job's and its tests', job tag first,
    // then by test identity.
    Result<std::vector<TriageTag>> triageTagsForCheckRun(CheckRunRow checkRunRow) const;

    // Tags on these upstream SHAs (empty: all), by SHA, repo, workflow, job,
    // attempt, test.
    Result<std::vector<TriageTag>> triageTags(const std::vector<Sha>& shas = {}) const;

    // Where a tag on this check run (and test, "" for the job) points.
    Result<TriageTarget> triageTargetOf(CheckRunRow checkRunRow,
                                        const std::string& test = {}) const;

    // Per row, in order: its failing tests and how many carry a human class
    // (the matrix's "all triaged" mark). Two reads: the rows' test-run totals,
    // then the tags on their commits; an unknown row gives zeros.
    Result<std::vector<TriageProgress>>
    triageProgress(const std::vector<CheckRunRow>& checkRunRows) const;

    // Failing test results of the runs in the window, newest commit first
    // (clustering's input; triage/cluster.h).
    Result<std::vector<FailureRecord>> failuresForClustering(const FailureQuery& query) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
