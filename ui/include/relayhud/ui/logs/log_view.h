#pragma once
// The log itself: a scroll area that paints only the rows on screen, over a
// LogFile of any size. Rows map to lines through a RowMap (folded groups, or
// the "matching lines only" filter) in O(log n); lines come through a small
// cache of decoded lines, so a frame reads at most the lines it shows.
//
// Keys: arrows / Page / Home / End move the current line (Shift extends a
// line selection), Left/Right scroll (or fold/unfold on a group header),
// Space toggles the group, Ctrl+C copies, Ctrl+A selects all, Ctrl+G goes
// to a line, n / p and F8 / Shift+F8 step through failure landmarks.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_structure.h"
#include "relayhud/ui/logs/filter_map.h"
#include "relayhud/ui/logs/fold_map.h"
#include "relayhud/ui/logs/line_highlighter.h"
#include "relayhud/ui/logs/log_line_cache.h"
#include "relayhud/ui/logs/log_link.h"
#include "relayhud/ui/logs/log_row_painter.h"
#include "relayhud/ui/logs/log_selection.h"
#endif

#include <QAbstractScrollArea>

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace relayhud::ui {

class LineJumpEdit;
class LogOverviewBar;
struct OverviewMarks;

class LogView : public QAbstractScrollArea {
    Q_OBJECT
public:
    // Copying more than this asks the user to select less (a select-all of
    // a gigabyte would freeze the clipboard and every app reading it).
    static constexpr std::uint64_t kDefaultCopyCap = 64ull << 20;

    explicit LogView(QWidget* parent = nullptr);
    ~LogView() override;

    // The log shown; nullptr for none. Drops folds, selection and matches.
    void setLogFile(std::shared_ptr<const LogFile> file);
    const std::shared_ptr<const LogFile>& logFile() const { return m_file; }
    // Call when the log's line count changed (indexing, tail mode); keeps the
    // view at the bottom when it was there and following is on.
    void updateLineCount();
    // The log was truncated or replaced: forget every line read.
    void resetContent();
    // The text shown when there are no rows ("This log is empty", "Indexing…").
    void setPlaceholderText(const QString& text);
    QString placeholderText() const { return m_placeholder; }

    // Structure from LogStructure, on the GUI thread.
    void setGroups(std::vector<LogGroup> groups);
    void addLandmarks(std::span<const Landmark> landmarks);
    void clearLandmarks();

    // Search: matches stream in (increasing line order) and are highlighted
    // on screen with `query`; the overview bar shows where they are.
    void setSearch(std::optional<SearchQuery> query);
    void addMatches(std::span<const LineNumber> matches);
    const std::vector<LineNumber>& matches() const { return m_matches; }
    void setCurrentMatch(std::optional<LineNumber> line);
    // Several rules at once, each with its colour; an error leaves the old ones.
    Result<void> setHighlightRules(std::vector<LogHighlight> rules);
    // Shows only matching lines and `context` lines around each (grep -C).
    void setFilter(bool on, int context);
    bool isFiltered() const { return m_filter != nullptr; }

    void goToLine(LineNumber line, bool select);
    // Selects lines first..last and brings them on screen.
    void showLines(LineNumber first, LineNumber last);
    bool stepLandmark(bool forward);
    LineNumber currentLine() const { return m_current; }
    const LogSelection& selection() const { return m_selection; }
    void selectAll();
    // Ctrl+C: the selected text on the clipboard (read on a worker); emits
    // copied() or notice() with why not.
    void copySelection();
    // A link to the selected lines (or the current line), on the clipboard
    // as "relayhud://log?path=…&lines=A-B" (Url) or "PATH:A-B" (Plain).
    enum class LinkForm { Url, Plain };
    void copyLink(LinkForm form);
    std::optional<LogLink> linkToSelection() const;
    void openLineJump();

    void setWrap(bool on);
    bool wrap() const { return m_wrap; }
    void setTimestampsShown(bool on);
    bool timestampsShown() const { return m_timestamps; }
    void setLogFont(const QFont& font);
    void setFollowing(bool on) { m_following = on; }
    bool isAtBottom() const;
    void scrollToBottom();
    void setCopyCap(std::uint64_t bytes) { m_copyCap = bytes; }

    bool isFolded(LineNumber groupStart) const { return m_folds.isFolded(groupStart); }
    void setFolded(LineNumber groupStart, bool folded);
    void setAllFolded(bool folded);

    // Rows as laid out now (tests, the bench).
    std::uint64_t rowCount() const;
    ViewRow rowAt(std::uint64_t row) const;
    std::uint64_t topRow() const;
    int pageRows() const;
    // Decoded lines the cache holds, and how often it read the file.
    const LogLineCache& lineCache() const { return m_cache; }
    const AnsiPalette& ansiPalette() const { return m_painter.ansi(); }
    const LogRowPainter& rowPainter() const { return m_painter; }
    std::uint64_t framesPainted() const { return m_frames; }
    OverviewMarks overviewMarks(int pixelRows) const;

Q_SIGNALS:
    void currentLineChanged(relayhud::LineNumber line);
    void selectionChanged();
    void copied(qint64 characters);
    // Something the user should read (a copy refused, a read error).
    void notice(const QString& message);
    // Painted a frame with `rows` rows of text (the bench waits on it).
    void framePainted(int rows);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    struct VisualRow {
        std::uint64_t row = 0;
        ViewRow view;
        int subRow = 0; // a wrapped line's n-th screen row
        int y = 0;
        DisplayLine* line = nullptr; // nullptr for a separator or a failed read
    };
    // log_view_layout.cpp
    const RowMap& rows() const;
    std::vector<VisualRow> layoutRows();
    int wrapRowsOf(const DisplayLine& line) const;
    int columnsPerRow() const;
    void updateScrollBars();
    void updateGeometryOfParts();
    void updateGutter();
    std::uint64_t bottomTopRow();
    void scrollToRow(std::uint64_t row, bool center);
    void ensureLineVisible(LineNumber line, bool center);
    // Where the current line (else the top line) sits on screen, to keep it
    // there when folding or filtering changes the rows.
    struct ScreenAnchor {
        LineNumber line;
        std::int64_t offset = 0;
    };
    ScreenAnchor screenAnchor() const;
    void restoreAnchor(const ScreenAnchor& anchor);
    // log_view_paint.cpp
    RowState rowState(const VisualRow& r) const;
    FoldMark foldMarkOf(LineNumber line) const;
    void paintPlaceholder(QPainter& p);
    // log_view_input.cpp
    std::optional<TextPosition> positionAt(const QPoint& pos, bool* inGutter = nullptr);
    bool handleFoldClick(const QPoint& pos);
    void moveCurrent(std::int64_t delta, bool extend);
    void setCurrent(LineNumber line, bool extend);
    bool handleFoldKey(int key);
    // log_view.cpp
    void toggleFold(LineNumber groupStart);
    std::uint64_t lineCount() const;

    std::shared_ptr<const LogFile> m_file;
    LogLineCache m_cache;
    LogRowPainter m_painter;
    LineHighlighter m_highlighter;
    FoldMap m_folds;
    std::unique_ptr<FilterMap> m_filter;
    LogSelection m_selection;
    std::vector<LineNumber> m_landmarks; // lines, increasing
    std::vector<LineNumber> m_matches;
    std::optional<LineNumber> m_currentMatch;
    LineNumber m_current;
    std::uint64_t m_lineCount = 0;
    QString m_placeholder;
    QString m_readError;
    bool m_wrap = false;
    bool m_timestamps = false;
    bool m_following = false;
    bool m_dragging = false;
    bool m_dragLines = false;
    std::uint64_t m_copyCap = kDefaultCopyCap;
    std::uint64_t m_frames = 0;
    std::uint64_t m_copyJob = 0;
    LogOverviewBar* m_overview = nullptr;
    LineJumpEdit* m_jump = nullptr;
};

} // namespace relayhud::ui
