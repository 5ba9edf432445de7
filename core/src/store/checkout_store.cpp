// CheckoutStore: the tested-SHA evidence, what job logs say their checkouts checked
// out (schema 6; model/log_checkout.h), and the greens whose logs are read.
#include "relayhud/store/checkout_store.h"

#include "store/statement.h"
#include "store/store_access.h"
#include "store/transaction.h"

namespace relayhud {

using store::Statement;

CheckoutStore::CheckoutStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<void> CheckoutStore::putLogCheckouts(CheckRunRow checkRunRow,
                                            const std::vector<LogCheckout>& checkouts,
                                            EpochSeconds scannedAt)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    const auto failed = [&](const Result<void>& r) {
        return makeError("could not store the checkouts of check run "
                         + std::to_string(checkRunRow.value) + ": " + r.message());
    };
    Statement clear(m_db, "DELETE FROM log_checkout WHERE check_run_row = ?");
    if (auto r = clear.bind(1, checkRunRow).run(); !r)
        return failed(r);
    Statement scan(m_db, "INSERT OR REPLACE INTO log_checkout_scan (check_run_row, scanned_at,"
                         " read) VALUES (?, ?, 1)");
    if (auto r = scan.bind(1, checkRunRow).bind(2, scannedAt).run(); !r)
        return failed(r);
    Statement insert(m_db, "INSERT INTO log_checkout (check_run_row, ordinal, repository, sha,"
                           " line, fetch_ref) VALUES (?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < checkouts.size(); ++i) {
        insert.reset();
        insert.bind(1, checkRunRow)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, checkouts[i].repository)
            .bind(4, checkouts[i].sha)
            .bind(5, static_cast<std::int64_t>(checkouts[i].line))
            .bind(6, checkouts[i].fetchRef);
        if (auto r = insert.run(); !r)
            return failed(r);
    }
    if (auto r = putTestedFromCheckouts(checkRunRow, checkouts); !r)
        return failed(r);
    return transaction->commit();
}

Result<void> CheckoutStore::putLogUnread(CheckRunRow checkRunRow, EpochSeconds triedAt, bool gone)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    Statement clear(m_db, "DELETE FROM log_checkout WHERE check_run_row = ?");
    Statement scan(m_db, "INSERT OR REPLACE INTO log_checkout_scan (check_run_row, scanned_at,"
                         " read) VALUES (?, ?, ?)");
    auto r = clear.bind(1, checkRunRow).run();
    if (r)
        r = scan.bind(1, checkRunRow).bind(2, triedAt).bind(3, gone ? 2 : 0).run();
    if (!r)
        return makeError("could not record the unread log of check run "
                         + std::to_string(checkRunRow.value) + ": " + r.message());
    return transaction->commit();
}

Result<std::optional<std::vector<LogCheckout>>>
CheckoutStore::logCheckouts(CheckRunRow checkRunRow) const
{
    Statement scan(m_db, "SELECT 1 FROM log_checkout_scan WHERE check_run_row = ? AND read = 1");
    auto row = scan.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<std::vector<LogCheckout>>{};
    Statement s(m_db, "SELECT repository, sha, line, fetch_ref FROM log_checkout"
                      " WHERE check_run_row = ? ORDER BY ordinal");
    s.bind(1, checkRunRow);
    auto found = store::collectRows<LogCheckout>(s, [](const Statement& r) {
        return LogCheckout{r.text(0), r.text(1), static_cast<std::uint64_t>(r.int64(2)), r.text(3)};
    });
    if (!found)
        return found.error();
    return std::optional<std::vector<LogCheckout>>{std::move(*found)};
}

Result<std::vector<JobLineCandidate>>
CheckoutStore::checkoutSampleQueue(const CheckoutSampleQuery& query) const
{
    // event_type 0 and 1: pull_request and push (a nightly's "SHA" is not what
    // it checks out); status 3, conclusion 1: completed, success.
    Statement s(m_db, "SELECT id, repo, check_run_id, conclusion FROM ("
                      " SELECT cr.id, b.repo, cr.check_run_id, cr.conclusion,"
                      "  ROW_NUMBER() OVER (PARTITION BY b.id ORDER BY c.time DESC, cr.id DESC)"
                      "   AS rank"
                      " FROM check_run cr JOIN job j ON j.id = cr.job_id"
                      " JOIN backend b ON b.id = j.backend_id"
                      " JOIN upstream_commit c ON c.id = cr.commit_id"
                      " LEFT JOIN log_checkout_scan l ON l.check_run_row = cr.id"
                      " WHERE cr.status = 3 AND cr.conclusion = 1 AND cr.event_type IN (0, 1)"
                      "  AND cr.check_run_id != '' AND c.time >= ?1"
                      "  AND (l.check_run_row IS NULL OR (l.read = 0 AND l.scanned_at < ?3)))"
                      " WHERE rank <= ?2 ORDER BY rank, id DESC");
    s.bind(1, query.since)
        .bind(2, static_cast<std::int64_t>(query.perBackend))
        .bind(3, query.retryUnreadBefore);
    return store::collectRows<JobLineCandidate>(s, [](const Statement& row) {
        return JobLineCandidate{row.int64(0), row.text(1), CheckRunId{row.text(2)},
                                static_cast<Conclusion>(row.integer(3)), false};
    });
}

} // namespace relayhud
