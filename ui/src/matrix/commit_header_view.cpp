#include "relayhud/ui/matrix/commit_header_view.h"

#include "relayhud/model/tested_commit.h"
#include "relayhud/model/types.h"
#include "relayhud/ui/common/elide_words.h"
#include "relayhud/ui/common/format.h"
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
    case TitleField: return QStringLiteral("title");
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
    if (m_widths[TitleField] == 0)
        m_widths[TitleField] = 24 * metrics.averageCharWidth();
    m_widths[BranchField] = std::max(metrics.horizontalAdvance(QStringLiteral("viable/strict")),
                                     metrics.horizontalAdvance(tr("not reported")));
    m_widths[EventField] = std::max({metrics.horizontalAdvance(QStringLiteral("periodic")),
                                     metrics.horizontalAdvance(tr("▾ %1 heads").arg(10)),
                                     metrics.horizontalAdvance(tr("earlier head"))});
    m_widths[TimeField] = metrics.horizontalAdvance(QStringLiteral("May 30 20:48"));
    // 2 px over the rounded advance: elision measures the unrounded width.
    for (std::size_t field = 0; field < m_widths.size(); ++field)
        if (field != TitleField)
            m_widths[field] += 2 * kFieldPadding + 2;
}

// A sixth of the view, within reason: enough words of a title to know the
// PR, while the jobs keep the most of the width.
void CommitHeaderView::fitTitleTo(int viewWidth)
{
    const int average = fontMetrics().averageCharWidth();
    const int wanted = std::clamp(viewWidth / 6, 12 * average, 48 * average) + 2 * kFieldPadding;
    if (wanted == m_widths[TitleField])
        return;
    m_widths[TitleField] = wanted;
    updateGeometry();
    viewport()->update();
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
        paintField(*painter, fieldRoom(rects, static_cast<Field>(field), logicalIndex),
                   static_cast<Field>(field), logicalIndex);
}

QRect CommitHeaderView::fieldRoom(const std::array<QRect, FieldCount>& rects, Field field,
                                  int logicalIndex) const
{
    QRect room = rects[static_cast<std::size_t>(field)];
    if (field != ShaField)
        return room;
    const QString sha =
        model()->headerData(logicalIndex, Qt::Vertical, MatrixModel::ShaRole).toString();
    if (isUpstreamCommit(sha.toStdString()))
        return room;
    for (Field next : {PrField, TitleField, BranchField}) {
        if (!fieldText(next, logicalIndex).text.isEmpty())
            break;
        room.setRight(rects[static_cast<std::size_t>(next)].right());
    }
    return room;
}

QString CommitHeaderView::shownText(int logicalIndex, Field field) const
{
    const auto rects = fieldRects(QRect(0, 0, sizeHint().width(), 20));
    const QRect room = fieldRoom(rects, field, logicalIndex);
    const FieldText value = fieldText(field, logicalIndex);
    QFont shown = value.mono ? monospaceFont(font()) : font();
    const QFontMetrics metrics(shown);
    return field == TitleField ? elideAtWord(value.text, metrics, room.width())
                               : metrics.elidedText(value.text, Qt::ElideRight, room.width());
}

void CommitHeaderView::paintField(QPainter& painter, const QRect& rect, Field field,
                                  int logicalIndex) const
{
    const FieldText value = fieldText(field, logicalIndex);
    painter.save();
    if (value.mono)
        painter.setFont(monospaceFont(font()));
    painter.setPen(value.color);
    const QFontMetrics metrics = painter.fontMetrics();
    painter.drawText(rect, static_cast<int>(value.align),
                     field == TitleField
                         ? elideAtWord(value.text, metrics, rect.width())
                         : metrics.elidedText(value.text, Qt::ElideRight, rect.width()));
    painter.restore();
}

CommitHeaderView::FieldText CommitHeaderView::fieldText(Field field, int logicalIndex) const
{
    const QAbstractItemModel* m = model();
    const auto header = [&](int role) { return m->headerData(logicalIndex, Qt::Vertical, role); };
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const int kind = rowKind(logicalIndex);
    const bool earlierHead = kind == static_cast<int>(MatrixModel::RowKind::EarlierHead);
    const QColor text = earlierHead ? muted : palette().color(QPalette::Text);
    switch (field) {
    case ShaField:
        return {header(MatrixModel::ShortShaRole).toString(), text,
                Qt::AlignLeft | Qt::AlignVCenter, true};
    case PrField: {
        const qint64 pr = header(MatrixModel::PrNumberRole).toLongLong();
        QString value = pr > 0 && !earlierHead ? u"#" % QString::number(pr) : QString();
        if (!value.isEmpty() && header(MatrixModel::FollowedRole).toBool())
            value = u"★ " % value; // followed (watch)
        return {value, palette().color(QPalette::Link), Qt::AlignRight | Qt::AlignVCenter};
    }
    case TitleField:
        return {earlierHead ? QString() : header(MatrixModel::RowTitleRole).toString(), text};
    case BranchField: return branchText(logicalIndex);
    case EventField:
        if (kind == static_cast<int>(MatrixModel::RowKind::PullRequest)) {
            // The pull-request view: its heads, which a click shows.
            const int heads = header(MatrixModel::HeadsRole).toInt();
            const bool open = header(MatrixModel::ExpandedRole).toBool();
            return {heads > 1 ? (open ? u"▾ " : u"▸ ") % tr("%1 heads").arg(heads) : tr("1 head"),
                    heads > 1 ? palette().color(QPalette::Link) : muted};
        }
        if (earlierHead)
            return {tr("earlier head"), muted};
        return {eventTypeLabel(static_cast<EventType>(header(MatrixModel::EventTypeRole).toInt())),
                muted};
    case TimeField:
        return {formatShortTime(header(MatrixModel::CommitTimeRole).toLongLong()), muted,
                Qt::AlignRight | Qt::AlignVCenter};
    case FieldCount: break;
    }
    return {};
}

// The HUD's rows carry no branch for a PR (hud-read-api.md section 4): the
// base branch a backend's log says it fetched, else "not reported".
CommitHeaderView::FieldText CommitHeaderView::branchText(int logicalIndex) const
{
    const auto header = [&](int role) {
        return model()->headerData(logicalIndex, Qt::Vertical, role);
    };
    const QColor muted = palette().color(QPalette::PlaceholderText);
    const bool earlierHead =
        rowKind(logicalIndex) == static_cast<int>(MatrixModel::RowKind::EarlierHead);
    const QString branch = shortRef(header(MatrixModel::BranchRole).toString());
    if (!branch.isEmpty())
        return {branch, earlierHead ? muted : palette().color(QPalette::Text)};
    if (earlierHead)
        return {};
    const QString tested = shortRef(header(MatrixModel::TestedRefRole).toString());
    if (!tested.isEmpty())
        return {u"→ " % tested, palette().color(QPalette::Text)};
    return {tr("not reported"), muted};
}

} // namespace relayhud::ui
