#pragma once
// How the config editor looks: a chip per mode (colour plus the mode's name,
// so the meaning never rests on colour alone) and a unified diff coloured as
// reviewers know it (added green, removed red, hunk headers blue). Colours
// follow the palette, light or dark.
#ifndef Q_MOC_RUN
#include "relayhud/config/outcome_config.h"
#endif

#include <QColor>
#include <QStyledItemDelegate>
#include <QSyntaxHighlighter>

class QPalette;

namespace relayhud::ui {

struct ModeChipColors {
    QColor fill;
    QColor text;
};
ModeChipColors modeChipColors(config::Mode mode, const QPalette& palette);

// Paints the Mode column as a chip (ConfigTreeModel::ModeRole); other
// columns as usual.
class ModeChipDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

class DiffHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit DiffHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;
};

} // namespace relayhud::ui
