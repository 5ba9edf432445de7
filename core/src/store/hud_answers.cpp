// Database: what the sync keeps besides runs: nightly titles, dispatch-time
// levels and the HUD's aggregate answers.
#include "relayhud/store/hud_answer_store.h"
#include "relayhud/store/run_store.h"

#include "store/statement.h"
#include "store/store_access.h"
#include "store/transaction.h"

namespace relayhud {

using store::Statement;

Result<std::vector<std::string>> RunStore::nightlyShasWithoutTitle(std::size_t limit) const
{
    static_assert(static_cast<int>(EventType::Nightly) == 2);
    Statement s(m_db, "SELECT sha FROM upstream_commit WHERE event_type = 2 AND title = ''"
                      " ORDER BY time DESC LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<std::string>(s, [](const Statement& row) { return row.text(0); });
}

Result<void> RunStore::applyDispatchLevels(const std::vector<DispatchLevel>& levels)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    Statement s(m_db, "UPDATE check_run SET level = ?3"
                      " WHERE check_run_id = ?1 AND run_attempt = ?2 AND ?3 != 0");
    for (const auto& l : levels) {
        if (l.checkRunId.value.empty())
            continue;
        auto r = s.reset()
                     .bind(1, l.checkRunId.value)
                     .bind(2, l.runAttempt)
                     .bind(3, static_cast<std::int64_t>(l.level))
                     .run();
        if (!r)
            return r;
    }
    return transaction->commit();
}

HudAnswerStore::HudAnswerStore(const Database& db) : m_database(&db), m_db(store::connectionOf(db))
{
}

Result<void> HudAnswerStore::setHudAnswer(const std::string& query, const std::string& params,
                                          const std::string& body, EpochSeconds fetchedAt)
{
    Statement s(m_db, "INSERT INTO hud_answer(query, params, body, fetched_at) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT(query, params) DO UPDATE SET body = excluded.body,"
                      " fetched_at = excluded.fetched_at");
    s.bind(1, query).bind(2, params).bind(3, body).bind(4, fetchedAt);
    return s.run();
}

Result<std::optional<HudAnswer>> HudAnswerStore::hudAnswer(const std::string& query,
                                                           const std::string& params) const
{
    Statement s(m_db, "SELECT body, fetched_at FROM hud_answer WHERE query = ? AND params = ?");
    s.bind(1, query).bind(2, params);
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<HudAnswer>{};
    return std::optional<HudAnswer>{HudAnswer{s.text(0), s.int64(1)}};
}

} // namespace relayhud
