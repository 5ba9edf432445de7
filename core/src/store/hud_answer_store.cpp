// HudAnswerStore: the HUD's aggregate answers, kept verbatim.
#include "relayhud/store/hud_answer_store.h"

#include "store/statement.h"
#include "store/store_access.h"

namespace relayhud {

using store::Statement;

HudAnswerStore::HudAnswerStore(const Database& db) : m_db(store::connectionOf(db)) {}

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
