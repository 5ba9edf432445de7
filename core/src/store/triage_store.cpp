// TriageStore: human triage tags (model/triage_tags.h) and the reads that triage
// views need: the tags of a run, the matrix's "all triaged" marks and the
// failing tests that clustering groups.
#include "relayhud/store/triage_store.h"

#include "store/statement.h"
#include "store/store_access.h"
#include "store/team_outbox.h"
#include "store/transaction.h"
#include "store/triage_rows.h"

#include "relayhud/junit/test_identity.h"
#include "relayhud/util/hash.h"
#include "relayhud/util/message_text.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace relayhud {

using store::Statement;
using namespace store;
using triage::FailureClass;

namespace {

constexpr const char* kTagColumns =
    "repo, workflow, job, sha, attempt, test, class, note, bug_url, author, time_ms";
constexpr const char* kTargetMatch =
    "repo = ?1 AND workflow = ?2 AND job = ?3 AND sha = ?4 AND attempt = ?5 AND test = ?6";

} // namespace

namespace store {

TriageTag readTriageTag(const Statement& s)
{
    TriageTag tag;
    tag.target = {s.text(0), s.text(1), s.text(2), Sha{s.text(3)}, s.integer(4), s.text(5)};
    tag.cls = triage::classFromStored(s.int64(6));
    tag.note = s.text(7);
    tag.bugUrl = s.text(8);
    tag.author = s.text(9);
    tag.timeMs = s.int64(10);
    return tag;
}

Statement& bindTriageTarget(Statement& s, const TriageTarget& t)
{
    return s.reset()
        .bind(1, t.repo)
        .bind(2, t.workflow)
        .bind(3, t.job)
        .bind(4, t.sha.value)
        .bind(5, t.attempt)
        .bind(6, t.test);
}

std::string describeTriageTarget(const TriageTarget& t)
{
    return t.repo + " " + t.workflow + " / " + t.job + " @" + t.sha.shortSha() + " attempt "
           + std::to_string(t.attempt) + (t.test.empty() ? "" : " " + t.test);
}

Result<std::optional<TriageTag>> findTriageTag(Statement& select, const TriageTarget& target)
{
    auto row = bindTriageTarget(select, target).step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<TriageTag>{};
    return std::optional<TriageTag>{readTriageTag(select)};
}

Statement selectTriageTag(sqlite3* db)
{
    return Statement(db, std::string("SELECT ") + kTagColumns + " FROM triage_tag WHERE "
                             + kTargetMatch);
}

Statement upsertTriageTag(sqlite3* db)
{
    return Statement(db, std::string("INSERT INTO triage_tag(") + kTagColumns
                             + ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
                               " ON CONFLICT (repo, workflow, job, sha, attempt, test) DO UPDATE"
                               " SET class = excluded.class, note = excluded.note,"
                               " bug_url = excluded.bug_url, author = excluded.author,"
                               " time_ms = excluded.time_ms");
}

Result<void> writeTriageTag(Statement& s, const TriageTag& tag)
{
    return bindTriageTarget(s, tag.target)
        .bind(7, triage::storedClass(tag.cls))
        .bind(8, tag.note)
        .bind(9, tag.bugUrl)
        .bind(10, tag.author)
        .bind(11, tag.timeMs)
        .run();
}

} // namespace store

