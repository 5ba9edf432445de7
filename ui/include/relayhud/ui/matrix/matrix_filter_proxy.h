#pragma once
// Filters over the matrix: rows by view, branch, event type and SHA/PR text;
// columns by backend and job text; both by the cells they hold (hide green,
// only failures, only untriaged failures).
#include "relayhud/model/matrix_snapshot.h"

#include <QSet>
#include <QSortFilterProxyModel>

#include <functional>
#include <vector>

namespace relayhud::ui {

// Which commits the matrix is about: all of them, pull requests (one row per
// PR; the model shows its rows: MatrixModel::setPullRequestView), the
// scheduled runs (nightly and periodic, one row per upstream SHA they ran
// on), or the commits aimed at release/* branches. All but the first also
// hide the jobs that never ran on those rows. The order is the view tabs'.
enum class CommitView { All, PullRequests, Scheduled, Release };

// "release/2.10", "refs/heads/release/2.10": a release branch.
bool isReleaseBranch(const QString& branch);

// Whether a commit belongs to a view's rows.
bool commitInView(int eventType, qint64 prNumber, const QString& branch, CommitView view);
// The rows a view of these commits has, whatever the filters say (PRs for
// the pull-request view).
int rowsInView(const MatrixSnapshot& commits, CommitView view);

// Which cells the matrix is about (issue 36): every cell, or only failed
// ones (failed, timed out, cancelled, tests failing under a reported
// success), or only failures nobody has classed yet. Rows and columns
// without such a cell are hidden.
enum class CellFilter { Any, Failures, Untriaged };

struct MatrixFilters {
    CommitView view = CommitView::All;
    QSet<QString> backends;             // empty: all
    QString branch;                     // empty: all
    int eventType = -1;                 // int(EventType); -1: all
    QString text;                       // SHA prefix, PR number ("#123" or digits) or job text
    bool hideAllGreen = false;          // rows and columns without a cell that is not green
    CellFilter cells = CellFilter::Any; // a stricter filter than hideAllGreen, never with it
    bool operator==(const MatrixFilters&) const = default;
};

class MatrixFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit MatrixFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

    const MatrixFilters& filters() const { return m_filters; }
    void setFilters(const MatrixFilters& filters);
    void setBackends(const QSet<QString>& backends);
    void setBranch(const QString& branch);
    void setEventType(int eventType);
    void setCommitView(CommitView view);
    void setText(const QString& text);
    void setHideAllGreen(bool hide);
    void setCellFilter(CellFilter cells);
    void resetFilters();

signals:
    // Around every change of the filters: the rows and columns change in between.
    void filtersAboutToChange();
    void filtersChanged();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool filterAcceptsColumn(int sourceColumn, const QModelIndex& sourceParent) const override;

private:
    // How the free text is read: as a commit selector or as job text.
    struct TextTerm {
        QString shaPrefix; // lower-case hex
        QString prPrefix;  // digits
        QString jobText;   // anything else
    };
    static TextTerm parseText(const QString& text);

    bool rowMatchesText(int sourceRow) const;
    // The filters on a row's or a column's own header, without the cell filters.
    bool rowPassesHeader(int sourceRow) const;
    bool columnPassesHeader(int sourceColumn) const;
    // Whether the cell filters want this cell to be seen (true when off).
    bool cellFilterOn() const;
    bool cellWanted(const QModelIndex& cell) const;
    bool columnMatchesText(int sourceColumn) const;
    bool columnHasRun(int sourceColumn) const;
    // Whether a cell of the column in a row its header filters keep is `wanted`.
    bool anyShownCell(int sourceColumn,
                      const std::function<bool(const QModelIndex&)>& wanted) const;
    bool rowInView(int sourceRow, CommitView view) const;
    void refilterCells();
    void apply(const MatrixFilters& next);

    MatrixFilters m_filters;
    TextTerm m_term;
    std::vector<QMetaObject::Connection> m_sourceConnections;
};

} // namespace relayhud::ui
