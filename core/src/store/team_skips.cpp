// The rows a team pull skipped (store/team_changes.h): how each kind is
// named in the cache and in the one line that tells the user.
#include "relayhud/store/team_changes.h"

#include "store/statement.h"
#include "store/team_outbox.h"

#include <numeric>

namespace relayhud {
namespace {

struct SkipName {
    TeamSkip why;
    std::string_view slug;
    std::string_view one;
    std::string_view many;
};

constexpr std::array<SkipName, kTeamSkipKinds> kSkipNames{{
    {TeamSkip::BadTime, "bad_time", "bad time", "bad times"},
    {TeamSkip::Oversized, "oversized", "oversized", "oversized"},
    {TeamSkip::UnknownClass, "unknown_class", "unknown class", "unknown classes"},
    {TeamSkip::BadSha, "bad_sha", "invalid SHA", "invalid SHAs"},
    {TeamSkip::BadLink, "bad_link", "invalid link", "invalid links"},
    {TeamSkip::BadTarget, "bad_target", "without a failure", "without a failure"},
    {TeamSkip::UnknownKind, "unknown_kind", "of a newer kind", "of a newer kind"},
    {TeamSkip::ForgedSeq, "forged_seq", "with a seq the server never gave",
     "with a seq the server never gave"},
}};

} // namespace

std::size_t TeamSkips::total() const
{
    return std::accumulate(counts.begin(), counts.end(), std::size_t{0});
}

TeamSkips& TeamSkips::operator+=(const TeamSkips& other)
{
    for (std::size_t i = 0; i < counts.size(); ++i)
        counts[i] += other.counts[i];
    return *this;
}

std::string_view teamSkipSlug(TeamSkip why)
{
    return kSkipNames[static_cast<std::size_t>(why)].slug;
}

std::optional<TeamSkip> teamSkipFromSlug(std::string_view slug)
{
    for (const SkipName& name : kSkipNames)
        if (name.slug == slug)
            return name.why;
    return std::nullopt;
}

std::string describeTeamSkips(const TeamSkips& skips)
{
    const std::size_t total = skips.total();
    if (total == 0)
        return {};
    std::string parts;
    for (const SkipName& name : kSkipNames) {
        const std::size_t n = skips.of(name.why);
        if (n == 0)
            continue;
        parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " "
                 + std::string(n == 1 ? name.one : name.many);
    }
    return "skipped " + std::to_string(total) + (total == 1 ? " change" : " changes")
           + " the team server holds that this RelayHUD cannot use (" + parts + ")";
}

namespace store {

std::string teamSkipKey(TeamSkip why) { return "skipped:" + std::string(teamSkipSlug(why)); }

// Adds a page's skipped rows to the counts since joining.
Result<void> addTeamSkips(sqlite3* db, const TeamSkips& skips)
{
    Statement add(db, "INSERT INTO team_state(key, value) VALUES (?1, ?2) ON CONFLICT (key)"
                      " DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value");
    for (std::size_t i = 0; i < kTeamSkipKinds; ++i) {
        const auto why = static_cast<TeamSkip>(i);
        if (why == TeamSkip::ForgedSeq || skips.of(why) == 0)
            continue;
        if (auto r = add.reset()
                         .bind(1, teamSkipKey(why))
                         .bind(2, static_cast<std::int64_t>(skips.of(why)))
                         .run();
            !r)
            return r;
    }
    return {};
}

} // namespace store

} // namespace relayhud
