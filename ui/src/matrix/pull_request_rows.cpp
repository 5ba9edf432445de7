#include "relayhud/ui/matrix/pull_request_rows.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace relayhud::ui {

namespace {

struct Head {
    std::size_t row = 0;       // in the commits matrix
    EpochSeconds pushed = 0;   // the commit's earliest activity: when it was dispatched
    EpochSeconds activity = 0; // its latest run's start, else the commit's time
};

struct Pr {
    PrNumber number;
    std::vector<Head> heads; // newest first
    EpochSeconds activity() const
    {
        EpochSeconds latest = 0;
        for (const Head& head : heads)
            latest = std::max(latest, head.activity);
        return latest;
    }
};

EpochSeconds latestActivity(const MatrixSnapshot& commits, std::size_t row)
{
    EpochSeconds latest = 0;
    for (std::size_t c = 0; c < commits.columns.size(); ++c)
        latest = std::max(latest, commits.cell(row, c).startedAt);
    return latest > 0 ? latest : commits.rows[row].time;
}

// PRs by their latest activity, newest first (the HUD's max(started_at)),
// each with its heads newest pushed first (ties: the matrix's own order).
std::vector<Pr> pullRequests(const MatrixSnapshot& commits)
{
    std::map<PrNumber, Pr> byNumber;
    for (std::size_t r = 0; r < commits.rows.size(); ++r) {
        const PrNumber number = commits.rows[r].prNumber;
        if (number.value <= 0)
            continue; // pushes and scheduled runs: the HUD's "pr_number > 0"
        Pr& pr = byNumber[number];
        pr.number = number;
        pr.heads.push_back({r, commits.rows[r].time, latestActivity(commits, r)});
    }
    std::vector<Pr> out;
    out.reserve(byNumber.size());
    for (auto& [number, pr] : byNumber) {
        std::stable_sort(pr.heads.begin(), pr.heads.end(),
                         [](const Head& a, const Head& b) { return a.pushed > b.pushed; });
        out.push_back(std::move(pr));
    }
    std::stable_sort(out.begin(), out.end(), [](const Pr& a, const Pr& b) {
        return a.activity() != b.activity() ? a.activity() > b.activity() : b.number < a.number;
    });
    return out;
}

// The head whose run stands for the PR in `column`: the most recently
// started one; a newer head wins ties and runs whose start is unknown.
std::size_t latestHeadFor(const MatrixSnapshot& commits, const Pr& pr, std::size_t column)
{
    const Head* best = nullptr;
    for (const Head& head : pr.heads) {
        const MatrixCell& cell = commits.cell(head.row, column);
        if (cell.empty())
            continue;
        if (!best)
            best = &head;
        else if (const MatrixCell& b = commits.cell(best->row, column);
                 b.startedAt > 0 && cell.startedAt > b.startedAt)
            best = &head;
    }
    return best ? best->row : pr.heads.front().row;
}

UpstreamCommit summaryCommit(const MatrixSnapshot& commits, const Pr& pr)
{
    UpstreamCommit commit = commits.rows[pr.heads.front().row];
    commit.time = pr.activity();
    for (const Head& head : pr.heads) { // pr-info's title is the PR's, on any head
        const UpstreamCommit& other = commits.rows[head.row];
        if (commit.title.empty())
            commit.title = other.title;
        if (commit.author.empty())
            commit.author = other.author;
    }
    return commit;
}

void appendRow(PullRequestMatrix& out, const MatrixSnapshot& commits, std::size_t row)
{
    out.matrix.rows.push_back(commits.rows[row]);
    const auto first =
        commits.cells.begin() + static_cast<std::ptrdiff_t>(row * commits.columns.size());
    out.matrix.cells.insert(out.matrix.cells.end(), first,
                            first + static_cast<std::ptrdiff_t>(commits.columns.size()));
}

} // namespace

PullRequestMatrix pullRequestMatrix(const MatrixSnapshot& commits,
                                    const std::set<std::int64_t>& expanded)
{
    PullRequestMatrix out;
    out.matrix.columns = commits.columns;
    const std::size_t width = commits.columns.size();
    for (const Pr& pr : pullRequests(commits)) {
        const int heads = static_cast<int>(pr.heads.size());
        const bool open = heads > 1 && expanded.count(pr.number.value) > 0;
        out.matrix.rows.push_back(summaryCommit(commits, pr));
        out.rows.push_back({PullRequestRow::Kind::Latest, pr.number, heads, open});
        const std::size_t newest = pr.heads.front().row;
        for (std::size_t c = 0; c < width; ++c) {
            const std::size_t from = latestHeadFor(commits, pr, c);
            const MatrixCell& cell = commits.cell(from, c);
            out.matrix.cells.push_back(cell);
            if (from != newest && !cell.empty())
                out.carried.emplace(cell.runRowId, commits.rows[from].sha.value);
        }
        if (!open)
            continue;
        for (std::size_t h = 1; h < pr.heads.size(); ++h) {
            appendRow(out, commits, pr.heads[h].row);
            out.rows.push_back({PullRequestRow::Kind::EarlierHead, pr.number, heads, false});
        }
    }
    return out;
}

int countPullRequests(const MatrixSnapshot& commits)
{
    std::unordered_set<PrNumber, IdHash> numbers;
    for (const UpstreamCommit& commit : commits.rows)
        if (commit.prNumber.value > 0)
            numbers.insert(commit.prNumber);
    return static_cast<int>(numbers.size());
}

} // namespace relayhud::ui
