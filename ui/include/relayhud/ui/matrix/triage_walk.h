#pragma once
// The order an on-call person reads failures in (issue 36): j/k and n/p walk
// every untriaged failure of the matrix as shown, newest commit first, the
// worst cell of a row first, then left to right; within a run, its failing
// tests in the tests table's order. Plain facts in, positions out: the
// matrix and the tests panel feed it what their models already know.
#include "relayhud/ui/matrix/cell_state.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace relayhud::ui {

// One shown cell, by its place in the view (rows newest commit first).
struct WalkCell {
    int row = 0;
    int column = 0;
    CellState state = CellState::Empty;
    bool untriaged = false; // a failure of it has no person's class yet
    bool operator==(const WalkCell&) const = default;
};

// One test of the shown run, in the tests table's order.
struct WalkTest {
    bool failing = false;
    bool untriaged = false; // failing, and no person has classed it
};

// How bad a failed cell is, 0 the worst (failed or timed out, then tests
// failing under a reported success, then cancelled); none for a cell that did
// not fail.
std::optional<int> failureRank(CellState state);

class TriageWalk {
public:
    // The shown cells, in any order; those without an untriaged failure are
    // no stops.
    explicit TriageWalk(const std::vector<WalkCell>& cells);

    // The untriaged failed cells in reading order.
    const std::vector<WalkCell>& stops() const { return m_stops; }

    struct Step {
        WalkCell cell;
        bool wrapped = false; // went past the last (first) stop to the other end
    };
    // The stop after (before) `from`, wrapping around; from nowhere: the
    // first (last) stop. A cell that is no stop sits before its row's stops.
    // None when there is no stop but `from` itself.
    std::optional<Step> step(const std::optional<WalkCell>& from, bool forward) const;

    // Where a link or a jump to a row lands: the row's first untriaged
    // failure, else its first failure, in reading order; none when it failed
    // nowhere (the caller then takes its first run).
    static std::optional<int> landingColumn(const std::vector<WalkCell>& rowCells);

    // The next (previous) untriaged failing test after `current`, without
    // wrapping; from nowhere: the first (last) one.
    static std::optional<std::size_t> nextTest(const std::vector<WalkTest>& tests,
                                               std::optional<std::size_t> current, bool forward);
    // The first failing test, tagged or not: what a newly shown run selects.
    static std::optional<std::size_t> firstFailing(const std::vector<WalkTest>& tests);

private:
    std::vector<WalkCell> m_stops;
};

} // namespace relayhud::ui