namespace {

// TestOutcome values that count as failing (isFailingOutcome): failed, error,
// xpass-strict.
constexpr const char* kFailingOutcomes = "(1, 2, 5)";
static_assert(static_cast<int>(TestOutcome::Failed) == 1
              && static_cast<int>(TestOutcome::Error) == 2
              && static_cast<int>(TestOutcome::XPassStrict) == 5);

Result<void> checkTag(const TriageTag& tag)
{
    const TriageTarget& t = tag.target;
    if (t.repo.empty() || t.workflow.empty() || t.job.empty() || t.sha.empty())
        return makeError("a triage tag needs a repository, workflow, job and SHA ("
                         + describeTriageTarget(t) + ")");
    if (t.attempt < 1)
        return makeError("a triage tag's attempt starts at 1 (" + describeTriageTarget(t) + ")");
    if (tag.cls == FailureClass::Unset || !triage::isKnownClass(tag.cls))
        return makeError("a triage tag needs a class (" + describeTriageTarget(t) + ")");
    return {};
}

// Each tag's fields that change also go to the team's outbox, in this
// transaction (store/team_outbox.h).
Result<std::vector<std::optional<TriageTag>>> setInTransaction(sqlite3* db,
                                                               const std::vector<TriageTag>& tags)
{
    auto outbox = TeamOutbox::open(db);
    if (!outbox)
        return outbox.error();
    Statement select = selectTriageTag(db);
    Statement write = upsertTriageTag(db);
    std::vector<std::optional<TriageTag>> before;
    before.reserve(tags.size());
    for (const TriageTag& tag : tags) {
        auto old = findTriageTag(select, tag.target);
        if (!old)
            return old.error();
        if (auto r = outbox->record(tag.target, *old, tag, tag.timeMs, tag.author); !r)
            return r.error();
        before.push_back(std::move(*old));
        if (auto r = writeTriageTag(write, tag); !r)
            return r.error();
    }
    return before;
}

// Last first: undoing a batch that named a target twice ends on that
// target's first "before", the state from before the batch. An undo is a
// change of its own for the team, made now.
Result<void> restoreInTransaction(sqlite3* db, const std::vector<TriageTarget>& targets,
                                  const std::vector<std::optional<TriageTag>>& previous)
{
    auto outbox = TeamOutbox::open(db);
    if (!outbox)
        return outbox.error();
    const std::int64_t nowMs = nowMilliseconds();
    Statement select = selectTriageTag(db);
    Statement remove(db, std::string("DELETE FROM triage_tag WHERE ") + kTargetMatch);
    Statement write = upsertTriageTag(db);
    for (std::size_t i = targets.size(); i-- > 0;) {
        if (previous[i] && previous[i]->target != targets[i])
            return makeError("internal error: an undo names another target than its tag ("
                             + describeTriageTarget(targets[i]) + ")");
        if (outbox->active()) {
            auto current = findTriageTag(select, targets[i]);
            if (!current)
                return current.error();
            const std::string author = previous[i] ? previous[i]->author
                                       : *current  ? (*current)->author
                                                   : std::string();
            if (auto r = outbox->record(targets[i], *current, previous[i], nowMs, author); !r)
                return r;
        }
        if (!previous[i]) {
            if (auto r = bindTriageTarget(remove, targets[i]).run(); !r)
                return r;
            continue;
        }
        if (auto r = writeTriageTag(write, *previous[i]); !r)
            return r;
    }
    return {};
}

} // namespace

TriageStore::TriageStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<std::vector<std::optional<TriageTag>>>
TriageStore::setTriageTags(const std::vector<TriageTag>& tags)
{
    for (const TriageTag& tag : tags)
        if (auto r = checkTag(tag); !r)
            return r.error();
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return makeError("could not store the triage tags: " + transaction.message());
    auto before = setInTransaction(m_db, tags);
    if (!before)
        return makeError("could not store the triage tags: " + before.message());
    if (auto r = transaction->commit(); !r)
        return makeError("could not store the triage tags: " + r.message());
    return before;
}

Result<void> TriageStore::restoreTriageTags(const std::vector<TriageTarget>& targets,
                                            const std::vector<std::optional<TriageTag>>& previous)
{
    if (targets.size() != previous.size())
        return makeError("internal error: an undo of " + std::to_string(targets.size())
                         + " triage tags holds " + std::to_string(previous.size()));
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return makeError("could not undo the triage tags: " + transaction.message());
    if (auto r = restoreInTransaction(m_db, targets, previous); !r)
        return makeError("could not undo the triage tags: " + r.message());
    if (auto r = transaction->commit(); !r)
        return makeError("could not undo the triage tags: " + r.message());
    return {};
}

