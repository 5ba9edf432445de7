#include "relayhud/ui/logs/log_overview_bar.h"

#include "relayhud/ui/logs/ansi_palette.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace relayhud::ui {

namespace {

constexpr int kWidth = 12;
constexpr int kTickHeight = 2; // a lone match must stay visible

} // namespace

LogOverviewBar::LogOverviewBar(Source source, QWidget* parent)
    : QWidget(parent), m_source(std::move(source))
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Search matches (yellow) and failures (red) in the whole log; click to jump"));
}

QSize LogOverviewBar::sizeHint() const { return {kWidth, 100}; }

void LogOverviewBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QColor base = palette().color(QPalette::Base);
    const QColor text = palette().color(QPalette::Text);
    const bool dark = base.lightness() < 128;
    p.fillRect(rect(), mixColors(base, text, dark ? 0.05 : 0.04));
    p.fillRect(0, 0, 1, height(), mixColors(base, text, 0.12));
    const OverviewMarks marks = m_source(height());
    // The part on screen, as a scroll bar's handle would show it.
    const int top = static_cast<int>(std::floor(marks.visibleTop * height()));
    const int bottom = static_cast<int>(std::ceil(marks.visibleBottom * height()));
    p.fillRect(1, top, width() - 1, std::max(2, bottom - top),
               mixColors(base, text, dark ? 0.14 : 0.1));
    const QColor match = dark ? QColor(0xd2, 0x99, 0x22) : QColor(0xe3, 0xa0, 0x08);
    const QColor landmark = dark ? QColor(0xf8, 0x51, 0x49) : QColor(0xcf, 0x22, 0x2e);
    const int half = (width() - 1) / 2;
    for (std::size_t y = 0; y < marks.rows.size(); ++y) {
        const std::uint8_t m = marks.rows[y];
        const int row = static_cast<int>(y);
        if (m & Match)
            p.fillRect(1 + half, row, width() - 1 - half, kTickHeight, match);
        if (m & Landmark)
            p.fillRect(1, row, half, kTickHeight, landmark);
    }
}

void LogOverviewBar::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        jumpTo(static_cast<int>(event->position().y()));
}

void LogOverviewBar::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        jumpTo(static_cast<int>(event->position().y()));
}

void LogOverviewBar::jumpTo(int y)
{
    if (height() > 0)
        Q_EMIT jumpRequested(std::clamp(y, 0, height()) / static_cast<double>(height()));
}

} // namespace relayhud::ui
