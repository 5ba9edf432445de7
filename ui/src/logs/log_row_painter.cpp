#include "relayhud/ui/logs/log_row_painter.h"

#include "relayhud/ui/logs/line_highlighter.h"

#include <QFontMetricsF>
#include <QGlyphRun>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <cmath>

namespace relayhud::ui {

namespace {

constexpr int kRowPad = 6;
constexpr int kTimestampColumns = 12; // "23:58:10.461"

int digits(std::uint64_t n)
{
    int d = 1;
    for (; n >= 10; n /= 10)
        ++d;
    return d;
}

} // namespace

LogRowPainter::LogRowPainter() { setGutter(0, false); }

void LogRowPainter::setFont(const QFont& font)
{
    m_font = font;
    m_haveVariant.fill(false);
    m_rawFonts.clear();
    m_boldFont = font;
    m_boldFont.setBold(true);
    m_italicFont = font;
    m_italicFont.setItalic(true);
    const QFontMetricsF metrics(font);
    m_charWidth = std::max(1.0, metrics.horizontalAdvance(u'M'));
    m_lineHeight = static_cast<int>(std::ceil(metrics.height())) + 3;
    m_ascent = static_cast<int>(std::ceil(metrics.ascent())) + 1;
}

void LogRowPainter::setPalette(const QPalette& palette)
{
    m_ansi = AnsiPalette::forPalette(palette);
    const QColor base = m_ansi.base();
    m_text = m_ansi.text();
    const bool dark = m_ansi.dark();
    m_muted = mixColors(m_text, base, dark ? 0.45 : 0.5);
    m_gutterBg = mixColors(base, m_text, dark ? 0.035 : 0.03);
    m_gutterLine = mixColors(base, m_text, dark ? 0.14 : 0.12);
    m_currentBg = mixColors(base, m_text, dark ? 0.07 : 0.05);
    m_selectionBg = palette.color(QPalette::Highlight);
    m_selectionBg.setAlpha(dark ? 120 : 80);
    m_errorBg = mixColors(base, m_ansi.baseColor(1), dark ? 0.16 : 0.08);
    m_warningBg = mixColors(base, m_ansi.baseColor(3), dark ? 0.15 : 0.09);
    m_searchBg = dark ? QColor(0x7a, 0x5c, 0x00) : QColor(0xff, 0xe5, 0x7f);
    m_currentMatchBg = dark ? QColor(0xbb, 0x6c, 0x00) : QColor(0xff, 0xb2, 0x3d);
}

void LogRowPainter::setGutter(std::uint64_t lineCount, bool timestamps)
{
    m_numbersX = kMarkerWidth + kRowPad;
    m_numbersWidth = static_cast<int>(std::ceil(std::max(4, digits(lineCount)) * m_charWidth));
    m_foldX = m_numbersX + m_numbersWidth + 4;
    m_gutterWidth = m_foldX + kFoldWidth;
    m_timeX = m_gutterWidth + kRowPad;
    m_timeWidth = timestamps ? static_cast<int>(std::ceil(kTimestampColumns * m_charWidth)) : 0;
    m_textX = timestamps ? m_timeX + m_timeWidth + 2 * kRowPad : m_gutterWidth + kRowPad;
}

int LogRowPainter::columnsIn(int width) const
{
    return std::max(1, static_cast<int>((width - m_textX) / m_charWidth));
}

double LogRowPainter::columnX(int column, int first) const
{
    return m_textX + (column - first) * m_charWidth;
}

const QFont& LogRowPainter::fontFor(const TextStyle& style) const
{
    const std::size_t key = (style.bold ? 1u : 0u) | (style.italic ? 2u : 0u)
                            | (style.underline ? 4u : 0u) | (style.strike ? 8u : 0u);
    if (key == 0)
        return m_font;
    if (!m_haveVariant[key]) {
        QFont f = m_font;
        f.setBold(style.bold);
        f.setItalic(style.italic);
        f.setUnderline(style.underline);
        f.setStrikeOut(style.strike);
        m_variants[key] = f;
        m_haveVariant[key] = true;
    }
    return m_variants[key];
}

QColor LogRowPainter::defaultForeground(LineKind kind) const
{
    switch (kind) {
    case LineKind::Error: return m_ansi.baseColor(1);
    case LineKind::Warning: return m_ansi.baseColor(3);
    case LineKind::Notice:
    case LineKind::Command: return m_ansi.baseColor(4);
    case LineKind::Debug: return m_ansi.baseColor(5);
    default: return m_text;
    }
}

QColor LogRowPainter::rowBackground(const DisplayLine& line, const RowState& state) const
{
    if (line.kind == LineKind::Error)
        return m_errorBg;
    if (line.kind == LineKind::Warning)
        return m_warningBg;
    return state.current ? m_currentBg : QColor();
}

void LogRowPainter::beginFrame(QPainter& p, int height) const
{
    m_painterFont = nullptr;
    p.fillRect(0, 0, m_gutterWidth, height, m_gutterBg);
    p.fillRect(m_gutterWidth - 1, 0, 1, height, m_gutterLine);
}

void LogRowPainter::useFont(QPainter& p, const QFont& font) const
{
    if (m_painterFont == &font)
        return;
    p.setFont(font);
    m_painterFont = &font;
}

const QRawFont& LogRowPainter::rawFontFor(const QFont& font) const
{
    for (const auto& [f, raw] : m_rawFonts)
        if (f == &font)
            return raw;
    m_rawFonts.emplace_back(&font, QRawFont::fromFont(font));
    return m_rawFonts.back().second;
}

// Shaping every run of every row is most of a frame, and logs need no
// ligatures: glyphs come straight from the font's character map and sit one
// column apart, which also keeps every run on the grid. A character the font
// lacks (or a surrogate pair) goes to drawText(), which finds a fallback font.
void LogRowPainter::drawGrid(QPainter& p, QPointF at, const QString& text, const QFont& font) const
{
    const QRawFont& raw = rawFontFor(font);
    if (raw.isValid()) {
        m_glyphs = raw.glyphIndexesForString(text);
        if (m_glyphs.size() == text.size() && !m_glyphs.contains(0u)) {
            m_positions.resize(m_glyphs.size());
            for (qsizetype i = 0; i < m_positions.size(); ++i)
                m_positions[i] = QPointF(static_cast<double>(i) * m_charWidth, 0);
            QGlyphRun run;
            run.setRawFont(raw);
            run.setGlyphIndexes(m_glyphs);
            run.setPositions(m_positions);
            p.drawGlyphRun(at, run);
            // Drawn by hand: Qt 6.4 puts a glyph run's decorations rows away.
            if (font.underline() || font.strikeOut()) {
                const QFontMetricsF metrics(font);
                const double width = static_cast<double>(text.size()) * m_charWidth;
                const double thick = std::max(1.0, metrics.lineWidth());
                const QColor color = p.pen().color();
                if (font.underline())
                    p.fillRect(QRectF(at.x(), at.y() + metrics.underlinePos(), width, thick),
                               color);
                if (font.strikeOut())
                    p.fillRect(QRectF(at.x(), at.y() - metrics.strikeOutPos(), width, thick),
                               color);
            }
            return;
        }
    }
    useFont(p, font);
    p.drawText(at, text);
}

void LogRowPainter::drawNumber(QPainter& p, int y, std::uint64_t shown, bool strong) const
{
    // Right-aligned by the font's fixed advance: no text layout per row.
    const QString text = QString::number(shown);
    const double x = m_numbersX + m_numbersWidth - static_cast<double>(text.size()) * m_charWidth;
    drawGrid(p, QPointF(x, y + m_ascent), text, strong ? m_boldFont : m_font);
}

void LogRowPainter::paintRowFrame(QPainter& p, int y, int width, const DisplayLine& line,
                                  const RowState& state) const
{
    const QColor rowBg = rowBackground(line, state);
    if (rowBg.isValid())
        p.fillRect(m_gutterWidth, y, width - m_gutterWidth, m_lineHeight, rowBg);
    if (state.wholeSelected)
        p.fillRect(m_gutterWidth, y, width - m_gutterWidth, m_lineHeight, m_selectionBg);
    paintGutter(p, y, line, state);
    if (m_timeWidth > 0 && state.showNumber && !line.timestamp.isEmpty()) {
        p.setPen(m_muted);
        drawGrid(p, QPointF(m_timeX, y + m_ascent), line.timestamp, m_font);
    }
}

void LogRowPainter::paintRowText(QPainter& p, int y, const DisplayLine& line, const RowState& state,
                                 const LineHighlighter& highlighter) const
{
    paintBackgrounds(p, y, line, state, highlighter);
    paintText(p, y, line, state);
    paintCutMarker(p, y, line, state);
    paintFoldedBadge(p, y, line, state);
}

void LogRowPainter::paintPendingRow(QPainter& p, int y, LineNumber line) const
{
    p.setPen(m_muted);
    drawNumber(p, y, line.shown(), false);
}

void LogRowPainter::paintSeparator(QPainter& p, int y, int width) const
{
    const int mid = y + m_lineHeight / 2;
    p.setPen(QPen(m_gutterLine, 1, Qt::DashLine));
    p.drawLine(m_gutterWidth, mid, width, mid);
    p.setPen(m_muted);
    p.fillRect(QRectF(m_textX - 2, y, 2 * m_charWidth + 4, m_lineHeight), m_ansi.base());
    drawGrid(p, QPointF(m_textX, y + m_ascent), QStringLiteral("--"), m_font);
}

void LogRowPainter::paintGutter(QPainter& p, int y, const DisplayLine& line,
                                const RowState& state) const
{
    if (line.kind == LineKind::Error || line.kind == LineKind::Warning)
        p.fillRect(0, y, kMarkerWidth, m_lineHeight,
                   m_ansi.baseColor(line.kind == LineKind::Error ? 1 : 3));
    else if (state.currentMatch)
        p.fillRect(0, y, kMarkerWidth, m_lineHeight, m_currentMatchBg);
    paintFoldMark(p, y, state.fold);
    if (!state.showNumber)
        return;
    if (state.landmark) {
        const double r = std::max(2.0, m_lineHeight / 7.0);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(m_ansi.baseColor(1));
        p.drawEllipse(QPointF(kMarkerWidth + kRowPad / 2.0 + 1, y + m_lineHeight / 2.0), r, r);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
    p.setPen(state.current || state.landmark ? m_text : m_muted);
    drawNumber(p, y, line.number.shown(), state.current);
}

void LogRowPainter::paintFoldMark(QPainter& p, int y, FoldMark mark) const
{
    const double cx = m_foldX + kFoldWidth / 2.0;
    const double cy = y + m_lineHeight / 2.0;
    if (mark == FoldMark::Inside || mark == FoldMark::End) {
        // The group's extent, as a thin guide from its triangle down.
        const int bottom = mark == FoldMark::End ? y + m_lineHeight / 2 : y + m_lineHeight;
        p.fillRect(QRectF(cx - 0.5, y, 1, bottom - y), m_gutterLine);
        if (mark == FoldMark::End)
            p.fillRect(QRectF(cx - 0.5, bottom - 1, 4, 1), m_gutterLine);
        return;
    }
    if (mark == FoldMark::None)
        return;
    const double s = std::max(3.5, m_lineHeight / 4.0);
    QPainterPath triangle;
    if (mark == FoldMark::Closed) {
        triangle.moveTo(cx - s * 0.6, cy - s);
        triangle.lineTo(cx + s * 0.7, cy);
        triangle.lineTo(cx - s * 0.6, cy + s);
    } else {
        triangle.moveTo(cx - s, cy - s * 0.6);
        triangle.lineTo(cx + s, cy - s * 0.6);
        triangle.lineTo(cx, cy + s * 0.7);
    }
    triangle.closeSubpath();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillPath(triangle, mixColors(m_text, m_ansi.base(), 0.3));
    p.setRenderHint(QPainter::Antialiasing, false);
}

void LogRowPainter::fillColumns(QPainter& p, int y, int start, int end, const RowState& state,
                                const QColor& color) const
{
    start = std::max(start, state.firstColumn);
    end = std::min(end, state.firstColumn + state.columnCount);
    if (end <= start)
        return;
    const double x0 = columnX(start, state.firstColumn);
    p.fillRect(QRectF(x0, y, (end - start) * m_charWidth, m_lineHeight), color);
}

void LogRowPainter::paintBackgrounds(QPainter& p, int y, const DisplayLine& line,
                                     const RowState& state,
                                     const LineHighlighter& highlighter) const
{
    for (const StyledRange& s : line.styles) {
        const auto colors = m_ansi.resolve(s.style, m_text);
        if (colors.background.isValid())
            fillColumns(p, y, s.start, s.end, state, colors.background);
    }
    // Rules first, then the search on top: the search is what the user is
    // looking for right now.
    for (auto it = line.highlights.rbegin(); it != line.highlights.rend(); ++it) {
        QColor color = it->rule == LineHighlighter::kSearchRule
                           ? (state.currentMatch ? m_currentMatchBg : m_searchBg)
                           : highlighter.ruleColor(it->rule);
        if (it->rule != LineHighlighter::kSearchRule)
            color.setAlpha(m_ansi.dark() ? 150 : 110);
        fillColumns(p, y, it->start, it->end, state, color);
    }
    if (state.selectionStart >= 0)
        fillColumns(p, y, state.selectionStart, state.selectionEnd, state, m_selectionBg);
}

void LogRowPainter::paintText(QPainter& p, int y, const DisplayLine& line,
                              const RowState& state) const
{
    const int first = state.firstColumn;
    const int last = std::min(line.columns(), first + state.columnCount);
    if (last <= first)
        return;
    const QColor plain = defaultForeground(line.kind);
    const auto draw = [&](int start, int end, const QFont& font, const QColor& color) {
        start = std::max(start, first);
        end = std::min(end, last);
        if (end <= start)
            return;
        p.setPen(color);
        drawGrid(p, QPointF(columnX(start, first), y + m_ascent),
                 line.display.mid(start, end - start), font);
    };
    static const TextStyle bold = [] {
        TextStyle s;
        s.bold = true;
        return s;
    }();
    const QFont& plainFont = line.kind == LineKind::GroupStart ? fontFor(bold) : m_font;
    int at = first;
    for (const StyledRange& s : line.styles) {
        if (s.end <= first)
            continue;
        if (s.start >= last)
            break;
        draw(at, s.start, plainFont, plain);
        draw(s.start, s.end, fontFor(s.style), m_ansi.resolve(s.style, plain).foreground);
        at = s.end;
    }
    draw(at, last, plainFont, plain);
}

void LogRowPainter::paintCutMarker(QPainter& p, int y, const DisplayLine& line,
                                   const RowState& state) const
{
    if (line.truncated)
        paintNote(p, y, line.columns() + 1, state, line.cutMarker(), m_warningBg,
                  m_ansi.baseColor(3));
}

void LogRowPainter::paintFoldedBadge(QPainter& p, int y, const DisplayLine& line,
                                     const RowState& state) const
{
    if (state.foldedLines == 0)
        return;
    const QString text =
        state.foldedLines == 1
            ? QStringLiteral("⋯ 1 line")
            : u"⋯ " % QLocale().toString(static_cast<qulonglong>(state.foldedLines)) % u" lines";
    paintNote(p, y, line.paintedColumns() + 2, state, text, m_currentBg, m_muted);
}

void LogRowPainter::paintNote(QPainter& p, int y, int column, const RowState& state,
                              const QString& text, const QColor& fill, const QColor& color) const
{
    if (column >= state.firstColumn + state.columnCount)
        return;
    const double x = columnX(column, state.firstColumn);
    const QRectF box(x - 3, y + 1, static_cast<double>(text.size()) * m_charWidth + 6,
                     m_lineHeight - 2);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRoundedRect(box, 3, 3);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(color);
    drawGrid(p, QPointF(x, y + m_ascent), text, m_italicFont);
}

} // namespace relayhud::ui
