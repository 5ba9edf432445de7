#include "relayhud/ui/coverage/op_dtype_heatmap.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/cell_style.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace relayhud::ui {

namespace {

constexpr int kMinCellWidth = 44;
constexpr int kMaxCellWidth = 96;
constexpr int kCellHeight = 18;
constexpr int kPad = 6;
const QString kNoDtype = QStringLiteral("(none)");

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QStringList toList(const std::vector<std::string>& names)
{
    QStringList out;
    for (const std::string& name : names)
        out << toQString(name);
    return out;
}

} // namespace

OpDtypeHeatmap::OpDtypeHeatmap(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("opDtypeHeatmap"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void OpDtypeHeatmap::setCoverage(const verdict::OpDtypeCoverage& coverage)
{
    m_ops.clear();
    m_dtypes.clear();
    m_cells.clear();
    for (const verdict::NamedTally& op : coverage.ops)
        m_ops << toQString(op.name);
    for (const std::string& op : coverage.opsNeverRan)
        if (!m_ops.contains(toQString(op)))
            m_ops << toQString(op);
    for (const verdict::NamedTally& dtype : coverage.dtypes)
        m_dtypes << toQString(dtype.name);
    for (const std::string& dtype : coverage.dtypesNeverRan)
        if (!m_dtypes.contains(toQString(dtype)))
            m_dtypes << toQString(dtype);
    const bool anyWithoutDtype = std::any_of(coverage.cells.begin(), coverage.cells.end(),
                                             [](const auto& c) { return c.dtype.empty(); });
    if (anyWithoutDtype)
        m_dtypes << kNoDtype;
    for (const verdict::OpDtypeCell& cell : coverage.cells) {
        const int row = static_cast<int>(m_ops.indexOf(toQString(cell.op)));
        const int column = static_cast<int>(
            m_dtypes.indexOf(cell.dtype.empty() ? kNoDtype : toQString(cell.dtype)));
        if (row >= 0 && column >= 0)
            m_cells[{row, column}] = cell.tally;
    }
    m_unsupportedOps = toList(coverage.opsNotSupported);
    m_neverRanOps = toList(coverage.opsNeverRan);
    m_unsupportedDtypes = toList(coverage.dtypesNotSupported);
    m_neverRanDtypes = toList(coverage.dtypesNeverRan);
    relayout();
}

void OpDtypeHeatmap::relayout()
{
    const QFontMetrics metrics(font());
    m_labelWidth = 0;
    for (const QString& op : m_ops)
        m_labelWidth = std::max(m_labelWidth, metrics.horizontalAdvance(op));
    m_labelWidth = std::min(m_labelWidth + 2 * kPad, 220);
    // Columns as wide as the longest dtype ("bfloat16"), so none is elided.
    m_cellWidth = kMinCellWidth;
    for (const QString& dtype : m_dtypes)
        m_cellWidth = std::max(m_cellWidth, metrics.horizontalAdvance(dtype) + kPad);
    m_cellWidth = std::min(m_cellWidth, kMaxCellWidth);
    m_headerHeight = metrics.height() + kPad;
    updateGeometry();
    update();
}

QSize OpDtypeHeatmap::sizeHint() const
{
    if (m_ops.isEmpty())
        return {0, 0};
    return {m_labelWidth + static_cast<int>(m_dtypes.size()) * m_cellWidth + 1,
            m_headerHeight + static_cast<int>(m_ops.size()) * kCellHeight + 1};
}

QSize OpDtypeHeatmap::minimumSizeHint() const { return sizeHint(); }

QRect OpDtypeHeatmap::cellRect(int row, int column) const
{
    return {m_labelWidth + column * m_cellWidth, m_headerHeight + row * kCellHeight, m_cellWidth,
            kCellHeight};
}

std::pair<int, int> OpDtypeHeatmap::cellAt(const QPoint& pos) const
{
    if (pos.x() < m_labelWidth || pos.y() < m_headerHeight)
        return {-1, -1};
    const int row = (pos.y() - m_headerHeight) / kCellHeight;
    const int column = (pos.x() - m_labelWidth) / m_cellWidth;
    if (row >= m_ops.size() || column >= m_dtypes.size())
        return {-1, -1};
    return {row, column};
}

QString OpDtypeHeatmap::cellText(int row, int column) const
{
    if (row < 0 || column < 0 || row >= m_ops.size() || column >= m_dtypes.size())
        return {};
    QString text = m_ops[row] % u" × " % m_dtypes[column] % u": ";
    auto it = m_cells.find({row, column});
    if (it == m_cells.end() || it->second.ran == 0)
        text += tr("no case ran");
    else
        text += tr("%1 ran, %2 passed, %3 failed")
                    .arg(it->second.ran)
                    .arg(it->second.passed)
                    .arg(it->second.failed);
    if (m_neverRanOps.contains(m_ops[row]))
        text += u'\n' % tr("%1 is supported but no case of it ran").arg(m_ops[row]);
    if (m_unsupportedOps.contains(m_ops[row]))
        text += u'\n' % tr("%1 is not in supported_ops").arg(m_ops[row]);
    if (m_neverRanDtypes.contains(m_dtypes[column]))
        text += u'\n' % tr("%1 is supported but no case of it ran").arg(m_dtypes[column]);
    if (m_unsupportedDtypes.contains(m_dtypes[column]))
        text += u'\n' % tr("%1 is not in supported_dtypes").arg(m_dtypes[column]);
    return text;
}

QString OpDtypeHeatmap::cellToolTip(int row, int column) const
{
    const QString text = cellText(row, column);
    return text.isEmpty() ? QString() : plainToolTip(text);
}

bool OpDtypeHeatmap::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const auto [row, column] = cellAt(help->pos());
        const QString text = cellToolTip(row, column);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this, cellRect(row, column));
        return true;
    }
    return QWidget::event(e);
}

