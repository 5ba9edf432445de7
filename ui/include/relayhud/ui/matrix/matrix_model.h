#pragma once
// The SHA x job matrix as a table model over a MatrixSnapshot. Rows are
// upstream commits (newest first, described by the vertical header), columns
// are jobs grouped by backend (described by the horizontal header). In the
// pull-request view rows are PRs instead, each optionally followed by its
// earlier heads (matrix/pull_request_rows.h). The shards of a job share one
// column showing the worst status until expanded (matrix/shard_groups.h).
//
// merge() refreshes from a new snapshot with row/column removals and
// insertions plus dataChanged, never a model reset, so that selection and
// scroll position survive a sync; switching views and expanding a PR move
// to the new rows the same way.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/ui/matrix/pull_request_rows.h"
#include "relayhud/ui/matrix/shard_groups.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace relayhud::ui {

// A job column's identity across snapshots (backend, workflow, job).
std::string matrixColumnKey(const MatrixColumn& column);

class MatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        CellStateRole = Qt::UserRole, // int(CellState)
        RunRowIdRole,                 // qint64, 0 for an empty cell
        AttemptsRole,                 // int
        RetriedRole,                  // bool
        StaleRole,                    // bool
        DurationRole,                 // double seconds, invalid when unknown
        StartedAtRole,                // qint64 epoch seconds, invalid when unknown
        HasArtifactsRole,             // bool: the row names an artifact URL
        TriageRole,                   // int(TriageMark)
        VerdictRole,                  // int(VerdictMark)
        // Column (job) roles: horizontal headerData, and data() of its cells.
        BackendRole,  // QString "org/repo"
        LevelRole,    // int(Level)
        WorkflowRole, // QString
        JobRole,      // QString
        JobIdRole,    // qint64
        // Row (commit) roles: vertical headerData, and data() of its cells.
        ShaRole,         // QString, full SHA
        ShortShaRole,    // QString, 7 characters
        PrNumberRole,    // qint64, 0 when none
        BranchRole,      // QString
        EventTypeRole,   // int(EventType)
        CommitTimeRole,  // qint64 epoch seconds
        CommitTitleRole, // QString
        // Watch (watch/watch_list.h): a cell that changed on a followed item
        // since the user last looked (bool); a header that is followed: a
        // column's int(Followed) bits, a row's bool (its PR).
        UnseenRole,
        FollowedRole,
        // Pull-request view. Rows: int(RowKind), the PR's heads (int), and
        // whether its earlier heads are shown (bool). Cells of a PR's row: the
        // SHA of the earlier head their run is on (QString; empty when on
        // the newest head).
        RowKindRole,
        HeadsRole,
        ExpandedRole,
        CarriedFromRole,
        // Shard groups (columns): the members a collapsed group's column
        // stands for (int, 0 for any other column), its family key and name
        // (QString, "" outside a group), and whether a group is expanded.
        ShardMembersRole,
        ShardFamilyRole,
        ShardGroupNameRole,
        ShardExpandedRole,
        // Rows (vertical headerData only): the title a row shows (a PR's
        // title, a nightly's commit title), and the branch a backend's log
        // says it fetched to test a PR's row ("" when no log said).
        RowTitleRole,
        TestedRefRole,
    };
    enum class RowKind { Commit, PullRequest, EarlierHead };
    enum Followed { FollowedJob = 1, FollowedBackend = 2 };
    // Failed cells: whether people have classed every failure.
    enum class TriageMark { None, Untriaged, Triaged };
    // Self-reported greens whose evidence was examined: what the verdict
    // said. None also for greens whose artifacts were never fetched.
    enum class VerdictMark { None, Verified, Unverified, Disputed };
    Q_ENUM(Role)

    explicit MatrixModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    // Brings the model to `next`: removes vanished rows and columns, inserts
    // new ones in place, reorders survivors with a layout change if needed,
    // and reports changed cells and headers.
    // `next` is the commits matrix; the model shows it, or its PR rows.
    void merge(MatrixSnapshot next);

    // What the model shows (rows may be PRs) and the commits it came from.
    const MatrixSnapshot& snapshot() const { return m_snapshot; }
    const MatrixSnapshot& commits() const { return m_commits; }

    // The pull-request view, and which PRs show their earlier heads.
    void setPullRequestView(bool on);
    bool pullRequestView() const { return m_pullRequestView; }
    void setExpanded(qint64 pr, bool expanded);
    bool isExpanded(qint64 pr) const { return m_expanded.count(pr) > 0; }
    // Shard groups: on or off, and which families show their members.
    void setShardGrouping(bool on);
    bool shardGrouping() const { return m_shardGrouping; }
    void setShardGroupExpanded(const QString& family, bool expanded);
    bool isShardGroupExpanded(const QString& family) const
    {
        return m_expandedGroups.contains(family);
    }
    // Expands the group a job, or a run's job, is in, so that its column shows.
    void revealJob(const std::string& backend, const std::string& workflow, const std::string& job);
    void revealRun(qint64 runRowId);
    // The commit a cell's run is on: its row's, or (a PR's row) the earlier
    // head's it came from.
    const UpstreamCommit* runCommitAt(int row, int column) const;
    // The watch marks: changed cells (by run row id) and followed item keys.
    void setUnseen(const QSet<qint64>& runs);
    void setFollowed(const QSet<QString>& keys);
    const UpstreamCommit* commitAt(int row) const;
    const MatrixColumn* columnAt(int column) const;

