#pragma once
// The matrix's row header: the commit behind each row (short SHA, PR, title,
// branch, event type, time) in aligned fields. Being a header, it stays in
// place while the jobs scroll sideways. In the pull-request view a PR's row
// says how many heads it has, and a click on it shows or hides the earlier
// ones, drawn beneath it as its branches.
#include <QHeaderView>

#include <array>

namespace relayhud::ui {

class CommitHeaderView : public QHeaderView {
    Q_OBJECT
public:
    enum Field { ShaField, PrField, TitleField, BranchField, EventField, TimeField, FieldCount };

    explicit CommitHeaderView(QWidget* parent = nullptr);

    QSize sizeHint() const override;
    // Where each field sits inside a row of this header (x offsets from 0).
    std::array<QRect, FieldCount> fieldRects(const QRect& row) const;
    static QString fieldTitle(Field field);
    // The title field takes a share of the view's width (the rest is the
    // jobs'): called as the view resizes.
    void fitTitleTo(int viewWidth);
    // A field's text as painted in `logicalIndex`'s row (elided to its room),
    // and its room: what a user reads there.
    QString shownText(int logicalIndex, Field field) const;

signals:
    // A PR row with earlier heads was clicked: show or hide them.
    void pullRequestToggled(int logicalIndex);

protected:
    void paintSection(QPainter* painter, const QRect& rect, int logicalIndex) const override;
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    bool isExpandable(int logicalIndex) const;
    int rowKind(int logicalIndex) const;
    void computeWidths();
    void paintField(QPainter& painter, const QRect& rect, Field field, int logicalIndex) const;
    // What a field holds (before eliding), its colour and alignment.
    struct FieldText {
        QString text;
        QColor color;
        Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter;
        bool mono = false;
    };
    FieldText fieldText(Field field, int logicalIndex) const;
    FieldText branchText(int logicalIndex) const;
    // A field's room: a nightly id that is no SHA also takes the empty
    // fields after it, so it is read whole.
    QRect fieldRoom(const std::array<QRect, FieldCount>& rects, Field field,
                    int logicalIndex) const;
    QColor rowBackground(int logicalIndex) const;

    std::array<int, FieldCount> m_widths{};
};

} // namespace relayhud::ui
