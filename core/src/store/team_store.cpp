// TeamStore: its side of a team's shared triage server (store/team_changes.h):
// the outbox a tag write fills (TeamOutbox), joining a team, and applying
// what a pull brings, field by field, with the conflicts listed.
#include "relayhud/store/team_store.h"

#include "store/statement.h"
#include "store/store_access.h"
#include "store/team_outbox.h"
#include "store/transaction.h"
#include "store/triage_rows.h"

#include "relayhud/model/failure_class.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <random>

namespace relayhud {

using store::Statement;

std::string_view teamFieldName(TeamField field)
{
    switch (field) {
    case TeamField::Class: return "class";
    case TeamField::Note: return "note";
    case TeamField::Bug: return "bug";
    }
    return "class";
}

std::optional<TeamField> teamFieldFromName(std::string_view name)
{
    for (TeamField field : {TeamField::Class, TeamField::Note, TeamField::Bug})
        if (teamFieldName(field) == name)
            return field;
    return std::nullopt;
}

namespace store {
namespace {

constexpr std::array<TeamField, 3> kFields{TeamField::Class, TeamField::Note, TeamField::Bug};

constexpr const char* kInsertOutbox =
    "INSERT INTO team_outbox(change_id, base_seq, repo, workflow, job, sha, attempt, test, field,"
    " value, client_ms, author) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";

// The last change of a field: ours (seq 0 until a pull brings it back) or
// the server's.
constexpr const char* kUpsertField =
    "INSERT INTO team_field(repo, workflow, job, sha, attempt, test, field, change_id, seq,"
    " base_seq, client_ms, author, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
    " ?12, ?13) ON CONFLICT (repo, workflow, job, sha, attempt, test, field) DO UPDATE SET"
    " change_id = excluded.change_id, seq = excluded.seq, base_seq = excluded.base_seq,"
    " client_ms = excluded.client_ms, author = excluded.author, value = excluded.value";

constexpr const char* kSelectField =
    "SELECT change_id, seq, base_seq, client_ms, author, value FROM team_field WHERE repo = ?1"
    " AND workflow = ?2 AND job = ?3 AND sha = ?4 AND attempt = ?5 AND test = ?6 AND field = ?7";

Statement& bindChangeTarget(Statement& s, const TriageTarget& t, int first)
{
    return s.bind(first, t.repo)
        .bind(first + 1, t.workflow)
        .bind(first + 2, t.job)
        .bind(first + 3, t.sha.value)
        .bind(first + 4, t.attempt)
        .bind(first + 5, t.test);
}

Result<void> writeField(Statement& s, const TeamChange& c)
{
    bindChangeTarget(s.reset(), c.target, 1)
        .bind(7, teamFieldName(c.field))
        .bind(8, c.changeId)
        .bind(9, c.seq)
        .bind(10, c.baseSeq)
        .bind(11, c.clientMs)
        .bind(12, c.author)
        .bind(13, c.value);
    return s.run();
}

Result<void> insertOutbox(Statement& s, const TeamChange& c)
{
    s.reset().bind(1, c.changeId).bind(2, c.baseSeq);
    bindChangeTarget(s, c.target, 3)
        .bind(9, teamFieldName(c.field))
        .bind(10, c.value)
        .bind(11, c.clientMs)
        .bind(12, c.author);
    return s.run();
}

std::int64_t toInt64(const std::string& text)
{
    std::int64_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

} // namespace

std::string randomUuid()
{
    thread_local std::mt19937_64 generator{[] {
        std::random_device device;
        std::seed_seq seed{device(), device(), device(), device(), device(), device()};
        return std::mt19937_64(seed);
    }()};
    std::array<unsigned char, 16> bytes{};
    for (std::size_t i = 0; i < bytes.size(); i += 8) {
        const std::uint64_t word = generator();
        for (std::size_t j = 0; j < 8; ++j)
            bytes[i + j] = static_cast<unsigned char>(word >> (8 * j));
    }
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80); // RFC 4122 variant
    char text[37];
    std::snprintf(text, sizeof text,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", bytes[0],
                  bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                  bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
    return text;
}

std::string teamFieldValue(const std::optional<TriageTag>& tag, TeamField field)
{
    switch (field) {
    case TeamField::Class:
        return std::string(
            triage::failureClassName(tag ? tag->cls : triage::FailureClass::Untriaged));
    case TeamField::Note: return tag ? tag->note : std::string();
    case TeamField::Bug: return tag ? tag->bugUrl : std::string();
    }
    return {};
}

Result<std::string> teamStateValue(sqlite3* db, const std::string& key)
{
    Statement s(db, "SELECT value FROM team_state WHERE key = ?");
    auto row = s.bind(1, key).step();
    if (!row)
        return row.error();
    return *row ? s.text(0) : std::string();
}

Result<void> setTeamStateValue(sqlite3* db, const std::string& key, const std::string& value)
{
    Statement s(db, "INSERT INTO team_state(key, value) VALUES (?1, ?2)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    return s.bind(1, key).bind(2, value).run();
}

Result<TeamOutbox> TeamOutbox::open(sqlite3* db)
{
    TeamOutbox out;
    auto team = teamStateValue(db, "team_id");
    if (!team)
        return team.error();
    if (team->empty())
        return out;
    auto lastSeq = teamStateValue(db, "last_seq");
    if (!lastSeq)
        return lastSeq.error();
    out.m_active = true;
    out.m_lastSeq = TeamSeq{toInt64(*lastSeq)};
    out.m_insert = Statement(db, kInsertOutbox);
    out.m_field = Statement(db, kUpsertField);
    return out;
}

Result<void> TeamOutbox::queue(const TeamChange& change)
{
    if (!m_active)
        return {};
    if (auto r = insertOutbox(m_insert, change); !r)
        return r;
    return writeField(m_field, change);
}

Result<void> TeamOutbox::record(const TriageTarget& target, const std::optional<TriageTag>& before,
                                const std::optional<TriageTag>& after, std::int64_t clientMs,
                                const std::string& author)
{
    if (!m_active)
        return {};
    for (TeamField field : kFields) {
        std::string value = teamFieldValue(after, field);
        if (value == teamFieldValue(before, field))
            continue;
        TeamChange change;
        change.changeId = randomUuid();
        change.baseSeq = m_lastSeq;
        change.target = target;
        change.field = field;
        change.value = std::move(value);
        change.clientMs = clientMs;
        change.author = author;
        if (auto r = queue(change); !r)
            return r;
    }
    return {};
}

} // namespace store

namespace {

using store::setTeamStateValue;
using store::teamStateValue;

TeamChange readOutboxRow(const Statement& s)
{
    TeamChange c;
    c.changeId = s.text(0);
    c.baseSeq = s.id<TeamSeq>(1);
    c.target = {s.text(2), s.text(3), s.text(4), Sha{s.text(5)}, s.integer(6), s.text(7)};
    c.field = teamFieldFromName(s.text(8)).value_or(TeamField::Class);
    c.value = s.text(9);
    c.clientMs = s.int64(10);
    c.author = s.text(11);
    return c;
}

// What the field's history says, as a change (nullopt: never changed).
Result<std::optional<TeamChange>> readField(Statement& s, const TriageTarget& target,
                                            TeamField field)
{
    store::bindChangeTarget(s.reset(), target, 1).bind(7, teamFieldName(field));
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<TeamChange>{};
    TeamChange c;
    c.changeId = s.text(0);
    c.seq = s.id<TeamSeq>(1);
    c.baseSeq = s.id<TeamSeq>(2);
    c.clientMs = s.int64(3);
    c.author = s.text(4);
    c.value = s.text(5);
    c.target = target;
    c.field = field;
    return std::optional<TeamChange>{std::move(c)};
}

// Neither author had seen the other's change: ours is not on the server yet,
// or theirs was made before it pulled ours.
bool concurrent(const TeamChange& local, const TeamChange& remote)
{
    return !local.seq || remote.baseSeq < local.seq;
}

// Newest wins; on a tie the greater change id, which every client decides
// alike.
bool remoteIsNewer(const TeamChange& local, const TeamChange& remote)
{
    if (remote.clientMs != local.clientMs)
        return remote.clientMs > local.clientMs;
    return remote.changeId > local.changeId;
}

// Writes one field of a pulled change into its tag (a tag it did not have
// starts untriaged); false when the value is not a class this build knows.
Result<bool> applyToTag(Statement& select, Statement& write, const TeamChange& change)
{
    auto found = store::findTriageTag(select, change.target);
    if (!found)
        return found.error();
    TriageTag tag;
    if (*found) {
        tag = **found;
    } else {
        tag.target = change.target;
        tag.cls = triage::FailureClass::Untriaged;
    }
    switch (change.field) {
    case TeamField::Class: {
        const auto cls = triage::parseTagClass(change.value);
        if (!cls)
            return false;
        tag.cls = *cls;
        break;
    }
    case TeamField::Note: tag.note = change.value; break;
    case TeamField::Bug: tag.bugUrl = change.value; break;
    }
    tag.author = change.author;
    tag.timeMs = change.clientMs;
    if (auto r = store::writeTriageTag(write, tag); !r)
        return r.error();
    return true;
}

constexpr const char* kInsertConflict =
    "INSERT INTO team_conflict(repo, workflow, job, sha, attempt, test, field, local_id,"
    " local_seq, local_base, local_value, local_author, local_ms, remote_id, remote_seq,"
    " remote_base, remote_value, remote_author, remote_ms, remote_won, found_ms) VALUES (?1, ?2,"
    " ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)";

Result<void> insertConflict(Statement& s, const TeamConflict& c)
{
    store::bindChangeTarget(s.reset(), c.local.target, 1)
        .bind(7, teamFieldName(c.local.field))
        .bind(8, c.local.changeId)
        .bind(9, c.local.seq)
        .bind(10, c.local.baseSeq)
        .bind(11, c.local.value)
        .bind(12, c.local.author)
        .bind(13, c.local.clientMs)
        .bind(14, c.remote.changeId)
        .bind(15, c.remote.seq)
        .bind(16, c.remote.baseSeq)
        .bind(17, c.remote.value)
        .bind(18, c.remote.author)
        .bind(19, c.remote.clientMs)
        .bind(20, c.remoteWon ? 1 : 0)
        .bind(21, c.foundMs);
    return s.run();
}

// Applies pulled changes one by one inside applyTeamChanges' transaction,
// into its report.
class TeamApplier {
public:
    TeamApplier(sqlite3* db, TeamApplyReport& report, std::int64_t nowMs)
        : m_ownRow(db, "DELETE FROM team_outbox WHERE change_id = ? RETURNING id"),
          // By the field's key: the change is ours only if it is still the field's last.
          m_ownField(db, "UPDATE team_field SET seq = ?8, author = ?9 WHERE repo = ?1 AND"
                         " workflow = ?2 AND job = ?3 AND sha = ?4 AND attempt = ?5 AND"
                         " test = ?6 AND field = ?7 AND change_id = ?10"),
          m_fieldSelect(db, store::kSelectField), m_fieldWrite(db, store::kUpsertField),
          m_tagSelect(store::selectTriageTag(db)), m_tagWrite(store::upsertTriageTag(db)),
          m_conflictInsert(db, kInsertConflict), m_report(report), m_nowMs(nowMs)
    {
    }

