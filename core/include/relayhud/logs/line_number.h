#pragma once
// A line of a log. 0-based everywhere in the engine (indexes, search results,
// landmarks); 1-based only when shown to a person (`shown()`, the CLI's -n).
#include <compare>
#include <cstdint>

namespace relayhud {

struct LineNumber {
    std::uint64_t value = 0;

    static constexpr LineNumber fromShown(std::uint64_t oneBased)
    {
        return LineNumber{oneBased > 0 ? oneBased - 1 : 0};
    }
    constexpr std::uint64_t shown() const { return value + 1; }
    auto operator<=>(const LineNumber&) const = default;
};

} // namespace relayhud
