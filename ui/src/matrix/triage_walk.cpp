#include "relayhud/ui/matrix/triage_walk.h"

#include <algorithm>
#include <tuple>

namespace relayhud::ui {

namespace {

// Reading order: row, then how bad (a cell that is no failure first), then
// column.
std::tuple<int, int, int> readingKey(const WalkCell& cell)
{
    return {cell.row, failureRank(cell.state).value_or(-1), cell.column};
}

bool readsBefore(const WalkCell& a, const WalkCell& b) { return readingKey(a) < readingKey(b); }

} // namespace

std::optional<int> failureRank(CellState state)
{
    switch (state) {
    case CellState::Failure:
    case CellState::TimedOut: return 0;
    case CellState::SuccessTestsFailed: return 1;
    case CellState::Cancelled: return 2;
    default: return std::nullopt;
    }
}

TriageWalk::TriageWalk(const std::vector<WalkCell>& cells)
{
    for (const WalkCell& cell : cells)
        if (cell.untriaged && failureRank(cell.state))
            m_stops.push_back(cell);
    std::sort(m_stops.begin(), m_stops.end(), readsBefore);
}

std::optional<TriageWalk::Step> TriageWalk::step(const std::optional<WalkCell>& from,
                                                 bool forward) const
{
    if (m_stops.empty())
        return std::nullopt;
    if (!from)
        return Step{forward ? m_stops.front() : m_stops.back(), false};
    const auto key = readingKey(*from);
    if (forward) {
        const auto next = std::find_if(m_stops.begin(), m_stops.end(),
                                       [&](const WalkCell& c) { return readingKey(c) > key; });
        if (next != m_stops.end())
            return Step{*next, false};
    } else {
        const auto previous = std::find_if(m_stops.rbegin(), m_stops.rend(),
                                           [&](const WalkCell& c) { return readingKey(c) < key; });
        if (previous != m_stops.rend())
            return Step{*previous, false};
    }
    const WalkCell& other = forward ? m_stops.front() : m_stops.back();
    if (readingKey(other) == key)
        return std::nullopt; // the only stop is where the walk stands
    return Step{other, true};
}

std::optional<int> TriageWalk::landingColumn(const std::vector<WalkCell>& rowCells)
{
    const WalkCell* best = nullptr;
    for (const WalkCell& cell : rowCells) {
        if (!failureRank(cell.state))
            continue;
        // An untriaged failure before any triaged one, then reading order.
        if (!best || (cell.untriaged && !best->untriaged)
            || (cell.untriaged == best->untriaged && readsBefore(cell, *best)))
            best = &cell;
    }
    return best ? std::optional<int>(best->column) : std::nullopt;
}

std::optional<std::size_t> TriageWalk::nextTest(const std::vector<WalkTest>& tests,
                                                std::optional<std::size_t> current, bool forward)
{
    const auto wanted = [&](std::size_t i) { return tests[i].failing && tests[i].untriaged; };
    if (forward) {
        for (std::size_t i = current ? *current + 1 : 0; i < tests.size(); ++i)
            if (wanted(i))
                return i;
        return std::nullopt;
    }
    std::size_t end = current ? std::min(*current, tests.size()) : tests.size();
    while (end > 0)
        if (wanted(--end))
            return end;
    return std::nullopt;
}

std::optional<std::size_t> TriageWalk::firstFailing(const std::vector<WalkTest>& tests)
{
    for (std::size_t i = 0; i < tests.size(); ++i)
        if (tests[i].failing)
            return i;
    return std::nullopt;
}

} // namespace relayhud::ui
