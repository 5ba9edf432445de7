#pragma once
// A strip beside the log view's scroll bar that shows the whole log at once:
// ticks where search matches (yellow) and failure landmarks (red) are, and
// the part on screen. A click jumps there. It asks the view what lies under
// each pixel row, so it paints in O(height · log n) whatever the log's size.
#include <QWidget>

#include <cstdint>
#include <functional>
#include <vector>

namespace relayhud::ui {

struct OverviewMarks {
    // One byte per pixel row: bit 0 a match, bit 1 a landmark, bit 2 an error line.
    std::vector<std::uint8_t> rows;
    double visibleTop = 0; // fractions of the whole
    double visibleBottom = 0;
};

class LogOverviewBar : public QWidget {
    Q_OBJECT
public:
    enum Mark : std::uint8_t { Match = 1, Landmark = 2 };

    using Source = std::function<OverviewMarks(int pixelRows)>;
    explicit LogOverviewBar(Source source, QWidget* parent = nullptr);

    QSize sizeHint() const override;

Q_SIGNALS:
    // Where the user clicked or dragged, 0 (top) to 1 (bottom).
    void jumpRequested(double fraction);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void jumpTo(int y);

    Source m_source;
};

} // namespace relayhud::ui
