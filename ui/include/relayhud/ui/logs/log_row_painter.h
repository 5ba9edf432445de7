#pragma once
// Paints one row of the log view: the gutter (error/warning marker, line
// number, landmark dot, fold triangle, timestamp) and the visible columns of
// the line's text, with ANSI styles, highlights and selection. It draws only
// the columns on screen, so a 64 KiB line costs what a short one does.
#include "relayhud/ui/logs/ansi_palette.h"
#include "relayhud/ui/logs/display_line.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPointF>
#include <QRawFont>
#include <QRect>

#include <array>
#include <utility>
#include <vector>

class QPainter;
class QPalette;

namespace relayhud::ui {

class LineHighlighter;

enum class FoldMark : std::uint8_t { None, Open, Closed, Inside, End };

struct RowState {
    int firstColumn = 0;    // the first column drawn at the text's left edge
    int columnCount = 0;    // columns to draw
    bool showNumber = true; // false on a wrapped line's continuation rows
    bool current = false;
    bool landmark = false;
    bool currentMatch = false;
    bool wholeSelected = false;
    int selectionStart = -1; // columns; -1: no partial selection
    int selectionEnd = -1;
    FoldMark fold = FoldMark::None;
    std::uint64_t foldedLines = 0; // a folded group's hidden lines, told after its title
};

class LogRowPainter {
public:
    LogRowPainter();

    void setFont(const QFont& font);
    void setPalette(const QPalette& palette);
    // The gutter's width follows the digits of the largest line number.
    void setGutter(std::uint64_t lineCount, bool timestamps);

    const AnsiPalette& ansi() const { return m_ansi; }
    int lineHeight() const { return m_lineHeight; }
    double charWidth() const { return m_charWidth; }
    int textX() const { return m_textX; }
    int foldX() const { return m_foldX; }
    int foldWidth() const { return kFoldWidth; }
    int columnsIn(int width) const;
    QColor mutedText() const { return m_muted; }
    QColor baseColor() const { return m_ansi.base(); }

    // A frame is painted in two passes so the text pass sets one clip: the
    // gutter and row tints of every row, then the text of every row.
    void beginFrame(QPainter& p, int height) const;
    void paintRowFrame(QPainter& p, int y, int width, const DisplayLine& line,
                       const RowState& state) const;
    // The text area's clip must be set (textArea()).
    void paintRowText(QPainter& p, int y, const DisplayLine& line, const RowState& state,
                      const LineHighlighter& highlighter) const;
    QRect textArea(int width, int height) const { return {m_textX, 0, width - m_textX, height}; }
    // A row whose line is not read yet (a read failed): the number only.
    void paintPendingRow(QPainter& p, int y, LineNumber line) const;
    // "--" between non-adjacent ranges of the filter.
    void paintSeparator(QPainter& p, int y, int width) const;

private:
    static constexpr int kMarkerWidth = 3;
    static constexpr int kFoldWidth = 16;

    const QFont& fontFor(const TextStyle& style) const;
    // QPainter::setFont resolves the font each call: set it only on a change.
    void useFont(QPainter& p, const QFont& font) const;
    void drawNumber(QPainter& p, int y, std::uint64_t shown, bool strong) const;
    // Text on the monospace grid, one column per character, without shaping.
    void drawGrid(QPainter& p, QPointF at, const QString& text, const QFont& font) const;
    const QRawFont& rawFontFor(const QFont& font) const;
    QColor defaultForeground(LineKind kind) const;
    QColor rowBackground(const DisplayLine& line, const RowState& state) const;
    void paintGutter(QPainter& p, int y, const DisplayLine& line, const RowState& state) const;
    void paintFoldMark(QPainter& p, int y, FoldMark mark) const;
    void paintBackgrounds(QPainter& p, int y, const DisplayLine& line, const RowState& state,
                          const LineHighlighter& highlighter) const;
    void paintText(QPainter& p, int y, const DisplayLine& line, const RowState& state) const;
    void paintCutMarker(QPainter& p, int y, const DisplayLine& line, const RowState& state) const;
    void paintFoldedBadge(QPainter& p, int y, const DisplayLine& line, const RowState& state) const;
    // A muted note in a soft box from `column` on (cut marker, folded badge).
    void paintNote(QPainter& p, int y, int column, const RowState& state, const QString& text,
                   const QColor& fill, const QColor& color) const;
    // x of `column` for a row drawn from `first`.
    double columnX(int column, int first) const;
    void fillColumns(QPainter& p, int y, int start, int end, const RowState& state,
                     const QColor& color) const;

    QFont m_font;
    mutable std::array<QFont, 16> m_variants; // by bold|italic|underline|strike
    mutable std::array<bool, 16> m_haveVariant{};
    QFont m_boldFont;
    QFont m_italicFont;
    mutable const QFont* m_painterFont = nullptr;
    mutable std::vector<std::pair<const QFont*, QRawFont>> m_rawFonts;
    mutable QList<quint32> m_glyphs; // reused by drawGrid()
    mutable QList<QPointF> m_positions;
    double m_charWidth = 8;
    int m_lineHeight = 16;
    int m_ascent = 12;
    int m_numbersX = 0;
    int m_numbersWidth = 0;
    int m_foldX = 0;
    int m_timeX = 0;
    int m_timeWidth = 0;
    int m_gutterWidth = 0;
    int m_textX = 0;

    AnsiPalette m_ansi;
    QColor m_text;
    QColor m_muted;
    QColor m_gutterBg;
    QColor m_gutterLine;
    QColor m_currentBg;
    QColor m_selectionBg;
    QColor m_errorBg;
    QColor m_warningBg;
    QColor m_searchBg;
    QColor m_currentMatchBg;
};

} // namespace relayhud::ui
