#include "relayhud/ui/matrix/job_header_view.h"

#include "relayhud/model/types.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/common/job_label.h"
#include "relayhud/ui/matrix/backend_groups.h"
#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/level_badge.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QAbstractItemView>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace relayhud::ui {

namespace {

// The corner above the commit fields holds their titles only (the glyph key
// is in the filter bar): the header is as tall as its longest short label.
constexpr int kMinLabelHeight = 40;
constexpr int kMaxLabelHeight = 160;
constexpr int kLabelPadding = 8;

} // namespace

JobHeaderView::JobHeaderView(QWidget* parent) : QHeaderView(Qt::Horizontal, parent)
{
    setSectionResizeMode(QHeaderView::Fixed);
    setDefaultSectionSize(24);
    setMinimumSectionSize(16);
    setSectionsClickable(false);
    setHighlightSections(false);
    setMouseTracking(true); // the hand over shard groups' labels
}

bool JobHeaderView::inShardGroup(int logicalIndex) const
{
    return logicalIndex >= 0 && model()
           && !model()
                   ->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardFamilyRole)
                   .toString()
                   .isEmpty();
}

void JobHeaderView::mousePressEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const int column = logicalIndexAt(pos);
    if (event->button() == Qt::LeftButton && pos.y() >= kBandHeight && inShardGroup(column)) {
        emit shardGroupToggled(column);
        event->accept();
        return;
    }
    QHeaderView::mousePressEvent(event);
}

void JobHeaderView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (pos.y() >= kBandHeight && inShardGroup(logicalIndexAt(pos)))
        viewport()->setCursor(Qt::PointingHandCursor);
    else
        viewport()->unsetCursor();
    QHeaderView::mouseMoveEvent(event);
}

QFont JobHeaderView::labelFont() const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    return small;
}

int JobHeaderView::labelHeight() const
{
    if (!model())
        return kMinLabelHeight;
    const QFontMetrics metrics(labelFont());
    int widest = 0;
    bool starred = false; // room above the labels for the followed star
    for (int column = 0; column < count(); ++column) {
        widest = std::max(widest, metrics.horizontalAdvance(labelText(column)));
        starred = starred
                  || (model()->headerData(column, Qt::Horizontal, MatrixModel::FollowedRole).toInt()
                      & MatrixModel::FollowedJob);
    }
    return std::clamp(widest + 2 * kLabelPadding + 2 + (starred ? 12 : 0), kMinLabelHeight,
                      kMaxLabelHeight);
}

QSize JobHeaderView::sizeHint() const
{
    QSize hint = QHeaderView::sizeHint();
    hint.setHeight(kBandHeight + labelHeight());
    return hint;
}

bool JobHeaderView::isCurrentColumn(int logicalIndex) const
{
    const auto* view = qobject_cast<const QAbstractItemView*>(parentWidget());
    return view && view->currentIndex().isValid() && view->currentIndex().column() == logicalIndex;
}

void JobHeaderView::paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const
{
    const QPalette& pal = palette();
    const QRect label = rect.adjusted(0, kBandHeight, 0, 0);
    painter->fillRect(label, pal.color(QPalette::Window));
    if (isCurrentColumn(logicalIndex)) {
        QColor marker = pal.color(QPalette::Highlight);
        marker.setAlpha(70);
        painter->fillRect(label, marker);
    }
    painter->setPen(pal.color(QPalette::Mid));
    painter->drawLine(label.topRight(), label.bottomRight());
    painter->drawLine(label.bottomLeft(), label.bottomRight());
    if (model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardExpandedRole).toBool())
        // A shown shard: a line over its group's labels, which a click folds.
        painter->fillRect(QRect(label.left(), label.top() + 1, label.width(), 2),
                          pal.color(QPalette::Link));

    const int followed =
        model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::FollowedRole).toInt();
    painter->save();
    painter->setFont(labelFont());
    const QString text = labelText(logicalIndex);
    const int room =
        label.height() - 2 * kLabelPadding - (followed & MatrixModel::FollowedJob ? 12 : 0);
    const QString elided = painter->fontMetrics().elidedText(text, Qt::ElideRight, room);
    painter->translate(label.left(), label.bottom());
    painter->rotate(-90);
    // In rotated coordinates x runs up the column and y runs right.
    const QRect textRect(kLabelPadding, 0, label.height() - 2 * kLabelPadding, label.width());
    // A folded shard group reads as a link: a click opens it.
    const bool folded =
        model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt()
        > 0;
    painter->setPen(pal.color(folded ? QPalette::Link : QPalette::WindowText));
    painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, elided);
    painter->restore();
    if (followed & MatrixModel::FollowedJob) {
        // Followed (watch): a star above the label.
        painter->setPen(pal.color(QPalette::Link));
        painter->drawText(QRect(label.left(), label.top() + 1, label.width(), 14),
                          Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("★"));
    }
}

