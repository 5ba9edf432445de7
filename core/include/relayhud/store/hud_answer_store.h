#pragma once
// The HUD's aggregate answers (crcr_summary, relay health, ...) verbatim, one
// per (query, parameters), the newest replacing the older. Table: hud_answer.
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <optional>
#include <string>

struct sqlite3;

namespace relayhud {

class Database;

struct HudAnswer {
    std::string body;
    EpochSeconds fetchedAt = 0;
};

class HudAnswerStore {
public:
    explicit HudAnswerStore(const Database& db);

    Result<void> setHudAnswer(const std::string& query, const std::string& params,
                              const std::string& body, EpochSeconds fetchedAt);

    Result<std::optional<HudAnswer>> hudAnswer(const std::string& query,
                                               const std::string& params) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
