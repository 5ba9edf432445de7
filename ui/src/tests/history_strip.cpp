#include "relayhud/ui/tests/history_strip.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/outcome_style.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace relayhud::ui {

namespace {

constexpr int kOutlineRoom = 2; // px right of the strip for the latest square's outline
constexpr int kHintSquares = 60;

QString tr(const char* text) { return QCoreApplication::translate("HistoryStrip", text); }

int failingStreak(const TestHistory& history)
{
    int streak = 0;
    for (auto it = history.points.rbegin(); it != history.points.rend(); ++it) {
        if (!it->outcome)
            continue; // a run without the test neither extends nor breaks a streak
        if (!isFailingOutcome(*it->outcome))
            break;
        ++streak;
    }
    return streak;
}

QString percent(double share) { return QString::number(std::lround(share * 100.0)) % u'%'; }

QString latestState(const TestHistory& history, const TestHistorySummary& summary)
{
    const TestHistoryPoint& latest = history.points.back();
    if (!summary.firstFailingSha.empty()) {
        const int streak = failingStreak(history);
        return tr("Failing since %1 (%2)")
            .arg(toQString(summary.firstFailingSha.shortSha()),
                 streak == 1 ? tr("1 run") : tr("%1 runs").arg(streak));
    }
    if (!latest.outcome)
        return tr("Not in the latest run's results");
    if (*latest.outcome == TestOutcome::Passed)
        return tr("Passing");
    return outcomeLabel(*latest.outcome).left(1).toUpper() % outcomeLabel(*latest.outcome).mid(1);
}

} // namespace

QByteArray historySquares(const TestHistory& history)
{
    QByteArray squares;
    squares.reserve(static_cast<qsizetype>(history.points.size()));
    for (const TestHistoryPoint& point : history.points)
        squares.append(static_cast<char>(point.outcome ? stripSquareOf(*point.outcome)
                                                       : StripSquare::Missing));
    return squares;
}

int stripCapacity(int width, const StripMetrics& metrics)
{
    const int step = metrics.square + metrics.gap;
    return std::max(0, (width - kOutlineRoom + metrics.gap) / step);
}

int paintHistoryStrip(QPainter& painter, const QRect& area, const QByteArray& squares,
                      const QPalette& palette, const StripMetrics& metrics)
{
    const int shown =
        std::min<int>(static_cast<int>(squares.size()), stripCapacity(area.width(), metrics));
    if (shown <= 0)
        return 0;
    const int first = static_cast<int>(squares.size()) - shown;
    const int step = metrics.square + metrics.gap;
    const int top = area.top() + (area.height() - metrics.square) / 2;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    for (int i = 0; i < shown; ++i) {
        const auto kind = static_cast<StripSquare>(squares[first + i]);
        const QRectF box(area.left() + i * step, top, metrics.square, metrics.square);
        const QColor color = stripSquareColor(kind, palette);
        if (kind == StripSquare::Missing) {
            painter.setPen(QPen(color, 1.2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(box.adjusted(0.6, 0.6, -0.6, -0.6), 1.5, 1.5);
        } else {
            painter.setPen(Qt::NoPen);
            painter.setBrush(color);
            painter.drawRoundedRect(box, 1.5, 1.5);
        }
        if (i == shown - 1) {
            painter.setPen(QPen(palette.color(QPalette::Text), 1.4));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(box.adjusted(-1.7, -1.7, 1.7, 1.7), 2.5, 2.5);
        }
    }
    painter.restore();
    return shown * step - metrics.gap + kOutlineRoom;
}

int stripSquareAt(const QRect& area, int squareCount, const StripMetrics& metrics,
                  const QPoint& pos)
{
    const int shown = std::min(squareCount, stripCapacity(area.width(), metrics));
    const int step = metrics.square + metrics.gap;
    const int top = area.top() + (area.height() - metrics.square) / 2;
    if (shown <= 0 || pos.x() < area.left() || pos.y() < top - metrics.gap
        || pos.y() > top + metrics.square + metrics.gap)
        return -1;
    const int i = (pos.x() - area.left()) / step;
    return i < shown ? squareCount - shown + i : -1;
}

QString historySummaryText(const TestHistory& history)
{
    if (history.points.empty())
        return {};
    const TestHistorySummary summary = summarizeHistory(history);
    QString text = latestState(history, summary);
    if (summary.firstFailingSha.empty()) {
        const QString runs = summary.runs == 1 ? tr("1 run") : tr("%1 runs").arg(summary.runs);
        text += u" · "
                % (summary.failures > 0 ? tr("%1 of %2 failed").arg(summary.failures).arg(runs)
                                        : tr("no failures in %1").arg(runs));
    }
    if (summary.runs > 1)
        text += u" · " % tr("flip rate %1").arg(percent(summary.flipRate));
    if (summary.newFailure)
        text += u" · " % tr("the job's run before, of any PR, passed");
    else if (summary.failedBefore)
        text += u" · " % tr("the job's run before failed too");
    return text;
}

QString historyPointText(const TestHistoryPoint& point)
{
    QString text =
        toQString(point.sha.shortSha()) % u" · " % formatShortTime(point.commitTime) % u" · "
        % (point.outcome ? outcomeLabel(*point.outcome) : tr("not in this run's results"));
    if (point.runAttempt > 1)
        text += u" · " % tr("attempt %1").arg(point.runAttempt);
    return text;
}

HistoryStripWidget::HistoryStripWidget(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
}

void HistoryStripWidget::setHistory(const TestHistory& history)
{
    m_history = history;
    m_squares = historySquares(history);
    updateGeometry();
    update();
}

void HistoryStripWidget::clear() { setHistory(TestHistory{}); }

QSize HistoryStripWidget::sizeHint() const
{
    // A long history asks for room for its newest squares only; it paints as many as fit.
    const int count = std::clamp<int>(static_cast<int>(m_squares.size()), 1, kHintSquares);
    return {count * (m_metrics.square + m_metrics.gap) + kOutlineRoom + 2, m_metrics.square + 8};
}

QSize HistoryStripWidget::minimumSizeHint() const
{
    return {4 * (m_metrics.square + m_metrics.gap), m_metrics.square + 8};
}

QRect HistoryStripWidget::stripArea() const { return rect().adjusted(2, 0, 0, 0); }

void HistoryStripWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintHistoryStrip(painter, stripArea(), m_squares, palette(), m_metrics);
}

int HistoryStripWidget::pointAt(const QPoint& pos) const
{
    return stripSquareAt(stripArea(), static_cast<int>(m_squares.size()), m_metrics, pos);
}

QString HistoryStripWidget::toolTipAt(const QPoint& pos) const
{
    const int i = pointAt(pos);
    if (i < 0)
        return {};
    const QString text = historyPointText(m_history.points[static_cast<std::size_t>(i)]);
    return i + 1 == static_cast<int>(m_squares.size()) ? text % u" · " % tr("this run") : text;
}

bool HistoryStripWidget::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), plainToolTip(text), this);
    return true;
}

} // namespace relayhud::ui
