#include "relayhud/ui/matrix/matrix_filter_proxy.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/pull_request_rows.h"
#include "relayhud/ui/matrix/triage_walk.h"

#include <algorithm>

namespace relayhud::ui {

namespace {

bool isHex(const QString& text)
{
    return std::all_of(text.begin(), text.end(),
                       [](QChar c) { return c.isDigit() || (c >= u'a' && c <= u'f'); });
}

bool isDigits(const QString& text)
{
    return !text.isEmpty()
           && std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

} // namespace

bool isReleaseBranch(const QString& branch)
{
    return branch.startsWith(u"release/") || branch.startsWith(u"refs/heads/release/");
}

bool commitInView(int eventType, qint64 prNumber, const QString& branch, CommitView view)
{
    switch (view) {
    case CommitView::All: return true;
    case CommitView::PullRequests: return prNumber > 0; // as the HUD's PR matrix
    case CommitView::Scheduled: {
        const auto type = static_cast<EventType>(eventType);
        return type == EventType::Nightly || type == EventType::Periodic;
    }
    case CommitView::Release: return isReleaseBranch(branch);
    }
    return true;
}

int rowsInView(const MatrixSnapshot& commits, CommitView view)
{
    if (view == CommitView::PullRequests)
        return countPullRequests(commits);
    int count = 0;
    for (const UpstreamCommit& c : commits.rows)
        count +=
            commitInView(static_cast<int>(c.eventType), c.prNumber.value, toQString(c.branch), view)
                ? 1
                : 0;
    return count;
}

MatrixFilterProxy::MatrixFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

void MatrixFilterProxy::setSourceModel(QAbstractItemModel* model)
{
    for (const auto& connection : m_sourceConnections)
        disconnect(connection);
    m_sourceConnections.clear();
    QSortFilterProxyModel::setSourceModel(model);
    if (!model)
        return;
    if (auto* matrix = qobject_cast<MatrixModel*>(model))
        matrix->setPullRequestView(m_filters.view == CommitView::PullRequests);
    // Greenness of a column depends on its cells and on which rows pass, so
    // re-check columns whenever cells or rows change.
    auto& c = m_sourceConnections;
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        c.push_back(connect(model, signal, this, &MatrixFilterProxy::refilterCells));
    c.push_back(connect(model, &QAbstractItemModel::layoutChanged, this,
                        &MatrixFilterProxy::refilterCells));
    c.push_back(
        connect(model, &QAbstractItemModel::dataChanged, this, &MatrixFilterProxy::refilterCells));
    c.push_back(connect(model, &QAbstractItemModel::headerDataChanged, this,
                        [this](Qt::Orientation orientation) {
                            if (cellFilterOn())
                                invalidateFilter(); // rows and columns judge each other
                            else if (orientation == Qt::Vertical)
                                invalidateRowsFilter();
                            else
                                invalidateColumnsFilter();
                        }));
}

// Rows and columns kept for their cells are re-judged when cells change.
void MatrixFilterProxy::refilterCells()
{
    if (cellFilterOn())
        invalidateFilter();
    else if (m_filters.view != CommitView::All)
        invalidateColumnsFilter();
}

void MatrixFilterProxy::setFilters(const MatrixFilters& filters) { apply(filters); }

void MatrixFilterProxy::setBackends(const QSet<QString>& backends)
{
    MatrixFilters next = m_filters;
    next.backends = backends;
    apply(next);
}

void MatrixFilterProxy::setBranch(const QString& branch)
{
    MatrixFilters next = m_filters;
    next.branch = branch;
    apply(next);
}

void MatrixFilterProxy::setEventType(int eventType)
{
    MatrixFilters next = m_filters;
    next.eventType = eventType;
    apply(next);
}

void MatrixFilterProxy::setCommitView(CommitView view)
{
    MatrixFilters next = m_filters;
    next.view = view;
    apply(next);
}

bool MatrixFilterProxy::rowInView(int sourceRow, CommitView view) const
{
    const QAbstractItemModel* m = sourceModel();
    return view == CommitView::All
           || commitInView(
               m->headerData(sourceRow, Qt::Vertical, MatrixModel::EventTypeRole).toInt(),
               m->headerData(sourceRow, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong(),
               m->headerData(sourceRow, Qt::Vertical, MatrixModel::BranchRole).toString(), view);
}

void MatrixFilterProxy::setText(const QString& text)
{
    MatrixFilters next = m_filters;
    next.text = text;
    apply(next);
}

void MatrixFilterProxy::setHideAllGreen(bool hide)
{
    MatrixFilters next = m_filters;
    next.hideAllGreen = hide;
    if (hide)
        next.cells = CellFilter::Any;
    apply(next);
}

void MatrixFilterProxy::setCellFilter(CellFilter cells)
{
    MatrixFilters next = m_filters;
    next.cells = cells;
    if (cells != CellFilter::Any)
        next.hideAllGreen = false;
    apply(next);
}

void MatrixFilterProxy::resetFilters() { apply(MatrixFilters{}); }

void MatrixFilterProxy::apply(const MatrixFilters& next)
{
    if (next == m_filters)
        return;
    emit filtersAboutToChange();
    m_filters = next;
    m_term = parseText(next.text);
    // The pull-request view's rows are the model's own (one per PR).
    if (auto* matrix = qobject_cast<MatrixModel*>(sourceModel()))
        matrix->setPullRequestView(next.view == CommitView::PullRequests);
    invalidateFilter();
    emit filtersChanged();
}

MatrixFilterProxy::TextTerm MatrixFilterProxy::parseText(const QString& text)
{
    const QString t = text.trimmed().toLower();
    TextTerm term;
    if (t.isEmpty())
        return term;
    if (t.startsWith(u'#') && isDigits(t.mid(1))) {
        term.prPrefix = t.mid(1);
    } else if (isDigits(t)) {
        term.prPrefix = t;
        term.shaPrefix = t.size() >= 4 ? t : QString();
    } else if (t.size() >= 4 && isHex(t)) {
        term.shaPrefix = t;
    } else {
        term.jobText = t;
    }
    return term;
}

bool MatrixFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid() || !rowPassesHeader(sourceRow))
        return false;
    if (!cellFilterOn())
        return true;
    const QAbstractItemModel* m = sourceModel();
    for (int column = 0; column < m->columnCount(); ++column)
        if (cellWanted(m->index(sourceRow, column)) && columnPassesHeader(column))
            return true;
    return false;
}

bool MatrixFilterProxy::rowPassesHeader(int sourceRow) const
{
    const QAbstractItemModel* m = sourceModel();
    if (!rowInView(sourceRow, m_filters.view))
        return false;
    if (!m_filters.branch.isEmpty()
        && m->headerData(sourceRow, Qt::Vertical, MatrixModel::BranchRole).toString()
               != m_filters.branch)
        return false;
    if (m_filters.eventType >= 0
        && m->headerData(sourceRow, Qt::Vertical, MatrixModel::EventTypeRole).toInt()
               != m_filters.eventType)
        return false;
    return rowMatchesText(sourceRow);
}

bool MatrixFilterProxy::rowMatchesText(int sourceRow) const
{
    if (m_term.shaPrefix.isEmpty() && m_term.prPrefix.isEmpty())
        return true;
    const QAbstractItemModel* m = sourceModel();
    if (!m_term.shaPrefix.isEmpty()) {
        const QString sha = m->headerData(sourceRow, Qt::Vertical, MatrixModel::ShaRole).toString();
        if (sha.startsWith(m_term.shaPrefix, Qt::CaseInsensitive))
            return true;
    }
    if (!m_term.prPrefix.isEmpty()) {
        const qint64 pr =
            m->headerData(sourceRow, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
        if (pr > 0 && QString::number(pr).startsWith(m_term.prPrefix))
            return true;
    }
    return false;
}

bool MatrixFilterProxy::filterAcceptsColumn(int sourceColumn, const QModelIndex& sourceParent) const
{
    if (sourceParent.isValid() || !columnPassesHeader(sourceColumn))
        return false;
    return !cellFilterOn() || anyShownCell(sourceColumn, [this](const QModelIndex& cell) {
        return cellWanted(cell);
    });
}

bool MatrixFilterProxy::columnPassesHeader(int sourceColumn) const
{
    if (!m_filters.backends.isEmpty()) {
        const QString backend =
            sourceModel()
                ->headerData(sourceColumn, Qt::Horizontal, MatrixModel::BackendRole)
                .toString();
        if (!m_filters.backends.contains(backend))
            return false;
    }
    if (!columnMatchesText(sourceColumn))
        return false;
    return m_filters.view == CommitView::All || columnHasRun(sourceColumn);
}

bool MatrixFilterProxy::cellFilterOn() const
{
    return m_filters.hideAllGreen || m_filters.cells != CellFilter::Any;
}

bool MatrixFilterProxy::cellWanted(const QModelIndex& cell) const
{
    const auto state = static_cast<CellState>(cell.data(MatrixModel::CellStateRole).toInt());
    switch (m_filters.cells) {
    case CellFilter::Any: return !m_filters.hideAllGreen || !isGreenish(state);
    case CellFilter::Failures: return failureRank(state).has_value();
    case CellFilter::Untriaged:
        return failureRank(state).has_value()
               && cell.data(MatrixModel::TriageRole).toInt()
                      == static_cast<int>(MatrixModel::TriageMark::Untriaged);
    }
    return true;
}

bool MatrixFilterProxy::columnMatchesText(int sourceColumn) const
{
    if (m_term.jobText.isEmpty())
        return true;
    const QAbstractItemModel* m = sourceModel();
    for (int role : {MatrixModel::JobRole, MatrixModel::WorkflowRole, MatrixModel::BackendRole}) {
        if (m->headerData(sourceColumn, Qt::Horizontal, role)
                .toString()
                .contains(m_term.jobText, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

bool MatrixFilterProxy::columnHasRun(int sourceColumn) const
{
    return anyShownCell(sourceColumn, [](const QModelIndex& cell) {
        return cell.data(MatrixModel::RunRowIdRole).toLongLong() != 0;
    });
}

bool MatrixFilterProxy::anyShownCell(int sourceColumn,
                                     const std::function<bool(const QModelIndex&)>& wanted) const
{
    const QAbstractItemModel* m = sourceModel();
    const int rows = m->rowCount();
    for (int row = 0; row < rows; ++row)
        if (wanted(m->index(row, sourceColumn)) && rowPassesHeader(row))
            return true;
    return false;
}

} // namespace relayhud::ui
