#include "relayhud/ui/matrix/commit_header_view.h"

#include "relayhud/model/types.h"
#include "relayhud/ui/format.h"
#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <numeric>

namespace relayhud::ui {

namespace {

constexpr int kFieldPadding = 6;

QFont monospaceFont(const QFont& base)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(base.pointSizeF());
    return font;
}

// "refs/heads/main" -> "main", "refs/tags/ciflow/trunk/1" -> "ciflow/trunk/1":
// the prefix takes the room the name needs (the tooltip has it all).
QString shortRef(const QString& ref)
{
    for (const QLatin1String prefix : {QLatin1String("refs/heads/"), QLatin1String("refs/tags/")})
        if (ref.startsWith(prefix))
            return ref.mid(prefix.size());
    return ref;
}

} // namespace

CommitHeaderView::CommitHeaderView(QWidget* parent) : QHeaderView(Qt::Vertical, parent)
{
    setSectionResizeMode(QHeaderView::Fixed);
    setDefaultSectionSize(20);
    setMinimumSectionSize(16);
    setSectionsClickable(false);
    setHighlightSections(false);
    setMouseTracking(true); // the hand over PR rows that expand
    computeWidths();
}

int CommitHeaderView::rowKind(int logicalIndex) const
{
    return model()
               ? model()->headerData(logicalIndex, Qt::Vertical, MatrixModel::RowKindRole).toInt()
               : 0;
}

bool CommitHeaderView::isExpandable(int logicalIndex) const
{
    return logicalIndex >= 0
           && rowKind(logicalIndex) == static_cast<int>(MatrixModel::RowKind::PullRequest)
           && model()->headerData(logicalIndex, Qt::Vertical, MatrixModel::HeadsRole).toInt() > 1;
}

void CommitHeaderView::mousePressEvent(QMouseEvent* event)
{
    const int row = logicalIndexAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && isExpandable(row)) {
        emit pullRequestToggled(row);
        event->accept();
        return;
    }
    QHeaderView::mousePressEvent(event);
}

void CommitHeaderView::mouseMoveEvent(QMouseEvent* event)
{
    if (isExpandable(logicalIndexAt(event->position().toPoint())))
        viewport()->setCursor(Qt::PointingHandCursor);
    else
        viewport()->unsetCursor();
    QHeaderView::mouseMoveEvent(event);
}

QString CommitHeaderView::fieldTitle(Field field)
{
    switch (field) {
    case ShaField: return QStringLiteral("SHA");
    case PrField: return QStringLiteral("PR");
    case BranchField: return QStringLiteral("branch");
    case EventField: return QStringLiteral("event");
    case TimeField: return QStringLiteral("time");
    case FieldCount: break;
    }
    return {};
}

void CommitHeaderView::computeWidths()
{
    const QFontMetrics metrics(font());
    const QFontMetrics mono(monospaceFont(font()));
    m_widths[ShaField] = mono.horizontalAdvance(QStringLiteral("0000000"));
    m_widths[PrField] = metrics.horizontalAdvance(QStringLiteral("#000000"));
    m_widths[BranchField] = metrics.horizontalAdvance(QStringLiteral("viable/strict"));
    m_widths[EventField] = std::max({metrics.horizontalAdvance(QStringLiteral("periodic")),
                                     metrics.horizontalAdvance(tr("▾ %1 heads").arg(10)),
                                     metrics.horizontalAdvance(tr("earlier head"))});
    m_widths[TimeField] = metrics.horizontalAdvance(QStringLiteral("May 30 20:48"));
    for (int& width : m_widths)
        width += 2 * kFieldPadding;
}

void CommitHeaderView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        computeWidths();
    QHeaderView::changeEvent(event);
}

QSize CommitHeaderView::sizeHint() const
{
    QSize hint = QHeaderView::sizeHint();
    hint.setWidth(std::accumulate(m_widths.begin(), m_widths.end(), 0) + 1);
    return hint;
}

std::array<QRect, CommitHeaderView::FieldCount> CommitHeaderView::fieldRects(const QRect& row) const
{
    std::array<QRect, FieldCount> rects;
    int x = row.left();
    for (std::size_t i = 0; i < rects.size(); ++i) {
        rects[i] =
            QRect(x + kFieldPadding, row.top(), m_widths[i] - 2 * kFieldPadding, row.height());
        x += m_widths[i];
    }
    return rects;
}

