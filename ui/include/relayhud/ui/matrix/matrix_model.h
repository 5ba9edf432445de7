#pragma once
// The SHA x job matrix as a table model over a MatrixSnapshot. Rows are
// upstream commits (newest first, described by the vertical header), columns
// are jobs grouped by backend (described by the horizontal header).
//
// merge() refreshes from a new snapshot with row/column removals and
// insertions plus dataChanged, never a model reset, so that selection and
// scroll position survive a sync.
#include "relayhud/store/matrix_snapshot.h"

#include <QAbstractTableModel>
#include <QSet>

#include <cstdint>

namespace relayhud::ui {

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
    };
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
    void merge(MatrixSnapshot next);

    const MatrixSnapshot& snapshot() const { return m_snapshot; }
    // The watch marks: changed cells (by run row id) and followed item keys.
    void setUnseen(const QSet<qint64>& runs);
    void setFollowed(const QSet<QString>& keys);
    const UpstreamCommit* commitAt(int row) const;
    const MatrixColumn* columnAt(int column) const;

signals:
    // After every merge(), once the model matches the new snapshot.
    void merged();

private:
    QVariant cellData(const MatrixCell& cell, int role) const;
    QVariant columnData(const MatrixColumn& column, int role) const;
    QVariant commitData(const UpstreamCommit& commit, int role) const;
    QString cellDescription(int row, int column) const; // plain text

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

    MatrixSnapshot m_snapshot;
    QSet<qint64> m_unseen;
    QSet<QString> m_followed;
};

} // namespace relayhud::ui