    Result<void> apply(const TeamChange& remote)
    {
        ++m_report.pulled;
        auto own = takeOwn(remote);
        if (!own)
            return own.error();
        return *own ? Result<void>() : merge(remote);
    }

private:
    // One of this cache's own changes coming back: it leaves the outbox and
    // its field takes the server's seq. False when it is another's.
    Result<bool> takeOwn(const TeamChange& remote)
    {
        auto own = m_ownRow.reset().bind(1, remote.changeId).step();
        if (!own)
            return own.error();
        if (!*own)
            return false;
        if (auto done = m_ownRow.run(); !done)
            return done.error();
        ++m_report.own;
        store::bindChangeTarget(m_ownField.reset(), remote.target, 1)
            .bind(7, teamFieldName(remote.field))
            .bind(8, remote.seq)
            .bind(9, remote.author)
            .bind(10, remote.changeId);
        if (auto r = m_ownField.run(); !r)
            return r.error();
        return true;
    }

    // Another's change: newest wins, a concurrent edit of another value is
    // a conflict kept for both sides to see.
    Result<void> merge(const TeamChange& remote)
    {
        auto local = readField(m_fieldSelect, remote.target, remote.field);
        if (!local)
            return local.error();
        if (*local && (*local)->changeId == remote.changeId)
            return {}; // read twice (a pull repeated after a failed commit)
        const bool both = *local && concurrent(**local, remote);
        const bool remoteWins = !both || remoteIsNewer(**local, remote);
        if (both && (*local)->value != remote.value) {
            TeamConflict conflict{**local, remote, remoteWins, m_nowMs};
            if (auto r = insertConflict(m_conflictInsert, conflict); !r)
                return r;
            m_report.conflicts.push_back(std::move(conflict));
        }
        if (!remoteWins)
            return {};
        auto applied = applyToTag(m_tagSelect, m_tagWrite, remote);
        if (!applied)
            return applied.error();
        if (!*applied) {
            m_report.skips.add(TeamSkip::UnknownClass);
            return {};
        }
        if (auto r = store::writeField(m_fieldWrite, remote); !r)
            return r;
        ++m_report.applied;
        m_report.changedTargets.push_back(remote.target);
        m_report.authors.push_back(remote.author);
        return {};
    }

