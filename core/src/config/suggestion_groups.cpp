// One move per method, grouped by deciding entry (config/suggestion_groups.h).
#include "relayhud/config/suggestion_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace relayhud::config {

namespace {

// Unlisted sorts after every entry of its files entry.
using GroupKey = std::pair<std::size_t, std::size_t>;
constexpr std::size_t kUnlisted = static_cast<std::size_t>(-1);

SuggestionGroup makeGroup(const OutcomeConfig& config, const Suggestion& s)
{
    SuggestionGroup g;
    g.fileIndex = s.fileIndex;
    g.entryIndex = s.entryIndex;
    g.mode = s.from;
    if (s.fileIndex < config.files.size() && s.entryIndex
        && *s.entryIndex < config.files[s.fileIndex].tests.size())
        g.line = config.files[s.fileIndex].tests[*s.entryIndex].pos.line;
    return g;
}

} // namespace

std::vector<SuggestionGroup> groupSuggestions(const OutcomeConfig& config,
                                              const std::vector<Suggestion>& suggestions)
{
    std::map<GroupKey, SuggestionGroup> groups;
    // Per group: (method, kind) -> position in moves.
    std::map<std::tuple<GroupKey, std::string, EditKind>, std::size_t> seen;
    for (const Suggestion& s : suggestions) {
        const GroupKey key{s.fileIndex, s.entryIndex.value_or(kUnlisted)};
        auto group = groups.find(key);
        if (group == groups.end())
            group = groups.emplace(key, makeGroup(config, s)).first;
        SuggestionGroup& g = group->second;
        const auto [at, added] = seen.emplace(std::tuple{key, s.baseName, s.kind}, g.moves.size());
        if (added) {
            g.moves.push_back(s);
            g.jobs.push_back(1);
        } else {
            ++g.jobs[at->second];
        }
    }
    std::vector<SuggestionGroup> out;
    for (auto& [key, g] : groups) {
        for (std::size_t i = 0; i < g.moves.size(); ++i)
            if (g.jobs[i] > 1)
                g.moves[i].evidence += "; " + std::to_string(g.jobs[i] - 1)
                                       + (g.jobs[i] == 2 ? " more job agrees" : " more jobs agree");
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<Suggestion> groupedMoves(const std::vector<SuggestionGroup>& groups)
{
    std::vector<Suggestion> out;
    for (const SuggestionGroup& g : groups)
        out.insert(out.end(), g.moves.begin(), g.moves.end());
    return out;
}

} // namespace relayhud::config
