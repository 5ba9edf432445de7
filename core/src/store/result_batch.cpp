#include "store/result_batch.h"

#include "relayhud/junit/test_identity.h"
#include "store/message_store.h"

#include <algorithm>
#include <cmath>

namespace relayhud::store {
namespace {

std::string selectCasesSql()
{
    std::string sql = "SELECT id, key, file, class_name, name, identity, base_name, marks"
                      " FROM test_case WHERE key IN (?";
    for (std::size_t i = 1; i < ResultBatch::kCapacity; ++i)
        sql += ", ?";
    return sql + ")";
}

// The identity of the test_case row `s` stands on (NULL: derived).
bool rowHasIdentity(const Statement& s, const std::string& identity)
{
    return s.isNull(5) ? testIdentity(s.text(2), s.text(3), s.text(4)) == identity
                       : s.text(5) == identity;
}

bool sameCase(const PendingResult& a, const PendingResult& b)
{
    return a.key == b.key && a.identity == b.identity;
}

const char* markPrefix(MarkKind kind)
{
    switch (kind) {
    case MarkKind::Op: return "op__";
    case MarkKind::Dtype: return "dtype__";
    case MarkKind::Module: return "module__";
    case MarkKind::Platform: return "platform__";
    case MarkKind::TestType: return "testtype__";
    case MarkKind::Model: return "model__";
    case MarkKind::Other: return "";
    }
    return "";
}

// The tags as the report wrote them, comma-separated, into `out`.
void joinMarks(const TestMarks& marks, std::string& out)
{
    out.clear();
    for (const Mark& mark : marks.items) {
        if (!out.empty())
            out += ',';
        out += markPrefix(mark.kind);
        out += mark.value;
    }
}

// Whole microseconds; hostile reports may say "nan", "-1" or "1e300".
std::int64_t durationMicros(double seconds)
{
    if (!std::isfinite(seconds) || seconds <= 0.0)
        return 0;
    return std::llround(std::min(seconds, 1e9) * 1e6);
}

// Whether the identity is "file::Class::name" over the non-empty parts, as
// testIdentity() makes it; compared in place, as this runs once per case.
bool isDerivedIdentity(const TestCaseResult& c)
{
    std::string_view rest = c.identity;
    bool first = true;
    for (const std::string* part : {&c.file, &c.className, &c.name}) {
        if (part->empty())
            continue;
        if (!first && !rest.starts_with("::"))
            return false;
        rest.remove_prefix(first ? 0 : 2);
        if (!rest.starts_with(*part))
            return false;
        rest.remove_prefix(part->size());
        first = false;
    }
    return rest.empty();
}

} // namespace

void fillPending(PendingResult& p, const TestCaseResult& c)
{
    p.key = fnv1a(c.identity);
    p.identity = c.identity;
    p.file = c.file;
    p.className = c.className;
    p.name = c.name;
    p.baseName = c.baseName;
    joinMarks(c.marks, p.marks);
    p.derivedIdentity = isDerivedIdentity(c);
    p.outcome = c.outcome;
    p.durationUs = durationMicros(c.durationSeconds);
    p.retried = c.retried;
    p.messageId = 0;
    p.tracebackId = 0;
}

ResultBatch::ResultBatch(sqlite3* db, std::int64_t testRunId, std::int64_t nextCaseId)
    : m_testRunId(testRunId), m_nextCaseId(nextCaseId), m_rows(kCapacity),
      m_selectCases(db, selectCasesSql()),
      m_updateCase(db, "UPDATE test_case SET base_name = ?2, marks = ?3 WHERE id = ?1"),
      m_insertCases(
          db,
          "INSERT OR FAIL INTO test_case(id, key, file, class_name, name, identity, base_name,"
          " marks) VALUES",
          8, ""),
      m_insertResults(db,
                      "INSERT OR FAIL INTO test_result(test_run_id, test_id, outcome, duration_us,"
                      " retried, message_id, traceback_id) VALUES",
                      7,
                      // A test reported twice (merged shards): the later result wins.
                      "ON CONFLICT(test_run_id, test_id) DO UPDATE SET outcome = excluded.outcome,"
                      " duration_us = excluded.duration_us, retried = excluded.retried,"
                      " message_id = excluded.message_id, traceback_id = excluded.traceback_id")
{
}

Result<void> ResultBatch::prepared() const
{
    for (const Statement* s : {&m_selectCases, &m_updateCase})
        if (!s->valid())
            return makeError("cache error: " + s->prepareError());
    return {};
}

Result<void> ResultBatch::flush(RunTally& tally)
{
    if (m_size == 0)
        return {};
    auto r = lookUpCases();
    if (r)
        r = insertNewCases();
    if (r)
        r = insertResults();
    if (r)
        tallyRows(tally);
    m_size = 0;
    return r;
}

// One test runs on several backends, and only some of them tag it: a report
// without marks (which also derives a poorer base name) never overwrites the
// marks another report gave the case.
namespace {
bool refreshesCase(const PendingResult& p, std::string_view storedBase,
                   std::string_view storedMarks)
{
    if (p.marks.empty())
        return storedMarks.empty() && storedBase != p.baseName;
    return storedBase != p.baseName || storedMarks != p.marks;
}
} // namespace

// Known cases get their id (and a fresher base name or marks); the rest are
// listed in m_newRows.
Result<void> ResultBatch::lookUpCases()
{
    Statement& s = m_selectCases.reset();
    for (std::size_t i = 0; i < m_size; ++i) {
        m_rows[i].testId = 0;
        s.bind(static_cast<int>(i) + 1, static_cast<std::int64_t>(m_rows[i].key));
    }
    std::vector<std::size_t> stale;
    auto r = s.forEachRow([&](const Statement& row) {
        const auto key = static_cast<std::uint64_t>(row.int64(1));
        for (std::size_t i = 0; i < m_size; ++i) {
            PendingResult& p = m_rows[i];
            if (p.key != key || p.testId != 0 || !rowHasIdentity(row, p.identity))
                continue;
            p.testId = row.int64(0);
            if (refreshesCase(p, row.text(6), row.text(7)))
                stale.push_back(i);
        }
    });
    if (!r)
        return r;
    for (const std::size_t i : stale)
        if (auto u = updateCase(m_rows[i]); !u)
            return u;
    return {};
}

Result<void> ResultBatch::updateCase(const PendingResult& row)
{
    return m_updateCase.reset()
        .bind(1, row.testId)
        .bindView(2, row.baseName)
        .bindView(3, row.marks)
        .run();
}

Result<void> ResultBatch::insertNewCases()
{
    m_newRows.clear();
    for (std::size_t i = 0; i < m_size; ++i) {
        PendingResult& p = m_rows[i];
        if (p.testId != 0)
            continue;
        // The same new test twice in this batch is one new case.
        for (const std::size_t earlier : m_newRows)
            if (sameCase(m_rows[earlier], p))
                p.testId = m_rows[earlier].testId;
        if (p.testId == 0) {
            p.testId = m_nextCaseId++;
            m_newRows.push_back(i);
        }
    }
    return m_insertCases.run(m_newRows.size(), [&](Statement& s, int at, std::size_t n) {
        const PendingResult& p = m_rows[m_newRows[n]];
        s.bind(at, p.testId)
            .bind(at + 1, static_cast<std::int64_t>(p.key))
            .bindView(at + 2, p.file)
            .bindView(at + 3, p.className)
            .bindView(at + 4, p.name)
            .bindView(at + 6, p.baseName)
            .bindView(at + 7, p.marks);
        if (p.derivedIdentity) // NULL: see schema.cpp
            s.bindNull(at + 5);
        else
            s.bindView(at + 5, p.identity);
    });
}

Result<void> ResultBatch::insertResults()
{
    return m_insertResults.run(m_size, [&](Statement& s, int at, std::size_t n) {
        const PendingResult& p = m_rows[n];
        s.bind(at, m_testRunId)
            .bind(at + 1, p.testId)
            .bind(at + 2, static_cast<std::int64_t>(p.outcome))
            .bind(at + 3, p.durationUs);
        auto optional = [&](int index, std::int64_t id) {
            if (id != 0)
                s.bind(index, id);
            else
                s.bindNull(index);
        };
        if (p.retried.empty())
            s.bindNull(at + 4);
        else
            s.bindView(at + 4, p.retried);
        optional(at + 5, p.messageId);
        optional(at + 6, p.tracebackId);
    });
}

void ResultBatch::tallyRows(RunTally& tally) const
{
    for (std::size_t i = 0; i < m_size; ++i) {
        if (tally.testIds.insert(m_rows[i].testId).second)
            continue;
        if (tally.duplicates++ == 0)
            tally.firstDuplicate = m_rows[i].identity;
    }
}

} // namespace relayhud::store
