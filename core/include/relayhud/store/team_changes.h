#pragma once
// The cache's side of a team's shared triage server (issue 21;
// team/team_sync.h): the outbox of local triage changes not yet on the
// server, what the last applied change of each tag field was, the conflicts
// a pull found, and where the cache stands with its team.
//
// A change is one field of one tag (class, note or bug link): two people who
// set the class and the note of one failure at once both keep theirs, and
// only two changes to the same field conflict. Two changes conflict when
// neither author had seen the other: each names the newest server change
// its author had pulled (baseSeq), so a change made after seeing another
// (its baseSeq >= the other's seq) simply follows it, and of two that had not
// seen each other the later clientMs wins (ties: the greater change id),
// which every client decides alike. The server's order (seq) and author
// (its session user) are the server's, never what a client claims.
#include "relayhud/model/triage_tags.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

enum class TeamField { Class, Note, Bug };

// "class", "note", "bug" on the server; nullopt for a name this build does
// not know (a newer client's field, skipped on pull).
std::string_view teamFieldName(TeamField field);
std::optional<TeamField> teamFieldFromName(std::string_view name);

struct TeamChange {
    std::string changeId; // a random UUID, made where the change was made
    TeamSeq seq;          // the server's order; none until it is there
    TeamSeq baseSeq;      // the newest server change its author had pulled
    TriageTarget target;
    TeamField field = TeamField::Class;
    // The class as failureClassName() ("flaky", "untriaged"), the note, or
    // the bug link.
    std::string value;
    std::int64_t clientMs = 0; // when it was made, epoch milliseconds UTC
    std::string author;        // the server's session user; the local name while unsent

    bool operator==(const TeamChange&) const = default;
};

// Two changes to one field that neither author had seen, and which one the
// field kept.
struct TeamConflict {
    TeamChange local;  // what this cache had
    TeamChange remote; // what the pull brought
    bool remoteWon = false;
    std::int64_t foundMs = 0;
};

// Why a pull skipped a row the team server holds (issue 35): a row this
// RelayHUD cannot use is counted, never stored, and never stops the pull.
enum class TeamSkip {
    BadTime,      // not a time, before 1970, or over a day in the future
    Oversized,    // a field over its limit (store/triage_tag_rules.h)
    UnknownClass, // a class value this build does not know
    BadSha,       // not a commit SHA or delivery id
    BadLink,      // a bug link that is not http(s)
    BadTarget,    // no repository, workflow or job, or no run attempt
    UnknownKind,  // a kind or field of a newer client
    ForgedSeq,    // a seq the server's sequence never gave: left unread
};
inline constexpr std::size_t kTeamSkipKinds = 8;

struct TeamSkips {
    std::array<std::size_t, kTeamSkipKinds> counts{};

    void add(TeamSkip why, std::size_t n = 1) { counts[static_cast<std::size_t>(why)] += n; }
    std::size_t of(TeamSkip why) const { return counts[static_cast<std::size_t>(why)]; }
    std::size_t total() const;
    TeamSkips& operator+=(const TeamSkips& other);
    bool operator==(const TeamSkips&) const = default;
};

// "bad_time", "oversized", ...: how a kind is stored; nullopt for a name
// this build does not know.
std::string_view teamSkipSlug(TeamSkip why);
std::optional<TeamSkip> teamSkipFromSlug(std::string_view slug);
// "skipped 7 changes the team server holds that this RelayHUD cannot use
// (3 bad times, 2 oversized, 2 invalid SHAs)"; "" when none.
std::string describeTeamSkips(const TeamSkips& skips);

struct TeamApplyReport {
    std::size_t pulled = 0;  // server changes read, skipped ones included
    std::size_t applied = 0; // of those, fields written into tags
    std::size_t own = 0;     // this cache's own changes, come back
    TeamSkips skips;         // rows read and not used, by why
    std::vector<TeamConflict> conflicts;
    std::vector<TriageTarget> changedTargets; // tags a pull changed
    std::vector<std::string> authors;         // who made the applied changes
};

struct TeamStatus {
    bool joined = false;
    std::string teamId; // the server's team id, once joined
    std::string where;  // where it was last reached, never with a password
    TeamSeq lastSeq;
    std::int64_t lastSyncMs = 0; // 0: never
    std::int64_t unsent = 0;     // outbox changes the server has not acknowledged
    std::int64_t conflicts = 0;  // listed conflicts
    std::string lastError;       // the last sync's error, "" when it worked
    TeamSkips skipped;           // every row a pull skipped since joining
};

} // namespace relayhud
