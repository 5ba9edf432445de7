#include "relayhud/ui/tests/tests_delegate.h"

#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QApplication>
#include <QPainter>
#include <QPixmap>

namespace relayhud::ui {

namespace {

constexpr int kTile = 14;
constexpr StripMetrics kTableStrip{8, 2};
constexpr int kStripSquaresHint = 12;

using Badge = TestsModel::HistoryBadge;

QString badgeLabel(int badge)
{
    switch (static_cast<Badge>(badge)) {
    case Badge::NewFailure: return TestsDelegate::tr("new");
    case Badge::FailedBefore: return TestsDelegate::tr("before");
    case Badge::None: break;
    }
    return {};
}

QFont badgeFont(const QFont& base)
{
    QFont font = base;
    font.setPointSizeF(base.pointSizeF() * 0.85);
    font.setBold(true);
    return font;
}

void paintBadge(QPainter& painter, const QRect& box, int badge, const QStyleOptionViewItem& option)
{
    const bool isNew = static_cast<Badge>(badge) == Badge::NewFailure;
    const bool selected = option.state & QStyle::State_Selected;
    const QColor ink = selected ? option.palette.color(QPalette::HighlightedText)
                                : blend(option.palette.color(QPalette::Base),
                                        option.palette.color(QPalette::Text), 0.7f);
    const CellColors red = cellColors(CellState::Failure, option.palette);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(badgeFont(option.font));
    const qreal radius = box.height() / 2.0;
    if (isNew) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(red.fill);
        painter.drawRoundedRect(QRectF(box), radius, radius);
        painter.setPen(red.glyph);
    } else {
        painter.setPen(QPen(ink, 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
        painter.setPen(ink);
    }
    painter.drawText(box, Qt::AlignCenter, badgeLabel(badge));
    painter.restore();
}

} // namespace

TestsDelegate::TestsDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

int TestsDelegate::badgeWidth(const QStyleOptionViewItem& option, int badge)
{
    const QString label = badgeLabel(badge);
    if (label.isEmpty())
        return 0;
    return QFontMetrics(badgeFont(option.font)).horizontalAdvance(label) + 12;
}

const QIcon& TestsDelegate::tileIcon(int outcome, const QPalette& palette, qreal ratio) const
{
    const quint64 key = (quint64(palette.color(QPalette::Base).rgb()) << 16)
                        ^ (quint64(qRound(ratio * 4)) << 8) ^ quint64(outcome & 0xff);
    auto it = m_tiles.find(key);
    if (it != m_tiles.end())
        return *it;
    QPixmap pixmap(QSize(kTile, kTile) * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paintOutcomeTile(painter, QRect(0, 0, kTile, kTile), static_cast<TestOutcome>(outcome),
                     palette);
    painter.end();
    if (m_tiles.size() > 64) // palettes or screens changed; never grows without bound
        m_tiles.clear();
    return *m_tiles.insert(key, QIcon(pixmap));
}

void TestsDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.column() == TestsModel::FileColumn)
        option->textElideMode = Qt::ElideLeft; // keep the file's name, not its folders
    if (index.column() != TestsModel::OutcomeColumn)
        return;
    const QVariant outcome = index.data(TestsModel::OutcomeRole);
    if (!outcome.isValid())
        return;
    const qreal ratio = option->widget ? option->widget->devicePixelRatioF() : 1.0;
    option->icon = tileIcon(outcome.toInt(), option->palette, ratio);
    option->decorationSize = QSize(kTile, kTile);
    option->features |= QStyleOptionViewItem::HasDecoration;
}

void TestsDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const
{
    if (index.column() == TestsModel::HistoryColumn)
        paintHistory(*painter, option, index);
    else if (index.column() == TestsModel::ClassColumn)
        paintClass(*painter, option, index);
    else if (index.column() == TestsModel::TestColumn && index.data(TestsModel::GroupRole).toBool())
        paintBackground(*painter, option, index); // the view writes the group's line
    else if (index.column() == TestsModel::OutcomeColumn)
        paintOutcome(*painter, option, index);
    else
        QStyledItemDelegate::paint(painter, option, index);
}

void TestsDelegate::paintOutcome(QPainter& painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int badge = index.data(TestsModel::HistoryBadgeRole).toInt();
    const int width = badgeWidth(opt, badge);
    if (width > 0) {
        const int room = opt.rect.width() - width - kTile - 16;
        opt.text = opt.fontMetrics.elidedText(opt.text, Qt::ElideRight, std::max(0, room));
    }
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, &painter, opt.widget);
    if (width == 0)
        return;
    const int height = std::min(opt.rect.height() - 4, opt.fontMetrics.height());
    const QRect box(opt.rect.right() - width - 3, opt.rect.center().y() - height / 2 + 1, width,
                    height);
    paintBadge(painter, box, badge, opt);
}

void TestsDelegate::paintBackground(QPainter& painter, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, &painter, opt.widget);
}

void TestsDelegate::paintHistory(QPainter& painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const
{
    paintBackground(painter, option, index);
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QByteArray squares = index.data(TestsModel::HistoryStripRole).toByteArray();
    if (!squares.isEmpty())
        paintHistoryStrip(painter, opt.rect.adjusted(5, 0, -2, 0), squares, opt.palette,
                          kTableStrip);
}

void TestsDelegate::paintClass(QPainter& painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const
{
    paintBackground(painter, option, index);
    const QVariant cls = index.data(TestsModel::ClassRole);
    if (!cls.isValid())
        return;
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    painter.save();
    painter.setFont(opt.font);
    paintClassChip(painter, opt.rect.adjusted(4, 2, -2, -2),
                   static_cast<triage::FailureClass>(cls.toInt()),
                   index.data(TestsModel::ClassHumanRole).toBool(), opt.palette,
                   index.data(TestsModel::ClassProvisionalRole).toBool());
    painter.restore();
}

QSize TestsDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == TestsModel::HistoryColumn)
        size.setWidth(kStripSquaresHint * (kTableStrip.square + kTableStrip.gap) + 8);
    if (index.column() == TestsModel::OutcomeColumn) {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        size.rwidth() += badgeWidth(opt, index.data(TestsModel::HistoryBadgeRole).toInt()) + 6;
    }
    return size;
}

} // namespace relayhud::ui
