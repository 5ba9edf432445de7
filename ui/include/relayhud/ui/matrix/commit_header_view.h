#pragma once
// The matrix's row header: the commit behind each row (short SHA, PR,
// branch, event type, time) in aligned fields. Being a header, it stays in
// place while the jobs scroll sideways.
#include <QHeaderView>

#include <array>

namespace relayhud::ui {

class CommitHeaderView : public QHeaderView {
    Q_OBJECT
public:
    enum Field { ShaField, PrField, BranchField, EventField, TimeField, FieldCount };

    explicit CommitHeaderView(QWidget* parent = nullptr);

    QSize sizeHint() const override;
    // Where each field sits inside a row of this header (x offsets from 0).
    std::array<QRect, FieldCount> fieldRects(const QRect& row) const;
    static QString fieldTitle(Field field);

protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override;
    void changeEvent(QEvent* event) override;

private:
    void computeWidths();
    void paintField(QPainter& painter, const QRect& rect, Field field, int logicalIndex) const;
    QColor rowBackground(int logicalIndex) const;

    std::array<int, FieldCount> m_widths{};
};

} // namespace relayhud::ui
