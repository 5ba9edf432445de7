#include "relayhud/ui/matrix/matrix_view.h"

#include "relayhud/ui/matrix/backend_groups.h"
#include "relayhud/ui/matrix/cell_delegate.h"
#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/job_header_view.h"
#include "relayhud/ui/matrix/matrix_corner.h"

#include <QAbstractButton>
#include <QKeyEvent>
#include <QPainter>
#include <QResizeEvent>

#include <algorithm>

namespace relayhud::ui {

MatrixView::MatrixView(QWidget* parent)
    : QTableView(parent), m_commitHeader(new CommitHeaderView(this)),
      m_jobHeader(new JobHeaderView(this))
{
    setVerticalHeader(m_commitHeader);
    setHorizontalHeader(m_jobHeader);
    setItemDelegate(new CellDelegate(this));
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setShowGrid(false);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setCornerButtonEnabled(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    setMouseTracking(true);
    connect(this, &QAbstractItemView::doubleClicked, this, &MatrixView::cellActivated);
    // The top-left corner above the commit fields carries the field titles
    // and the glyph legend.
    m_corner = findChild<QAbstractButton*>();
    if (m_corner)
        m_corner->installEventFilter(this);
}

void MatrixView::setModel(QAbstractItemModel* model)
{
    if (this->model())
        disconnect(this->model(), nullptr, this, nullptr);
    QTableView::setModel(model);
    if (!model)
        return;
    // The header is as tall as its longest label (JobHeaderView::sizeHint);
    // columns and names arrive with each merged snapshot.
    for (auto signal : {&QAbstractItemModel::columnsInserted, &QAbstractItemModel::columnsRemoved})
        connect(model, signal, this, &MatrixView::updateGeometries);
    connect(model, &QAbstractItemModel::headerDataChanged, this, &MatrixView::updateGeometries);
    connect(model, &QAbstractItemModel::modelReset, this, &MatrixView::updateGeometries);
    connect(model, &QAbstractItemModel::layoutChanged, this, &MatrixView::updateGeometries);
}

void MatrixView::keyPressEvent(QKeyEvent* event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && currentIndex().isValid()) {
        emit cellActivated(currentIndex());
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

void MatrixView::currentChanged(const QModelIndex& current, const QModelIndex& previous)
{
    QTableView::currentChanged(current, previous);
    // The headers mark the current row and column.
    m_commitHeader->viewport()->update();
    m_jobHeader->viewport()->update();
}

void MatrixView::setEmptyText(const QString& text)
{
    m_emptyText = text;
    viewport()->update();
}

void MatrixView::paintEvent(QPaintEvent* event)
{
    QTableView::paintEvent(event);
    paintGroupSeparators();
    paintEmptyText();
}

void MatrixView::paintEmptyText()
{
    if (m_emptyText.isEmpty() || (model() && model()->rowCount() > 0 && model()->columnCount() > 0))
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const QRect area = viewport()->rect().adjusted(24, 24, -24, -24);
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
}

void MatrixView::paintGroupSeparators()
{
    if (!model() || model()->columnCount() == 0)
        return;
    QPainter painter(viewport());
    painter.setPen(groupSeparatorColor(palette()));
    const int from = columnAt(0);
    const int to = columnAt(viewport()->width() - 1);
    for (const BackendGroup& group :
         backendGroups(*model(), std::max(0, from), to < 0 ? model()->columnCount() - 1 : to)) {
        const int x = columnViewportPosition(group.last) + columnWidth(group.last) - 1;
        painter.drawLine(x, 0, x, viewport()->height());
    }
}

void MatrixView::resizeEvent(QResizeEvent* event)
{
    m_commitHeader->fitTitleTo(width()); // the whole view's, whatever the header had
    QTableView::resizeEvent(event);
}

void MatrixView::updateGeometries()
{
    fitBandColumns();
    QTableView::updateGeometries();
}

void MatrixView::fitBandColumns()
{
    if (!model() || model()->columnCount() == 0)
        return;
    const int base = m_jobHeader->defaultSectionSize();
    for (const BackendGroup& group : backendGroups(*model(), 0, model()->columnCount() - 1)) {
        const int columns = group.last - group.first + 1;
        const int need = m_jobHeader->bandMinimumWidth(group.backend, group.level);
        const int width = std::max(base, (need + columns - 1) / columns);
        for (int column = group.first; column <= group.last; ++column)
            if (!m_jobHeader->isSectionHidden(column) && m_jobHeader->sectionSize(column) != width)
                m_jobHeader->resizeSection(column, width);
    }
}

bool MatrixView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_corner && event->type() == QEvent::Paint) {
        QPainter painter(m_corner);
        paintMatrixCorner(painter, m_corner->rect(), palette(), *m_commitHeader);
        return true;
    }
    return QTableView::eventFilter(watched, event);
}

} // namespace relayhud::ui