    Statement m_ownRow;
    Statement m_ownField;
    Statement m_fieldSelect;
    Statement m_fieldWrite;
    Statement m_tagSelect;
    Statement m_tagWrite;
    Statement m_conflictInsert;
    TeamApplyReport& m_report;
    std::int64_t m_nowMs;
};

template <typename T>
void sortUnique(std::vector<T>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}
} // namespace

TeamStore::TeamStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<std::size_t> TeamStore::joinTeam(const std::string& teamId, const std::string& where)
{
    if (teamId.empty())
        return makeError("internal error: joining a team without its id");
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return makeError("could not join the team: " + transaction.message());
    auto run = [&]() -> Result<std::size_t> {
        auto current = teamStateValue(m_db, "team_id");
        if (!current)
            return current.error();
        if (auto r = setTeamStateValue(m_db, "where", where); !r)
            return r.error();
        if (*current == teamId)
            return std::size_t{0};
        for (const char* sql :
             {"DELETE FROM team_outbox", "DELETE FROM team_field", "DELETE FROM team_conflict",
              "DELETE FROM team_state WHERE key LIKE 'skipped:%'"})
            if (auto r = Statement(m_db, sql).run(); !r)
                return r.error();
        for (const auto& [key, value] :
             {std::pair{"last_seq", "0"}, {"last_sync_ms", "0"}, {"last_error", ""}})
            if (auto r = setTeamStateValue(m_db, key, value); !r)
                return r.error();
        if (auto r = setTeamStateValue(m_db, "team_id", teamId); !r)
            return r.error();
        auto outbox = store::TeamOutbox::open(m_db);
        if (!outbox)
            return outbox.error();
        // Every tag here: its class always (a cleared tag tells the team it
        // was cleared), its note and link when it has them. Against a tag
        // whose class is Unset (""), every class differs.
        TriageTag unset;
        unset.cls = triage::FailureClass::Unset;
        Statement tags(m_db, "SELECT repo, workflow, job, sha, attempt, test, class, note, bug_url,"
                             " author, time_ms FROM triage_tag ORDER BY time_ms, id");
        Result<void> failed;
        auto each = tags.forEachRow([&](const Statement& row) {
            if (!failed)
                return;
            const TriageTag tag = store::readTriageTag(row);
            failed = outbox->record(tag.target, unset, tag, tag.timeMs, tag.author);
        });
        if (!each)
            return each.error();
        if (!failed)
            return failed.error();
        Statement count(m_db, "SELECT count(*) FROM team_outbox");
        if (auto row = count.step(); !row)
            return row.error();
        return static_cast<std::size_t>(count.int64(0));
    }();
    if (!run)
        return makeError("could not join the team: " + run.message());
    if (auto r = transaction->commit(); !r)
        return makeError("could not join the team: " + r.message());
    return *run;
}

Result<TeamStatus> TeamStore::teamStatus() const
{
    TeamStatus status;
    Statement state(m_db, "SELECT key, value FROM team_state");
    if (auto r = state.forEachRow([&](const Statement& row) {
            const std::string key = row.text(0);
            const std::string value = row.text(1);
            if (key == "team_id")
                status.teamId = value;
            else if (key == "where")
                status.where = value;
            else if (key == "last_seq")
                status.lastSeq = TeamSeq{store::toInt64(value)};
            else if (key == "last_sync_ms")
                status.lastSyncMs = store::toInt64(value);
            else if (key == "last_error")
                status.lastError = value;
            else if (key.starts_with("skipped:"))
                if (const auto why = teamSkipFromSlug(std::string_view(key).substr(8)))
                    status.skipped.add(*why, static_cast<std::size_t>(store::toInt64(value)));
        });
        !r)
        return r.error();
    status.joined = !status.teamId.empty();
    Statement counts(m_db, "SELECT (SELECT count(*) FROM team_outbox WHERE sent = 0),"
                           " (SELECT count(*) FROM team_conflict)");
    auto row = counts.step();
    if (!row)
        return row.error();
    status.unsent = counts.int64(0);
    status.conflicts = counts.int64(1);
    return status;
}

Result<std::vector<TeamChange>> TeamStore::teamOutbox(std::size_t limit) const
{
    Statement s(m_db, "SELECT change_id, base_seq, repo, workflow, job, sha, attempt, test, field,"
                      " value, client_ms, author FROM team_outbox WHERE sent = 0 ORDER BY id"
                      " LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<TeamChange>(s, readOutboxRow);
}

Result<void> TeamStore::markTeamSent(const std::vector<std::string>& changeIds)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    Statement s(m_db, "UPDATE team_outbox SET sent = 1 WHERE change_id = ?");
    for (const std::string& id : changeIds)
        if (auto r = s.reset().bind(1, id).run(); !r)
            return r;
    return transaction->commit();
}

Result<TeamApplyReport> TeamStore::applyTeamChanges(const std::vector<TeamChange>& changes,
                                                    TeamSeq lastSeq, std::int64_t nowMs,
                                                    const TeamSkips& skipped)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return makeError("could not apply the team's changes: " + transaction.message());
    TeamApplyReport report;
    report.skips = skipped;
    report.pulled = skipped.total();
    auto run = [&]() -> Result<void> {
        TeamApplier applier(m_db, report, nowMs);
        for (const TeamChange& remote : changes)
            if (auto r = applier.apply(remote); !r)
                return r;
        if (auto r = store::addTeamSkips(m_db, report.skips); !r)
            return r;
        return setTeamStateValue(m_db, "last_seq", std::to_string(lastSeq.value));
    }();
    if (!run)
        return makeError("could not apply the team's changes: " + run.message());
    if (auto r = transaction->commit(); !r)
        return makeError("could not apply the team's changes: " + r.message());
    sortUnique(report.authors);
    sortUnique(report.changedTargets);
    return report;
}

Result<void> TeamStore::setTeamSyncResult(std::int64_t whenMs, const std::string& where,
                                          const std::string& error, std::int64_t forgedRows)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    if (forgedRows >= 0)
        if (auto r = setTeamStateValue(m_db, store::teamSkipKey(TeamSkip::ForgedSeq),
                                       std::to_string(forgedRows));
            !r)
            return r;
    if (error.empty())
        if (auto r = setTeamStateValue(m_db, "last_sync_ms", std::to_string(whenMs)); !r)
            return r;
    if (!where.empty())
        if (auto r = setTeamStateValue(m_db, "where", where); !r)
            return r;
    if (auto r = setTeamStateValue(m_db, "last_error", error); !r)
        return r;
    return transaction->commit();
}

Result<std::vector<TeamConflict>> TeamStore::teamConflicts(std::size_t limit) const
{
    Statement s(m_db, "SELECT repo, workflow, job, sha, attempt, test, field, local_id, local_seq,"
                      " local_base, local_value, local_author, local_ms, remote_id, remote_seq,"
                      " remote_base, remote_value, remote_author, remote_ms, remote_won, found_ms"
                      " FROM team_conflict ORDER BY id DESC LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<TeamConflict>(s, [](const Statement& row) {
        TeamConflict c;
        const TriageTarget target{row.text(0),      row.text(1),    row.text(2),
                                  Sha{row.text(3)}, row.integer(4), row.text(5)};
        const TeamField field = teamFieldFromName(row.text(6)).value_or(TeamField::Class);
        c.local = {row.text(7), row.int64(8), row.int64(9),  target,
                   field,       row.text(10), row.int64(12), row.text(11)};
        c.remote = {row.text(13), row.int64(14), row.int64(15), target,
                    field,        row.text(16),  row.int64(18), row.text(17)};
        c.remoteWon = row.int64(19) != 0;
        c.foundMs = row.int64(20);
        return c;
    });
}

Result<std::optional<TeamChange>> TeamStore::teamFieldChange(const TriageTarget& target,
                                                             TeamField field) const
{
    Statement s(m_db, store::kSelectField);
    return readField(s, target, field);
}

} // namespace relayhud