Result<std::vector<std::optional<TriageTag>>>
TriageStore::triageTagsFor(const std::vector<TriageTarget>& targets) const
{
    Statement select = selectTriageTag(m_db);
    std::vector<std::optional<TriageTag>> out;
    out.reserve(targets.size());
    for (const TriageTarget& target : targets) {
        auto tag = findTriageTag(select, target);
        if (!tag)
            return tag.error();
        out.push_back(std::move(*tag));
    }
    return out;
}

Result<TriageTarget> TriageStore::triageTargetOf(CheckRunRow checkRunRow,
                                                 const std::string& test) const
{
    Statement s(m_db, "SELECT b.repo, j.workflow, j.name, c.sha, cr.run_attempt FROM check_run cr"
                      " JOIN job j ON j.id = cr.job_id JOIN backend b ON b.id = j.backend_id"
                      " JOIN upstream_commit c ON c.id = cr.commit_id WHERE cr.id = ?");
    auto row = s.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    if (!*row)
        return makeError("check run " + std::to_string(checkRunRow.value) + " is not in the cache");
    return TriageTarget{s.text(0), s.text(1), s.text(2), Sha{s.text(3)}, s.integer(4), test};
}

Result<std::vector<TriageTag>> TriageStore::triageTagsForCheckRun(CheckRunRow checkRunRow) const
{
    auto target = triageTargetOf(checkRunRow);
    if (!target)
        return target.error();
    // The unique index's prefix: every test of the run, "" (the job) first.
    Statement s(m_db, std::string("SELECT ") + kTagColumns
                          + " FROM triage_tag WHERE repo = ?1 AND workflow = ?2 AND job = ?3"
                            " AND sha = ?4 AND attempt = ?5 ORDER BY test");
    s.bind(1, target->repo)
        .bind(2, target->workflow)
        .bind(3, target->job)
        .bind(4, target->sha.value)
        .bind(5, target->attempt);
    return store::collectRows<TriageTag>(s, readTriageTag);
}

Result<std::vector<TriageTag>> TriageStore::triageTags(const std::vector<Sha>& shas) const
{
    const std::string select = std::string("SELECT ") + kTagColumns + " FROM triage_tag";
    std::vector<TriageTag> out;
    if (shas.empty()) {
        Statement s(m_db, select);
        auto all = store::collectRows<TriageTag>(s, readTriageTag);
        if (!all)
            return all;
        out = std::move(*all);
    } else {
        Statement s(m_db, select + " WHERE sha = ?");
        for (const Sha& sha : shas) {
            s.reset().bind(1, sha.value);
            if (auto r =
                    s.forEachRow([&](const Statement& row) { out.push_back(readTriageTag(row)); });
                !r)
                return r.error();
        }
    }
    std::sort(out.begin(), out.end(),
              [](const TriageTag& a, const TriageTag& b) { return a.target < b.target; });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const TriageTag& a, const TriageTag& b) {
                              return a.target == b.target; // a SHA asked twice
                          }),
              out.end());
    return out;
}

namespace {

// relayhud_fnv1a(text): test_case.key of an identity (schema v2), so a tag
// finds its test's result inside SQLite.
void fnv1aFunction(sqlite3_context* context, int, sqlite3_value** argv)
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
    const auto size = static_cast<std::size_t>(sqlite3_value_bytes(argv[0]));
    sqlite3_result_int64(
        context, static_cast<std::int64_t>(fnv1a(std::string_view(text ? text : "", size))));
}

Result<void> registerFnv1a(sqlite3* db)
{
    if (sqlite3_create_function_v2(db, "relayhud_fnv1a", 1,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                   fnv1aFunction, nullptr, nullptr, nullptr)
        != SQLITE_OK)
        return makeError(std::string("cannot register relayhud_fnv1a: ") + sqlite3_errmsg(db));
    return {};
}