void OpDtypeHeatmap::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::FontChange)
        relayout();
    QWidget::changeEvent(e);
}

void OpDtypeHeatmap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    const QColor good = cellColors(CellState::Success, pal).fill;
    const QColor bad = cellColors(CellState::Failure, pal).fill;
    const QColor text = pal.color(QPalette::Text);
    const QColor dim = pal.color(QPalette::PlaceholderText);
    const QColor grid = pal.color(QPalette::Mid);
    const QFontMetrics metrics(font());

    for (int c = 0; c < m_dtypes.size(); ++c) {
        QFont f = font();
        f.setStrikeOut(m_neverRanDtypes.contains(m_dtypes[c]));
        f.setItalic(m_unsupportedDtypes.contains(m_dtypes[c]));
        p.setFont(f);
        p.setPen(m_neverRanDtypes.contains(m_dtypes[c]) ? dim : text);
        const QRect header(m_labelWidth + c * m_cellWidth, 0, m_cellWidth, m_headerHeight);
        p.drawText(header, Qt::AlignCenter,
                   metrics.elidedText(m_dtypes[c], Qt::ElideRight, m_cellWidth - 2));
    }
    for (int r = 0; r < m_ops.size(); ++r) {
        QFont f = font();
        f.setStrikeOut(m_neverRanOps.contains(m_ops[r]));
        f.setItalic(m_unsupportedOps.contains(m_ops[r]));
        p.setFont(f);
        p.setPen(m_neverRanOps.contains(m_ops[r]) ? dim : text);
        const QRect label(0, m_headerHeight + r * kCellHeight, m_labelWidth - kPad, kCellHeight);
        p.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
                   metrics.elidedText(m_ops[r], Qt::ElideMiddle, label.width()));
        for (int c = 0; c < m_dtypes.size(); ++c) {
            const QRect cell = cellRect(r, c).adjusted(1, 1, -1, -1);
            auto it = m_cells.find({r, c});
            if (it == m_cells.end() || it->second.ran == 0) {
                p.setPen(QPen(grid, 1, Qt::DotLine));
                p.setBrush(Qt::NoBrush);
                p.drawRect(cell.adjusted(0, 0, -1, -1));
                continue;
            }
            const verdict::OutcomeTally& t = it->second;
            const double share = static_cast<double>(t.passed) / static_cast<double>(t.ran);
            p.setPen(Qt::NoPen);
            p.setBrush(mix(bad, good, share));
            p.drawRect(cell);
            p.setFont(font());
            p.setPen(cellColors(share >= 0.5 ? CellState::Success : CellState::Failure, pal).glyph);
            p.drawText(cell, Qt::AlignCenter,
                       t.failed > 0 ? QStringLiteral("%1/%2").arg(t.passed).arg(t.ran)
                                    : QString::number(t.ran));
        }
    }
}

} // namespace relayhud::ui
