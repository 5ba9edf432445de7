#pragma once
// Paints the tests table's pictures from the model's roles: the outcome tile
// (and the "new" / "before" history badge) in the Outcome column, the history
// strip in the History column. Owns no data.
#include <QHash>
#include <QIcon>
#include <QStyledItemDelegate>

namespace relayhud::ui {

class TestsDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit TestsDelegate(QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The badge's width for `text` in `option`'s font; 0 for no badge.
    static int badgeWidth(const QStyleOptionViewItem& option, int badge);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    void paintBackground(QPainter& painter, const QStyleOptionViewItem& option,
                         const QModelIndex& index) const;
    void paintClass(QPainter& painter, const QStyleOptionViewItem& option,
                    const QModelIndex& index) const;
    void paintHistory(QPainter& painter, const QStyleOptionViewItem& option,
                      const QModelIndex& index) const;
    void paintOutcome(QPainter& painter, const QStyleOptionViewItem& option,
                      const QModelIndex& index) const;
    const QIcon& tileIcon(int outcome, const QPalette& palette, qreal ratio) const;

    mutable QHash<quint64, QIcon> m_tiles;
};

} // namespace relayhud::ui