QColor CommitHeaderView::rowBackground(int logicalIndex) const
{
    const auto* view = qobject_cast<const QAbstractItemView*>(parentWidget());
    const bool current =
        view && view->currentIndex().isValid() && view->currentIndex().row() == logicalIndex;
    const int visual = visualIndex(logicalIndex);
    const QColor base = palette().color(visual % 2 ? QPalette::AlternateBase : QPalette::Base);
    return current ? blend(base, palette().color(QPalette::Highlight), 0.28f) : base;
}

void CommitHeaderView::paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const
{
    painter->fillRect(rect, rowBackground(logicalIndex));
    painter->setPen(palette().color(QPalette::Mid));
    painter->drawLine(rect.topRight(), rect.bottomRight());
    if (rowKind(logicalIndex) == static_cast<int>(MatrixModel::RowKind::EarlierHead)) {
        // A branch off the PR's row above: the heads hang from it.
        const int x = rect.left() + kFieldPadding / 2;
        painter->drawLine(x, rect.top(), x, rect.bottom());
        painter->drawLine(x, rect.center().y(), x + kFieldPadding / 2, rect.center().y());
    }
    const auto rects = fieldRects(rect);
    for (int field = 0; field < FieldCount; ++field)
        paintField(*painter, rects[static_cast<std::size_t>(field)], static_cast<Field>(field),
                   logicalIndex);
}

void CommitHeaderView::paintField(QPainter& painter, const QRect& rect, Field field,
                                  int logicalIndex) const
{
    const QAbstractItemModel* m = model();
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const int kind = rowKind(logicalIndex);
    const bool earlierHead = kind == static_cast<int>(MatrixModel::RowKind::EarlierHead);
    const QColor text = earlierHead ? muted : palette().color(QPalette::Text);
    QString value;
    QColor color = muted;
    Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter;
    painter.save();
    switch (field) {
    case ShaField:
        painter.setFont(monospaceFont(font()));
        value = m->headerData(logicalIndex, Qt::Vertical, MatrixModel::ShortShaRole).toString();
        color = text;
        break;
    case PrField: {
        const qint64 pr =
            m->headerData(logicalIndex, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
        value = pr > 0 && !earlierHead ? u"#" % QString::number(pr) : QString();
        if (pr > 0 && !earlierHead
            && m->headerData(logicalIndex, Qt::Vertical, MatrixModel::FollowedRole).toBool())
            value = u"★ " % value; // followed (watch)
        color = palette().color(QPalette::Link);
        align = Qt::AlignRight | Qt::AlignVCenter;
        break;
    }
    case BranchField:
        value =
            shortRef(m->headerData(logicalIndex, Qt::Vertical, MatrixModel::BranchRole).toString());
        color = text;
        break;
    case EventField:
        if (kind == static_cast<int>(MatrixModel::RowKind::PullRequest)) {
            // The pull-request view: its heads, which a click shows.
            const int heads =
                m->headerData(logicalIndex, Qt::Vertical, MatrixModel::HeadsRole).toInt();
            const bool open =
                m->headerData(logicalIndex, Qt::Vertical, MatrixModel::ExpandedRole).toBool();
            value = heads > 1 ? (open ? u"▾ " : u"▸ ") % tr("%1 heads").arg(heads) : tr("1 head");
            color = heads > 1 ? palette().color(QPalette::Link) : muted;
        } else if (earlierHead) {
            value = tr("earlier head");
        } else {
            value = eventTypeLabel(static_cast<EventType>(
                m->headerData(logicalIndex, Qt::Vertical, MatrixModel::EventTypeRole).toInt()));
        }
        break;
    case TimeField:
        value = formatShortTime(
            m->headerData(logicalIndex, Qt::Vertical, MatrixModel::CommitTimeRole).toLongLong());
        align = Qt::AlignRight | Qt::AlignVCenter;
        break;
    case FieldCount: break;
    }
    painter.setPen(color);
    painter.drawText(rect, static_cast<int>(align),
                     painter.fontMetrics().elidedText(value, Qt::ElideRight, rect.width()));
    painter.restore();
}

} // namespace relayhud::ui