void JobHeaderView::paintEvent(QPaintEvent* event)
{
    QHeaderView::paintEvent(event);
    QPainter painter(viewport());
    paintBands(painter);
}

void JobHeaderView::paintBands(QPainter& painter) const
{
    if (!model() || count() == 0)
        return;
    const int from = logicalIndexAt(0);
    int to = logicalIndexAt(viewport()->width() - 1);
    if (to < 0)
        to = count() - 1;
    for (const BackendGroup& group : backendGroups(*model(), std::max(0, from), to)) {
        const int left = sectionViewportPosition(group.first);
        const int right = sectionViewportPosition(group.last) + sectionSize(group.last);
        const QRect band(left, 0, right - left, kBandHeight);
        paintBand(painter, band, group.backend, group.level);
        painter.setPen(groupSeparatorColor(palette()));
        painter.drawLine(QPoint(right - 1, 0), QPoint(right - 1, height()));
    }
}

void JobHeaderView::paintBand(QPainter& painter, const QRect& band, const QString& backend,
                              int level) const
{
    painter.fillRect(band.adjusted(0, 0, -1, -1), backendBandColor(backend, palette()));
    // Keep the name readable while its group is scrolled half out of view.
    QRect visible = band.intersected(viewport()->rect()).adjusted(4, 0, -4, 0);
    const QString badge = levelLabel(static_cast<Level>(level));
    if (!badge.isEmpty() && visible.width() > levelBadgeWidth(painter.font(), badge) + 8) {
        const QRect badgeRect = paintLevelBadge(painter, visible, badge, palette());
        visible.setLeft(badgeRect.right() + 5);
    }
    if (followedBackend(band)) {
        painter.setPen(palette().color(QPalette::Link));
        painter.drawText(visible, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("★"));
        visible.setLeft(visible.left() + painter.fontMetrics().horizontalAdvance(u'★') + 3);
    }
    const QString name = bandName(painter.fontMetrics(), backend, visible.width());
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(visible, Qt::AlignLeft | Qt::AlignVCenter, name);
}

QString JobHeaderView::distinguishingName(const QString& backend)
{
    const QString repo = backend.section(u'/', -1);
    if (repo.compare(QLatin1String("pytorch"), Qt::CaseInsensitive) == 0)
        return backend.section(u'/', 0, 0);
    for (const QLatin1String prefix : {QLatin1String("pytorch-"), QLatin1String("torch-")})
        if (repo.startsWith(prefix, Qt::CaseInsensitive) && repo.size() > prefix.size())
            return repo.mid(prefix.size());
    return repo;
}

QString JobHeaderView::bandName(const QFontMetrics& metrics, const QString& backend, int width)
{
    if (metrics.horizontalAdvance(backend) <= width)
        return backend;
    // "org/repo" does not fit: the repo alone usually tells backends apart,
    // unless it is the upstream's own name.
    const QString repo = backend.section(u'/', -1);
    if (repo.compare(QLatin1String("pytorch"), Qt::CaseInsensitive) != 0
        && metrics.horizontalAdvance(repo) <= width)
        return repo;
    return metrics.elidedText(distinguishingName(backend), Qt::ElideRight, width);
}

