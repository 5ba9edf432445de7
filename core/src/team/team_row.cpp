#include "relayhud/team/team_row.h"

#include "relayhud/model/failure_class.h"
#include "relayhud/store/triage_tag_rules.h"
#include "relayhud/util/utf8.h"

#include <charconv>

namespace relayhud::team {
namespace {

std::optional<std::int64_t> parseInt64(const std::optional<std::string>& text)
{
    if (!text)
        return std::nullopt;
    std::int64_t value = 0;
    const char* end = text->data() + text->size();
    const auto [stop, ec] = std::from_chars(text->data(), end, value);
    if (ec != std::errc() || stop != end)
        return std::nullopt;
    return value;
}

TagCheck checkOf(const TeamChange& c, std::int64_t nowMs)
{
    TriageTag tag;
    tag.target = c.target;
    tag.author = c.author;
    tag.timeMs = c.clientMs;
    if (c.field == TeamField::Note)
        tag.note = c.value;
    if (c.field == TeamField::Bug)
        tag.bugUrl = c.value;
    return checkTriageTag(tag, nowMs);
}

TeamSkip skipOf(TagFault fault)
{
    switch (fault) {
    case TagFault::Oversized: return TeamSkip::Oversized;
    case TagFault::BadSha: return TeamSkip::BadSha;
    case TagFault::BadLink: return TeamSkip::BadLink;
    case TagFault::BadTime: return TeamSkip::BadTime;
    case TagFault::BadTarget:
    case TagFault::None: break;
    }
    return TeamSkip::BadTarget;
}

// Text the way the cache keeps it: a server whose database is not UTF-8
// (SQL_ASCII) may send any bytes; they become U+FFFD before any check, so
// what is stored exports and imports unchanged.
std::string text(const std::string& raw) { return isValidUtf8(raw) ? raw : sanitizeUtf8(raw); }

DecodedTeamRow skipped(DecodedTeamRow row, TeamSkip why)
{
    row.change.reset();
    row.skip = why;
    return row;
}

} // namespace

DecodedTeamRow decodeTeamRow(const TeamRowText& row)
{
    DecodedTeamRow out;
    if (const auto seq = parseInt64(row.seq))
        out.seq = TeamSeq{*seq};
    if (!out.seq)
        return skipped(std::move(out), TeamSkip::BadTarget); // a pull refuses the page
    const std::optional<TeamField> known = row.field ? teamFieldFromName(*row.field) : std::nullopt;
    if (!row.kind || *row.kind != "triage" || !known)
        return skipped(std::move(out), TeamSkip::UnknownKind);
    const TeamField field = known.value_or(TeamField::Class);
    const auto clientMs = parseInt64(row.clientMs);
    const auto receivedMs = parseInt64(row.receivedMs);
    if (!clientMs || !receivedMs)
        return skipped(std::move(out), TeamSkip::BadTime);
    for (const auto* text : {&row.changeId, &row.repo, &row.workflow, &row.job, &row.sha, &row.test,
                             &row.value, &row.author})
        if (!*text)
            return skipped(std::move(out), TeamSkip::Oversized);
    const auto attempt = parseInt64(row.attempt);
    const auto baseSeq = parseInt64(row.baseSeq);
    if (!attempt || *attempt < 1 || *attempt > kMaxTagAttempt || !baseSeq || row.changeId->empty()
        || row.changeId->size() > kMaxTagNameBytes)
        return skipped(std::move(out), TeamSkip::BadTarget);
    TeamChange c;
    c.seq = out.seq.value_or(TeamSeq{});
    c.changeId = text(*row.changeId);
    c.baseSeq = TeamSeq{*baseSeq};
    c.target = {text(*row.repo), text(*row.workflow),        text(*row.job),
                Sha{*row.sha},   static_cast<int>(*attempt), text(*row.test)};
    c.field = field;
    c.value = text(*row.value);
    c.clientMs = *clientMs;
    c.author = text(*row.author);
    if (const TagFault fault = checkOf(c, *receivedMs).fault; fault != TagFault::None)
        return skipped(std::move(out), skipOf(fault));
    if (field == TeamField::Class && !triage::parseTagClass(c.value))
        return skipped(std::move(out), TeamSkip::UnknownClass);
    out.change = std::move(c);
    return out;
}

std::string teamChangeProblem(const TeamChange& change, std::int64_t nowMs)
{
    if (change.field == TeamField::Class && !triage::parseTagClass(change.value))
        return "\"class\": unknown class \"" + change.value + "\"";
    return checkOf(change, nowMs).why;
}

} // namespace relayhud::team
