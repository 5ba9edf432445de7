#include "relayhud/ui/logs/landmark_delegate.h"

#include "relayhud/ui/logs/ansi_palette.h"
#include "relayhud/ui/logs/landmarks_model.h"

#include <QApplication>
#include <QPainter>

namespace relayhud::ui {

namespace {

constexpr int kLandmarkPad = 6;

QFont smallBold(const QFont& base)
{
    QFont f = base;
    f.setBold(true);
    f.setPointSizeF(base.pointSizeF() * 0.8);
    return f;
}

} // namespace

void LandmarkDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const bool selected = option.state & QStyle::State_Selected;
    const QPalette& pal = option.palette;
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    const QColor text = pal.color(selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor muted =
        mixColors(text, pal.color(selected ? QPalette::Highlight : QPalette::Base), 0.4);
    const auto kind = static_cast<LandmarkKind>(index.data(LandmarksModel::KindRole).toInt());
    QRect r = option.rect.adjusted(kLandmarkPad, 0, -kLandmarkPad, 0);

    painter->save();
    const QFont labelFont = smallBold(option.font);
    const QFontMetrics labelMetrics(labelFont);
    const QString label = index.data(LandmarksModel::KindLabelRole).toString();
    const int labelWidth = labelMetrics.horizontalAdvance(QStringLiteral("EXCEPTION"));
    painter->setFont(labelFont);
    painter->setPen(selected ? text : landmarkKindColor(kind, dark));
    painter->drawText(QRect(r.left(), r.top(), labelWidth, r.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, label);
    r.setLeft(r.left() + labelWidth + kLandmarkPad);

    const QString line = QString::number(index.data(LandmarksModel::LineRole).toULongLong() + 1);
    const QFontMetrics metrics(option.font);
    const int lineWidth = metrics.horizontalAdvance(QStringLiteral("0000000"));
    painter->setFont(option.font);
    painter->setPen(muted);
    painter->drawText(QRect(r.left(), r.top(), lineWidth, r.height()),
                      Qt::AlignRight | Qt::AlignVCenter, line);
    r.setLeft(r.left() + lineWidth + kLandmarkPad);

    painter->setPen(text);
    const QString title =
        metrics.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, r.width());
    painter->drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, title);
    painter->restore();
}

QSize LandmarkDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex&) const
{
    return {200, QFontMetrics(option.font).height() + 8};
}

} // namespace relayhud::ui
