#pragma once
// The integer ids RelayHUD passes around, each its own type (issue 38), so
// that a test run's id, a check run's row and a PR number are not
// interchangeable to the compiler:
//  - a row of the cache: SQLite's rowid of that row (RowId; the team
//    server's seq for TeamSeq);
//  - a number another system gives: a pull request's number (PrNumber),
//    GitHub's artifact and workflow run ids (artifacts/listings.h).
// 0 means none in each. The ids the relay and GitHub give as text
// (CheckRunId, Sha) are in model/types.h. At a boundary that speaks plain
// integers (SQL, JSON, Qt's signals and roles) the value goes out as
// `.value` and comes back as `TestRunId{n}`.
#include <cstddef>
#include <cstdint>

namespace relayhud {

template <typename Tag>
struct IntId {
    std::int64_t value = 0;

    explicit operator bool() const { return value != 0; }
    bool operator==(const IntId&) const = default;
    bool operator<(const IntId& other) const { return value < other.value; }
};

// A row of the cache.
template <typename Tag>
using RowId = IntId<Tag>;

// The hash of an id for an unordered container's third argument (ids.h
// gives no std::hash specialisation: moc reads the headers that include it).
struct IdHash {
    template <typename Tag>
    std::size_t operator()(IntId<Tag> id) const
    {
        return static_cast<std::size_t>(id.value);
    }
};

// A pull request of the upstream repository (pytorch/pytorch#N), as the
// HUD's pr_number gives it; none for a push, a nightly or a schedule.
using PrNumber = IntId<struct PrNumberTag>;

// A test run: one set of stored results (test_run.id).
using TestRunId = RowId<struct TestRunTag>;

// A test of the cache (test.id): one identity (file, class and name), whose
// results in every run point at it; its history is read by it.
using TestId = RowId<struct TestTag>;

// A check run's row in the cache (check_run.id): one attempt of one job on
// one SHA as this cache stored it. Not the relay's check run id (CheckRunId,
// text, model/types.h).
using CheckRunRow = RowId<struct CheckRunRowTag>;

// A job of the cache (job.id): one (backend, workflow, job name), the
// matrix's column, whose check runs are its attempts on each SHA.
using JobRow = RowId<struct JobRowTag>;

// A message or traceback text of the test results (test_message.id),
// stored once however many results share it.
using TestMessageId = RowId<struct TestMessageTag>;

// A change of the team server's log (its seq): the server's order, which a
// pull reads after and a change names as the newest its author had seen;
// none until the server has it.
using TeamSeq = RowId<struct TeamSeqTag>;

} // namespace relayhud
