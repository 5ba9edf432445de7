#include "relayhud/model/types.h"

#include <array>
#include <utility>

namespace relayhud {
namespace {

template <class E, std::size_t N>
E fromTable(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view text,
            E fallback)
{
    for (const auto& [name, value] : table)
        if (name == text)
            return value;
    return fallback;
}

constexpr std::array<std::pair<std::string_view, Level>, 4> kLevels{
    {{"L1", Level::L1}, {"L2", Level::L2}, {"L3", Level::L3}, {"L4", Level::L4}}};
constexpr std::array<std::pair<std::string_view, EventType>, 4> kEvents{
    {{"pull_request", EventType::PullRequest},
     {"push", EventType::Push},
     {"nightly", EventType::Nightly},
     {"periodic", EventType::Periodic}}};
constexpr std::array<std::pair<std::string_view, RunStatus>, 4> kStatuses{
    {{"queued", RunStatus::Queued},
     {"in_progress", RunStatus::InProgress},
     {"completed", RunStatus::Completed},
     {"", RunStatus::Unknown}}};
constexpr std::array<std::pair<std::string_view, Conclusion>, 7> kConclusions{
    {{"", Conclusion::None},
     {"success", Conclusion::Success},
     {"failure", Conclusion::Failure},
     {"cancelled", Conclusion::Cancelled},
     {"timed_out", Conclusion::TimedOut},
     {"skipped", Conclusion::Skipped},
     {"neutral", Conclusion::Neutral}}};

template <class E, std::size_t N>
std::string_view toText(const std::array<std::pair<std::string_view, E>, N>& table, E value,
                        std::string_view fallback)
{
    for (const auto& [name, v] : table)
        if (v == value)
            return name;
    return fallback;
}

} // namespace

std::string_view toString(Level level) { return toText(kLevels, level, ""); }
std::string_view toString(EventType type) { return toText(kEvents, type, "pull_request"); }
std::string_view toString(RunStatus status) { return toText(kStatuses, status, ""); }
std::string_view toString(Conclusion conclusion) { return toText(kConclusions, conclusion, ""); }

Level levelFromString(std::string_view text) { return fromTable(kLevels, text, Level::Unknown); }

std::optional<EventType> eventTypeFromString(std::string_view text)
{
    for (const auto& [name, value] : kEvents)
        if (name == text)
            return value;
    return std::nullopt;
}

RunStatus runStatusFromString(std::string_view text)
{
    return fromTable(kStatuses, text, RunStatus::Unknown);
}

Conclusion conclusionFromString(std::string_view text)
{
    return fromTable(kConclusions, text, Conclusion::None);
}

bool CheckRun::isStale(EpochSeconds now) const
{
    return reported.status == RunStatus::InProgress && reported.startedAt
           && now - *reported.startedAt > kStaleAfterSeconds;
}

std::optional<double> callbackDuration(std::optional<EpochSeconds> startedAt,
                                       std::optional<EpochSeconds> completedAt)
{
    if (!startedAt || !completedAt || *completedAt <= *startedAt)
        return std::nullopt;
    return static_cast<double>(*completedAt - *startedAt);
}

bool isNewerRun(const RunRank& a, const RunRank& b)
{
    if (a.attempt != b.attempt)
        return a.attempt > b.attempt;
    const EpochSeconds sa = a.startedAt.value_or(0), sb = b.startedAt.value_or(0);
    if (sa != sb)
        return sa > sb;
    return b.rowId < a.rowId;
}

} // namespace relayhud