// The asked rows (a JSON array: one short statement, however many rows),
// integers only: where each ran and its failing count from its test run's
// totals (not a scan of results).
constexpr const char* kProgressRuns =
    "SELECT cr.id, cr.commit_id, cr.job_id, cr.run_attempt,"
    " tr.failed + tr.errors + tr.xpass_strict"
    " FROM json_each(?1) k CROSS JOIN check_run cr ON cr.id = k.value"
    " LEFT JOIN test_run tr ON tr.check_run_row = cr.id AND tr.state = 0";

// The tags on those rows' commits, driven from the tags (by SHA) rather than
// from the rows, so a matrix with few tags costs next to nothing; each
// triaged test tag comes with its test's outcome in its run (test_case by
// key, then the result's primary key), and the identity columns tell a key
// collision apart.
constexpr const char* kProgressTags =
    "SELECT c.id, j.id, t.attempt, t.test, t.class, r.outcome,"
    " tc.identity, tc.file, tc.class_name, tc.name"
    " FROM json_each(?1) k CROSS JOIN upstream_commit c ON c.id = k.value"
    " JOIN triage_tag t ON t.sha = c.sha"
    " JOIN backend b ON b.repo = t.repo"
    " JOIN job j ON j.backend_id = b.id AND j.workflow = t.workflow AND j.name = t.job"
    " LEFT JOIN check_run cr ON t.test != '' AND t.class NOT IN (?2, ?3)"
    " AND cr.job_id = j.id AND cr.commit_id = c.id AND cr.run_attempt = t.attempt"
    " LEFT JOIN test_run tr ON tr.check_run_row = cr.id AND tr.state = 0"
    " LEFT JOIN test_case tc ON tr.id IS NOT NULL AND tc.key = relayhud_fnv1a(t.test)"
    " LEFT JOIN test_result r ON r.test_run_id = tr.id AND r.test_id = tc.id";

// Where a run is: commit, job, attempt.
struct RunPlace {
    std::int64_t commit = 0;
    std::int64_t job = 0;
    int attempt = 0;
    bool operator==(const RunPlace&) const = default;
};

struct RunPlaceHash {
    std::size_t operator()(const RunPlace& p) const
    {
        const auto mix = static_cast<std::uint64_t>(p.commit) * std::uint64_t{0x9E3779B97F4A7C15}
                         ^ static_cast<std::uint64_t>(p.job) * std::uint64_t{0xC2B2AE3D27D4EB4F}
                         ^ static_cast<std::uint64_t>(p.attempt);
        return static_cast<std::size_t>(mix ^ (mix >> 29));
    }
};

// A tagged test that is failing in its run (NULL columns: not in the run).
bool failingMatch(const Statement& row, const std::string& test)
{
    if (row.isNull(5) || !isFailingOutcome(static_cast<TestOutcome>(row.integer(5))))
        return false;
    const std::string stored =
        row.isNull(6) ? testIdentity(row.text(7), row.text(8), row.text(9)) : row.text(6);
    return stored == test;
}

void addTag(TriageProgress& p, const Statement& row)
{
    const std::string test = row.text(3);
    const auto cls = triage::classFromStored(row.int64(4));
    if (test.empty())
        p.jobClass = cls;
    else if (isTriagedClass(cls) && p.triagedTests < p.failingTests && failingMatch(row, test))
        ++p.triagedTests;
}

} // namespace

