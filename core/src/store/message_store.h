#pragma once
// test_message rows for one writer: a message or traceback is stored once
// and shared by every result (of any run) that has the same text, which is
// most of them (the same failure, run after run). Private to the store.
#include "relayhud/model/test_result.h"
#include "relayhud/util/hash.h"
#include "store/statement.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace relayhud::store {

class MessageStore {
public:
    explicit MessageStore(sqlite3* db);
    Result<void> prepared() const;

    // The row of this text; `fullHash` is the ContentCache blob of the whole
    // when `text` was cut ("" otherwise). 0 for no text at all.
    Result<std::int64_t> id(const CappedText& text, const std::string& fullHash);

private:
    Result<std::int64_t> lookUpOrInsert(const CappedText& text, const std::string& fullHash,
                                        std::uint64_t hash);

    sqlite3* m_db;
    Statement m_select, m_insert;
    // (text, full size, full hash) -> id, for this writer's run.
    std::unordered_map<std::string, std::int64_t> m_ids;
};

} // namespace relayhud::store
