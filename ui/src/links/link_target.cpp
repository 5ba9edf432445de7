#include "relayhud/ui/links/link_target.h"

#include <QStringList>

namespace relayhud::ui {

namespace {

QString shortSha(const Sha& sha) { return QString::fromStdString(sha.shortSha()); }

// Exact SHAs first: a nightly's key may be a prefix of another's.
Result<LinkTarget> findCommit(const QString& wanted, const MatrixSnapshot& matrix)
{
    const std::string exact = wanted.toStdString();
    std::vector<std::size_t> prefixed;
    for (std::size_t row = 0; row < matrix.rows.size(); ++row) {
        const std::string& sha = matrix.rows[row].sha.value;
        if (sha == exact)
            return LinkTarget{static_cast<int>(row), -1, shortSha(matrix.rows[row].sha)};
        if (sha.size() > exact.size() && sha.compare(0, exact.size(), exact) == 0)
            prefixed.push_back(row);
    }
    if (prefixed.size() == 1)
        return LinkTarget{static_cast<int>(prefixed.front()), -1,
                          shortSha(matrix.rows[prefixed.front()].sha)};
    if (prefixed.empty())
        return makeError(QStringLiteral("Commit %1 is not in the cache's matrix (%2 commits): "
                                        "sync, or the link is from another HUD")
                             .arg(wanted)
                             .arg(matrix.rows.size())
                             .toStdString());
    QStringList some;
    for (std::size_t i = 0; i < prefixed.size() && i < 3; ++i)
        some << shortSha(matrix.rows[prefixed[i]].sha);
    return makeError(QStringLiteral("%1 starts %2 commits (%3…): the link needs more of the SHA")
                         .arg(wanted)
                         .arg(prefixed.size())
                         .arg(some.join(QStringLiteral(", ")))
                         .toStdString());
}

Result<LinkTarget> findNewestHead(PrNumber pr, const MatrixSnapshot& matrix)
{
    int best = -1;
    for (std::size_t row = 0; row < matrix.rows.size(); ++row) {
        const UpstreamCommit& commit = matrix.rows[row];
        if (commit.prNumber == pr
            && (best < 0 || commit.time > matrix.rows[static_cast<std::size_t>(best)].time))
            best = static_cast<int>(row);
    }
    if (best < 0)
        return makeError(QStringLiteral("PR #%1 has no commit in the cache's matrix: sync, or "
                                        "its runs are older than the matrix shows")
                             .arg(pr.value)
                             .toStdString());
    return LinkTarget{best, -1,
                      QStringLiteral("PR #%1 at %2")
                          .arg(pr.value)
                          .arg(shortSha(matrix.rows[static_cast<std::size_t>(best)].sha))};
}

int columnOf(const CheckRun& run, const MatrixSnapshot& matrix)
{
    for (std::size_t column = 0; column < matrix.columns.size(); ++column) {
        const MatrixColumn& c = matrix.columns[column];
        if (c.backend == run.downstreamRepo && c.workflow == run.workflow && c.job == run.jobName)
            return static_cast<int>(column);
    }
    return -1;
}

int rowOf(const Sha& sha, const MatrixSnapshot& matrix)
{
    for (std::size_t row = 0; row < matrix.rows.size(); ++row)
        if (matrix.rows[row].sha == sha)
            return static_cast<int>(row);
    return -1;
}

} // namespace

Result<LinkTarget> resolveCommitLink(const AppLink& link, const MatrixSnapshot& matrix)
{
    if (link.kind == AppLink::Kind::PullRequest)
        return findNewestHead(link.pr, matrix);
    return findCommit(link.sha, matrix);
}

Result<LinkTarget> resolveRunLink(const AppLink& link, const std::optional<CheckRun>& run,
                                  const MatrixSnapshot& matrix)
{
    const QString id = QString::fromStdString(link.checkRun.value);
    if (!run)
        return makeError(QStringLiteral("Check run %1 is not in the cache: sync, or the link is "
                                        "from another HUD")
                             .arg(id)
                             .toStdString());
    const QString what =
        QString::fromStdString(run->jobName) % u" on " % shortSha(run->upstreamSha);
    const int row = rowOf(run->upstreamSha, matrix);
    const int column = columnOf(*run, matrix);
    if (row < 0)
        return makeError(QStringLiteral("Check run %1 (%2) is in the cache but not in the "
                                        "matrix: its commit is older than the %3 it shows")
                             .arg(id, what)
                             .arg(matrix.rows.size())
                             .toStdString());
    if (column < 0)
        return makeError(QStringLiteral("Check run %1 (%2) is in the cache but its job has no "
                                        "column in the matrix")
                             .arg(id, what)
                             .toStdString());
    return LinkTarget{row, column, what};
}

} // namespace relayhud::ui