signals:
    // After every merge() and view change, once the model matches.
    void merged();

private:
    void present();
    void show(MatrixSnapshot next);
    const PullRequestRow* rowGroup(const UpstreamCommit& commit) const;
    const ShardColumn* shardColumn(const MatrixColumn& column) const;
    const ShardColumn* foldedGroupAt(std::size_t row, std::size_t column) const;
    QString carriedFrom(std::size_t row, std::size_t column) const;
    QString shardGroupDescription(int row, const ShardColumn& shard) const;

    QVariant cellData(const MatrixCell& cell, int role) const;
    QVariant columnData(const MatrixColumn& column, int role) const;
    QVariant commitData(const UpstreamCommit& commit, int role) const;
    QString cellDescription(int row, int column) const; // plain text
    QString testedRef(int row) const;

    void removeVanished(const MatrixSnapshot& next);
    void reorderSurvivors(const MatrixSnapshot& next);
    void insertNewRows(const MatrixSnapshot& next);
    void insertNewColumns(const MatrixSnapshot& next);
    void takeOver(MatrixSnapshot next);

    // Structural edits of m_snapshot that keep cells row-major.
    void cutRows(int first, int count);
    void cutColumns(int first, int count);
    void spliceRows(int at, const std::vector<UpstreamCommit>& rows);
    void spliceColumns(int at, const std::vector<MatrixColumn>& columns);

    MatrixSnapshot m_snapshot; // shown
    MatrixSnapshot m_commits;  // as merged
    bool m_pullRequestView = false;
    std::set<std::int64_t> m_expanded;
    QHash<QString, PullRequestRow> m_rowGroups;                 // by SHA, pull-request view only
    std::unordered_map<CheckRunRow, QString, IdHash> m_carried; // run row -> SHA of its head
    std::unordered_map<CheckRunRow, TestedCommit, IdHash> m_tested; // run row -> what it tested
    bool m_shardGrouping = true;
    QSet<QString> m_expandedGroups;
    MatrixSnapshot m_pullRequests; // the pull-request view's rows, before grouping
    // The rows as shown, every job its own column: the commits, or the PR rows.
    const MatrixSnapshot& ungrouped() const
    {
        return m_pullRequestView ? m_pullRequests : m_commits;
    }
    std::unordered_map<std::string, ShardColumn> m_shardColumns; // by column key
    QSet<qint64> m_unseen;
    QSet<QString> m_followed;
};

} // namespace relayhud::ui
