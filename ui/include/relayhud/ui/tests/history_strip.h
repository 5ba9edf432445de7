#pragma once
// A test's history as a strip of squares, oldest to newest: green passed,
// red failed (failed, error, xpass-strict), grey skipped or xfailed, hollow
// where the run has results but not this test; the latest square outlined.
// Painted by the table's delegate (small) and by HistoryStripWidget (large,
// with a tooltip per square).
#include "relayhud/model/test_results.h"

#include <QByteArray>
#include <QString>
#include <QWidget>

class QPainter;
class QPalette;

namespace relayhud::ui {

struct StripMetrics {
    int square = 8; // side of a square, px
    int gap = 2;
};

// One StripSquare per point, oldest first; empty for no history.
QByteArray historySquares(const TestHistory& history);

// How many squares fit in `width`.
int stripCapacity(int width, const StripMetrics& metrics);
// Paints the newest squares that fit, left-aligned and vertically centred in
// `area`; returns the width used.
int paintHistoryStrip(QPainter& painter, const QRect& area, const QByteArray& squares,
                      const QPalette& palette, const StripMetrics& metrics);
// The index into `squares` under `pos` for a strip painted in `area`, or -1.
int stripSquareAt(const QRect& area, int squareCount, const StripMetrics& metrics,
                  const QPoint& pos);

// "Failing since 3f2a9c1 (4 runs) · flip rate 12% · new failure";
// "Passing · 2 of 20 runs failed · flip rate 10%". Empty for no points.
QString historySummaryText(const TestHistory& history);
// "3f2a9c1 · 2026-05-04 20:48 · failed (attempt 2)" for one point.
QString historyPointText(const TestHistoryPoint& point);

class HistoryStripWidget : public QWidget {
    Q_OBJECT
public:
    explicit HistoryStripWidget(QWidget* parent = nullptr);

    void setHistory(const TestHistory& history);
    void clear();
    const TestHistory& history() const { return m_history; }
    // The tooltip for the square under `pos` (widget coordinates), "" when none.
    QString toolTipAt(const QPoint& pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect stripArea() const;
    // The index into m_history.points of the square at `pos`, or -1.
    int pointAt(const QPoint& pos) const;

    TestHistory m_history;
    QByteArray m_squares;
    StripMetrics m_metrics{12, 3};
};

} // namespace relayhud::ui
