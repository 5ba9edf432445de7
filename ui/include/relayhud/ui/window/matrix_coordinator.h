#pragma once
// The matrix's place (issue 38): which cell is current and which run the
// panels show. It keeps that place through merges, a PR's earlier heads and a
// job's shard group opened or folded, and filters or view tabs that hide the
// cell (the panels stay on its run until a filter shows it again); it selects
// a run, a commit or a cell for the links, the jump box, the charts and the
// doctor; and it walks the failures with j / k / n / p (matrix/triage_walk.h),
// into the tests of each run. The panels follow its currentRunChanged.
#include "relayhud/model/ids.h"

#include <QModelIndex>
#include <QObject>
#include <QString>

#include <functional>
#include <string>
#include <vector>

namespace relayhud::ui {

class MatrixFilterProxy;
class MatrixModel;
class MatrixView;
class SyncStatusWidget;
class TestsCoordinator;
struct WalkCell;

class MatrixCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        MatrixModel* model = nullptr;
        MatrixFilterProxy* proxy = nullptr;
        MatrixView* view = nullptr;
        SyncStatusWidget* status = nullptr;
        TestsCoordinator* tests = nullptr; // the walk goes on into a run's tests
    };
    explicit MatrixCoordinator(Frame frame, QObject* parent = nullptr);

    MatrixView* view() const { return m_frame.view; }
    MatrixModel& model() const { return *m_frame.model; }
    MatrixFilterProxy& proxy() const { return *m_frame.proxy; }
    // The run the panels show (a cache row id; 0: none).
    CheckRunRow shownRun() const { return m_shownRun; }
    // The panels follow `current` now (a cell activated), unless a change
    // is settling the place.
    void follow(const QModelIndex& current);
    // Runs `change` (a merge, opening or folding rows or columns) with the
    // panels held, then puts the current cell back on its run; with
    // `revealFolded`, a job's cell whose run went into a folded shard group
    // opens that group.
    void changeKeepingCurrent(const std::function<void()>& change, bool revealFolded);

    // Makes the cell of this run (a cache row id) current, clearing filters
    // that hide it; false (with a status message) when the matrix lacks it.
    bool selectRun(CheckRunRow run);
    // Makes the commit's first failure current (its first untriaged one,
    // else its first run), clearing filters that hide it.
    bool selectCommit(const QString& sha);
    // The cell at a model (source) position; filters that hide it are reset.
    bool selectSourceCell(int row, int column);
    // Makes the first failure (with artifacts first) current, else any
    // non-empty cell; false when the matrix has none.
    bool selectInterestingCell();
    // In the pull-request view: shows the PR's earlier heads when `sha` is
    // one of them.
    void revealCommit(const QString& sha);
    // Shows or hides a PR row's earlier heads; opens or folds a shard group.
    void togglePullRequestHeads(int proxyRow);
    void toggleShardGroup(const QString& family);
    // j / k: the shown run's next untriaged failing test, then the next
    // failed cell's; n / p (`wholeCell`): cell by cell.
    void walkFailures(bool forward);
    void walkCells(bool forward, bool wholeCell);

signals:
    // The panels show this cell's run now (invalid: no cell).
    void currentRunChanged(const QModelIndex& current);

private:
    // The current cell by what it shows, to find it again after the
    // model's rows or columns changed under it.
    struct Place {
        bool cell = false; // a cell was current
        CheckRunRow run;
        QString sha;        // its row's
        qint64 pr = 0;      // its row's PR, in the pull-request view
        std::string column; // matrixColumnKey of its column (a folded group's own)
        bool group = false; // a folded shard group's cell
        QString family;     // its shard group's, "" outside one
    };
    Place currentPlace() const;
    Place placeToKeep() const;
    QModelIndex findPlace(const Place& before) const;
    void settlePlace(const Place& before, bool revealFolded, bool outer, bool filtered);
    bool modelHasRun(CheckRunRow run) const;
    void holdPlace();
    void restorePlace();
    void select(const QModelIndex& index, bool centre);
    QModelIndex landingCell(int proxyRow) const;
    std::vector<WalkCell> failedCells() const;
    void enterWalkedRun(CheckRunRow run);

    Frame m_frame;
    CheckRunRow m_shownRun;
    bool m_keepingCurrent = false; // the panels wait while the model changes under the cell
    // A cell the filters hide: the panels keep showing its run, and it is
    // current again once a filter shows it.
    Place m_lostPlace;
    Place m_heldPlace; // while the filters change
    bool m_placeHeld = false;
    bool m_heldOuter = false;
    // A cell j / k / n / p moved to: its tests select their first (last)
    // untriaged failure once shown, and take the focus back if they had it.
    struct WalkEntry {
        CheckRunRow run;
        bool forward = true;
        bool focusTests = false;
    } m_walkEntry;
};

} // namespace relayhud::ui
