#pragma once
// One row of a team server's change log, as the pull receives it (issue 35):
// every column as text, or nullopt where the server withheld the value (SQL
// NULL: a field over its limit, or a time that is no instant). A teammate
// with SQL access can write anything into a row; decodeTeamRow() is the
// one place that decides whether this RelayHUD can use it. No I/O: the
// fuzz target (fuzz/fuzz_team_row.cpp) and the tests call it directly.
#include "relayhud/store/team_changes.h"

#include <cstdint>
#include <optional>
#include <string>

namespace relayhud::team {

struct TeamRowText {
    std::optional<std::string> seq, changeId, kind, repo, workflow, job, sha, attempt, test, field,
        value, clientMs, author, baseSeq;
    // When the server received the row, or its clock now if earlier: the
    // "now" its time is checked against, the same for every cache that
    // pulls it (this machine's clock, or a --now, would make two caches
    // decide differently, and a skip is for good).
    std::optional<std::string> receivedMs;
};

struct DecodedTeamRow {
    std::optional<TeamSeq> seq;            // nullopt: no seq, which no real server sends
    std::optional<TeamChange> change;      // the change, when this RelayHUD can use it
    TeamSkip skip = TeamSkip::UnknownKind; // why not, when it cannot
};

// Checks a row with the rules `triage import` applies
// (store/triage_tag_rules.h) at the row's receivedMs, plus what only a row
// has: its kind, field, class and numbers.
DecodedTeamRow decodeTeamRow(const TeamRowText& row);

// Why a change breaks those rules ("" when it keeps them): what a push
// checks first, as the server would refuse it (schema 3's CHECK) and every
// pull would skip it.
std::string teamChangeProblem(const TeamChange& change, std::int64_t nowMs);

} // namespace relayhud::team