Result<std::vector<TriageProgress>>
TriageStore::triageProgress(const std::vector<CheckRunRow>& checkRunRows) const
{
    std::vector<TriageProgress> out(checkRunRows.size());
    if (checkRunRows.empty())
        return out;
    std::unordered_map<CheckRunRow, std::size_t, IdHash> slotOf; // first slot of a row
    std::vector<CheckRunRow> rows;
    for (std::size_t i = 0; i < checkRunRows.size(); ++i) {
        out[i].checkRunRow = checkRunRows[i];
        if (slotOf.emplace(checkRunRows[i], i).second)
            rows.push_back(checkRunRows[i]);
    }
    std::unordered_map<RunPlace, std::size_t, RunPlaceHash> slotAt;
    std::vector<std::int64_t> commits;
    Statement runs(m_db, kProgressRuns);
    auto read = runs.bind(1, store::jsonIdList(rows)).forEachRow([&](const Statement& row) {
        const std::size_t slot = slotOf[row.id<CheckRunRow>(0)];
        out[slot].failingTests = row.isNull(4) ? 0 : row.integer(4);
        slotAt.emplace(RunPlace{row.int64(1), row.int64(2), row.integer(3)}, slot);
        commits.push_back(row.int64(1));
    });
    if (!read)
        return read.error();
    std::sort(commits.begin(), commits.end());
    commits.erase(std::unique(commits.begin(), commits.end()), commits.end());
    if (auto r = registerFnv1a(m_db); !r)
        return r.error();
    Statement tags(m_db, kProgressTags);
    // ?2, ?3: the classes that are no triage (isTriagedClass).
    tags.bind(2, triage::storedClass(FailureClass::Unset))
        .bind(3, triage::storedClass(FailureClass::Untriaged));
    read = tags.bind(1, store::jsonIdList(commits)).forEachRow([&](const Statement& row) {
        const auto at = slotAt.find(RunPlace{row.int64(0), row.int64(1), row.integer(2)});
        if (at != slotAt.end())
            addTag(out[at->second], row);
    });
    if (!read)
        return read.error();
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = out[slotOf[checkRunRows[i]]]; // a row asked twice
    return out;
}

Result<std::vector<FailureRecord>>
TriageStore::failuresForClustering(const FailureQuery& query) const
{
    // The N newest SHAs are picked by the commit-time index first; the
    // results are then read per test run (test_result's primary key), failing
    // outcomes only. Messages are cut to their head in SQL: clustering needs
    // the first meaningful line, never a 64 KB body.
    std::string commits = "SELECT id FROM upstream_commit WHERE time >= ?1 AND time <= ?2";
    if (query.newestShas > 0)
        commits += " ORDER BY time DESC, id DESC LIMIT " + std::to_string(query.newestShas);
    Statement s(m_db,
                "SELECT c.sha, c.time, b.repo, j.workflow, j.name, cr.run_attempt, cr.id,"
                " tc.identity, tc.file, tc.class_name, tc.name, r.outcome, substr(m.text, 1, 2048)"
                " FROM upstream_commit c JOIN check_run cr ON cr.commit_id = c.id"
                " JOIN job j ON j.id = cr.job_id JOIN backend b ON b.id = j.backend_id"
                " JOIN test_run tr ON tr.check_run_row = cr.id AND tr.state = 0"
                " JOIN test_result r ON r.test_run_id = tr.id"
                " JOIN test_case tc ON tc.id = r.test_id"
                " LEFT JOIN test_message m ON m.id = r.message_id"
                " WHERE c.id IN ("
                    + commits + ") AND r.outcome IN " + kFailingOutcomes
                    + " ORDER BY c.time DESC, c.id DESC, cr.id, r.test_id");
    s.bind(1, query.since)
        .bind(2, query.until > 0 ? query.until : std::numeric_limits<std::int64_t>::max());
    std::vector<FailureRecord> out;
    auto r = s.forEachRow([&](const Statement& row) {
        FailureRecord f;
        f.sha = Sha{row.text(0)};
        f.commitTime = row.int64(1);
        f.repo = row.text(2);
        f.workflow = row.text(3);
        f.job = row.text(4);
        f.attempt = row.integer(5);
        f.checkRunRow = row.id<CheckRunRow>(6);
        f.test = row.isNull(7) ? testIdentity(row.text(8), row.text(9), row.text(10)) : row.text(7);
        f.outcome = static_cast<TestOutcome>(row.integer(11));
        f.reason = std::string(firstMeaningfulLine(row.text(12)));
        out.push_back(std::move(f));
    });
    if (!r)
        return r.error();
    return out;
}

} // namespace relayhud
