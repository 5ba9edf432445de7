#include "relayhud/ui/config/config_style.h"

#include "relayhud/ui/config/config_tree_model.h"
#include "relayhud/ui/matrix/cell_style.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QTextDocument>

namespace relayhud::ui {

namespace {

constexpr int kChipPadding = 6; // px left and right of the chip's text

// The hue of each mode: must pass green, expected failures amber, strict
// expected failures (a pass turns the run red) orange-red, skip grey.
QColor modeHue(config::Mode mode)
{
    switch (mode) {
    case config::Mode::MandatorySuccess: return QColor(0x2e, 0x9d, 0x4f);
    case config::Mode::Xfail: return QColor(0xd8, 0xa0, 0x1a);
    case config::Mode::XfailStrict: return QColor(0xe0, 0x5a, 0x2b);
    case config::Mode::Skip: return QColor(0x8a, 0x8f, 0x98);
    }
    return {};
}

} // namespace

ModeChipColors modeChipColors(config::Mode mode, const QPalette& palette)
{
    const QColor hue = modeHue(mode);
    if (isDarkPalette(palette))
        return {blend(palette.color(QPalette::Base), hue, 0.45f), QColor(0xf2, 0xf2, 0xf2)};
    return {blend(palette.color(QPalette::Base), hue, 0.22f), hue.darker(170)};
}

void ModeChipDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const
{
    const QVariant mode = index.data(ConfigTreeModel::ModeRole);
    if (index.column() != ConfigTreeModel::ModeColumn || !mode.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    QApplication::style()->drawControl(QStyle::CE_ItemViewItem, &background, painter,
                                       option.widget);
    const QString text = index.data().toString();
    const ModeChipColors colors =
        modeChipColors(static_cast<config::Mode>(mode.toInt()), option.palette);
    painter->save();
    painter->setFont(option.font);
    const QFontMetrics metrics = painter->fontMetrics();
    const int room = option.rect.width() - 4;
    const int width = std::min(room, metrics.horizontalAdvance(text) + 2 * kChipPadding);
    const int height = std::min(option.rect.height() - 2, metrics.height() + 2);
    const QRect chip(option.rect.left() + 2, option.rect.center().y() - height / 2, width, height);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colors.fill);
    painter->drawRoundedRect(chip, height / 2.0, height / 2.0);
    painter->setPen(colors.text);
    painter->drawText(chip, Qt::AlignCenter,
                      metrics.horizontalAdvance(text) + 2 * kChipPadding <= room
                          ? text
                          : metrics.elidedText(text, Qt::ElideRight, room - 2 * kChipPadding));
    painter->restore();
}

QSize ModeChipDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == ConfigTreeModel::ModeColumn)
        size.rwidth() += 2 * kChipPadding + 4;
    // Room for the chip and the underscores of its mode name.
    size.setHeight(std::max(size.height(), QFontMetrics(option.font).height() + 8));
    return size;
}

DiffHighlighter::DiffHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void DiffHighlighter::highlightBlock(const QString& text)
{
    const QPalette palette = QApplication::palette();
    const bool dark = isDarkPalette(palette);
    QTextCharFormat format;
    if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---"))) {
        format.setFontWeight(QFont::Bold);
    } else if (text.startsWith(u'+')) {
        format.setForeground(dark ? QColor(0x8f, 0xe3, 0x9f) : QColor(0x11, 0x63, 0x29));
        format.setBackground(blend(palette.color(QPalette::Base), QColor(0x2e, 0xa0, 0x43), 0.2f));
    } else if (text.startsWith(u'-')) {
        format.setForeground(dark ? QColor(0xff, 0xa1, 0x98) : QColor(0x9a, 0x1c, 0x1c));
        format.setBackground(blend(palette.color(QPalette::Base), QColor(0xf8, 0x51, 0x49), 0.2f));
    } else if (text.startsWith(QLatin1String("@@"))) {
        format.setForeground(dark ? QColor(0x79, 0xc0, 0xff) : QColor(0x05, 0x50, 0xae));
    } else {
        return;
    }
    setFormat(0, static_cast<int>(text.size()), format);
}

} // namespace relayhud::ui