int JobHeaderView::bandMinimumWidth(const QString& backend, int level) const
{
    const QString badge = levelLabel(static_cast<Level>(level));
    const int badgeWidth = badge.isEmpty() ? 0 : levelBadgeWidth(font(), badge) + 5;
    return 8 + badgeWidth + fontMetrics().horizontalAdvance(distinguishingName(backend)) + 2;
}

QString JobHeaderView::shownBandName(int logicalIndex) const
{
    const auto groups = backendGroups(*model(), logicalIndex, logicalIndex);
    if (groups.empty())
        return {};
    const BackendGroup& group = groups.front();
    int width = -8; // the band's margins (paintBand)
    for (int column = group.first; column <= group.last; ++column)
        width += sectionSize(column);
    const QString badge = levelLabel(static_cast<Level>(group.level));
    if (!badge.isEmpty() && width > levelBadgeWidth(font(), badge) + 8)
        width -= levelBadgeWidth(font(), badge) + 5;
    return bandName(fontMetrics(), group.backend, width);
}

bool JobHeaderView::followedBackend(const QRect& band) const
{
    const int logical = logicalIndexAt(band.left() + 1);
    return logical >= 0
           && (model()->headerData(logical, Qt::Horizontal, MatrixModel::FollowedRole).toInt()
               & MatrixModel::FollowedBackend);
}

QString JobHeaderView::labelText(int logicalIndex) const
{
    const int members =
        model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt();
    if (members > 0)
        return model()
                   ->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardGroupNameRole)
                   .toString()
               % u" ×" % QString::number(members);
    return parseJobLabel(model()->headerData(logicalIndex, Qt::Horizontal).toString()).compact;
}

QString JobHeaderView::labelToolTip(int logicalIndex) const
{
    const QString job = model()->headerData(logicalIndex, Qt::Horizontal).toString();
    const JobLabel label = parseJobLabel(job);
    QString text = job;
    const QString workflow =
        model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::WorkflowRole).toString();
    if (!workflow.isEmpty())
        text = workflow % u" / " % job;
    if (!label.runner.isEmpty())
        text += u"\n" % tr("runner: %1").arg(label.runner);
    const int members =
        model()->headerData(logicalIndex, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt();
    if (members > 0)
        return plainToolTip(
            tr("%1: %2 shards in one column, showing the worst status (failure, then "
               "cancelled, then unfinished), as the PyTorch HUD groups shards.\nClick to show "
               "them one by one.")
                .arg(workflow.isEmpty() ? label.groupName
                                        : workflow % u" / "
                                              % model()
                                                    ->headerData(logicalIndex, Qt::Horizontal,
                                                                 MatrixModel::ShardGroupNameRole)
                                                    .toString())
                .arg(members));
    if (label.shards > 1)
        text += u"\n" % tr("shard %1 of %2").arg(label.shard).arg(label.shards);
    if (inShardGroup(logicalIndex))
        text += u"\n" % tr("Click to fold the shards into one column.");
    return plainToolTip(text);
}

QString JobHeaderView::bandToolTip(int logicalIndex) const
{
    const auto groups = backendGroups(*model(), logicalIndex, logicalIndex);
    if (groups.empty())
        return {};
    const BackendGroup& group = groups.front();
    return plainToolTip(group.backend % u"  " % levelLabel(static_cast<Level>(group.level)) % u"\n"
                        % QString::number(group.last - group.first + 1) % u" job columns shown");
}

bool JobHeaderView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && model()) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int logical = logicalIndexAt(help->pos());
        if (logical >= 0) {
            QToolTip::showText(
                help->globalPos(),
                help->pos().y() < kBandHeight ? bandToolTip(logical) : labelToolTip(logical), this);
            return true;
        }
    }
    return QHeaderView::viewportEvent(event);
}

} // namespace relayhud::ui
