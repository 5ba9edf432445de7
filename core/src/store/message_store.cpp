#include "store/message_store.h"

namespace relayhud::store {

MessageStore::MessageStore(sqlite3* db)
    : m_db(db), m_select(db, "SELECT id FROM test_message WHERE hash = ?1 AND text = ?2"
                             " AND full_bytes = ?3 AND full_hash = ?4"),
      m_insert(db, "INSERT INTO test_message(hash, text, full_bytes, full_hash)"
                   " VALUES (?, ?, ?, ?)")
{
}

Result<void> MessageStore::prepared() const
{
    for (const Statement* s : {&m_select, &m_insert})
        if (!s->valid())
            return makeError("cache error: " + s->prepareError());
    return {};
}

Result<std::int64_t> MessageStore::id(const CappedText& text, const std::string& fullHash)
{
    if (text.text.empty() && text.fullBytes == 0)
        return std::int64_t{0};
    // Two cut texts with the same prefix are different messages.
    std::string key = text.text;
    key.append(1, '\0').append(std::to_string(text.fullBytes)).append(1, '\0').append(fullHash);
    if (auto it = m_ids.find(key); it != m_ids.end())
        return it->second;
    auto id = lookUpOrInsert(text, fullHash, fnv1a(key));
    if (id)
        m_ids.emplace(std::move(key), *id);
    return id;
}

Result<std::int64_t> MessageStore::lookUpOrInsert(const CappedText& text,
                                                  const std::string& fullHash, std::uint64_t hash)
{
    const auto fullBytes = static_cast<std::int64_t>(text.fullBytes);
    for (Statement* s : {&m_select, &m_insert})
        s->reset()
            .bind(1, static_cast<std::int64_t>(hash))
            .bindView(2, text.text)
            .bind(3, fullBytes)
            .bindView(4, fullHash);
    auto found = m_select.step();
    if (!found)
        return found.error();
    if (*found)
        return m_select.int64(0);
    if (auto r = m_insert.run(); !r)
        return r.error();
    return sqlite3_last_insert_rowid(m_db);
}

} // namespace relayhud::store
