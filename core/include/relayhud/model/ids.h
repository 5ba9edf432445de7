#pragma once
// The integer ids of the cache's rows, each its own type (issue 38), so that
// a test run's id and a check run's row are not interchangeable to the
// compiler. The value is SQLite's rowid of the row (the team server's seq
// for TeamSeq); 0 means none. The ids
// the relay and GitHub give as text (CheckRunId, Sha) are in model/types.h.
// At a boundary that speaks plain integers (SQL, JSON, Qt's signals and
// roles) the value goes out as `.value` and comes back as `TestRunId{n}`.
#include <cstddef>
#include <cstdint>

namespace relayhud {

template <typename Tag>
struct RowId {
    std::int64_t value = 0;

    explicit operator bool() const { return value != 0; }
    bool operator==(const RowId&) const = default;
    bool operator<(const RowId& other) const { return value < other.value; }
};

// The hash of a RowId for an unordered container's third argument (ids.h
// gives no std::hash specialisation: moc reads the headers that include it).
struct RowIdHash {
    template <typename Tag>
    std::size_t operator()(RowId<Tag> id) const
    {
        return static_cast<std::size_t>(id.value);
    }
};

// A test run: one set of stored results (test_run.id).
using TestRunId = RowId<struct TestRunTag>;

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
