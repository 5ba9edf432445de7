// CheckoutStore: the upstream commit a run really tested (schema 9;
// model/tested_commit.h), and the previous one of its job, the base of its
// compare range.
#include "relayhud/store/checkout_store.h"

#include "store/statement.h"
#include "store/store_access.h"
#include "store/transaction.h"

#include <algorithm>

namespace relayhud {

using store::Statement;

namespace {

constexpr const char* kColumns = "sha, ref, source, evidence, line";

TestedCommit readTested(const Statement& row, int first)
{
    return TestedCommit{row.text(first), row.text(first + 1),
                        static_cast<TestedCommitSource>(row.integer(first + 2)),
                        row.text(first + 3), static_cast<std::uint64_t>(row.int64(first + 4))};
}

} // namespace

Result<void> CheckoutStore::putTestedCommit(CheckRunRow checkRunRow, const TestedCommit& tested)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    // A weaker source never replaces a stronger one; the same source
    // replaces itself (a log read again).
    Statement s(m_db, "INSERT INTO tested_commit (check_run_row, sha, ref, source, evidence, line)"
                      " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (check_run_row) DO UPDATE SET"
                      " sha = excluded.sha, ref = excluded.ref, source = excluded.source,"
                      " evidence = excluded.evidence, line = excluded.line"
                      " WHERE excluded.source <= tested_commit.source");
    s.bind(1, checkRunRow)
        .bind(2, tested.sha)
        .bind(3, tested.ref)
        .bind(4, static_cast<int>(tested.source))
        .bind(5, tested.evidence)
        .bind(6, static_cast<std::int64_t>(tested.line));
    if (auto r = s.run(); !r)
        return makeError("could not store the tested commit of check run "
                         + std::to_string(checkRunRow.value) + ": " + r.message());
    return transaction->commit();
}

Result<void> CheckoutStore::putTestedFromCheckouts(CheckRunRow checkRunRow,
                                                   const std::vector<LogCheckout>& checkouts)
{
    Statement repo(m_db, "SELECT upstream_repo FROM check_run WHERE id = ?");
    auto row = repo.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    if (!*row)
        return {};
    const auto tested = testedCommitFromCheckouts(checkouts, repo.text(0));
    // A log read again that no longer shows a checkout takes back what the
    // earlier read said; names (job, artifacts) stay.
    Statement clear(m_db, "DELETE FROM tested_commit WHERE check_run_row = ? AND source <= ?");
    if (auto r = clear.bind(1, checkRunRow)
                     .bind(2, static_cast<int>(TestedCommitSource::FetchRef))
                     .run();
        !r)
        return r;
    return tested ? putTestedCommit(checkRunRow, *tested) : Result<void>{};
}

Result<std::optional<TestedCommit>> CheckoutStore::testedCommit(CheckRunRow checkRunRow) const
{
    Statement s(m_db,
                std::string("SELECT ") + kColumns + " FROM tested_commit WHERE check_run_row = ?");
    return store::firstRow<TestedCommit>(s.bind(1, checkRunRow),
                                         [](const Statement& row) { return readTested(row, 0); });
}

Result<std::unordered_map<CheckRunRow, TestedCommit, IdHash>>
CheckoutStore::testedCommits(const std::vector<CheckRunRow>& checkRunRows) const
{
    std::unordered_map<CheckRunRow, TestedCommit, IdHash> out;
    if (checkRunRows.empty())
        return out;
    // Few runs have one: read them all and keep the rows asked for.
    std::vector<CheckRunRow> wanted = checkRunRows;
    std::sort(wanted.begin(), wanted.end());
    Statement s(m_db, std::string("SELECT check_run_row, ") + kColumns + " FROM tested_commit");
    auto r = s.forEachRow([&](const Statement& row) {
        const auto id = row.id<CheckRunRow>(0);
        if (std::binary_search(wanted.begin(), wanted.end(), id))
            out.emplace(id, readTested(row, 1));
    });
    if (!r)
        return r.error();
    return out;
}

Result<std::optional<TestedCommit>>
CheckoutStore::previousTestedCommit(CheckRunRow checkRunRow) const
{
    // The same job's runs on older upstream commits (ties: the lower row),
    // newest first, whose tested commit is another one of the same fetched
    // branch ("" for a SHA the job was given: the base's HEAD) and whose row
    // has the same branch (a PR's base, where the cache knows it).
    Statement s(m_db, std::string("SELECT ") + kColumns
                          + " FROM ("
                            " SELECT t.sha, t.ref, t.source, t.evidence, t.line, c.time, cr.id"
                            " FROM check_run cr JOIN upstream_commit c ON c.id = cr.commit_id"
                            " JOIN tested_commit t ON t.check_run_row = cr.id"
                            " JOIN check_run here ON here.id = ?1 AND here.job_id = cr.job_id"
                            " JOIN upstream_commit hc ON hc.id = here.commit_id"
                            " JOIN tested_commit ht ON ht.check_run_row = here.id"
                            " WHERE (c.time < hc.time OR (c.time = hc.time AND cr.id < here.id))"
                            "  AND t.ref = ht.ref AND c.branch = hc.branch AND t.sha != ht.sha"
                            "  AND substr(t.sha, 1, 7) != substr(ht.sha, 1, 7))"
                            " ORDER BY time DESC, id DESC LIMIT 1");
    return store::firstRow<TestedCommit>(s.bind(1, checkRunRow),
                                         [](const Statement& row) { return readTested(row, 0); });
}

} // namespace relayhud
