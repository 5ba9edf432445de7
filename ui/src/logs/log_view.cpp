// LogView: what it shows (log, structure, search, filter) and where it goes.
// Layout and scrolling are in log_view_layout.cpp, painting in
// log_view_paint.cpp, mouse and keys in log_view_input.cpp.
#include "relayhud/ui/logs/log_view.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/logs/file_work_pool.h"
#include "relayhud/ui/logs/line_jump_edit.h"
#include "relayhud/ui/logs/log_copy.h"
#include "relayhud/ui/logs/log_overview_bar.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QFontDatabase>
#include <QScrollBar>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace relayhud::ui {

namespace {

struct CopyOutcome {
    QString text;
    QString error;
};

} // namespace

LogView::LogView(QWidget* parent) : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setAutoFillBackground(true);
    viewport()->setBackgroundRole(QPalette::Base);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_overview = new LogOverviewBar([this](int rows) { return overviewMarks(rows); }, this);
    connect(m_overview, &LogOverviewBar::jumpRequested, this, [this](double fraction) {
        const auto row = static_cast<std::uint64_t>(fraction * static_cast<double>(rowCount()));
        scrollToRow(row, true);
    });
    m_jump = new LineJumpEdit(this);
    connect(m_jump, &LineJumpEdit::jumpRequested, this,
            [this](LineNumber first, LineNumber last, bool range) {
                if (range)
                    showLines(first, last);
                else
                    goToLine(first, true);
            });
    connect(m_jump, &LineJumpEdit::closed, this, [this] { setFocus(Qt::OtherFocusReason); });
    setViewportMargins(0, 0, m_overview->sizeHint().width(), 0);
    m_painter.setPalette(palette());
    setLogFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_placeholder = tr("No log open. Use File › Open, or drop a log file here.");
}

LogView::~LogView() = default;

void LogView::setLogFile(std::shared_ptr<const LogFile> file)
{
    m_file = std::move(file);
    m_cache.setFile(m_file);
    m_folds.clear();
    m_landmarks.clear();
    m_matches.clear();
    m_currentMatch.reset();
    (void)m_highlighter.setSearch(std::nullopt); // dropping a search cannot fail
    if (m_filter)
        m_filter = std::make_unique<FilterMap>(m_filter->context(), 0);
    m_selection.clear();
    m_current = {};
    m_lineCount = 0;
    m_readError.clear();
    verticalScrollBar()->setValue(0);
    horizontalScrollBar()->setValue(0);
    updateLineCount();
    updateScrollBars();
    viewport()->update();
    m_overview->update();
}

std::uint64_t LogView::lineCount() const { return m_lineCount; }

void LogView::updateLineCount()
{
    const std::uint64_t lines = m_file ? m_file->lineCount() : 0;
    if (lines == m_lineCount)
        return;
    const bool stick = m_following && isAtBottom();
    m_lineCount = lines;
    m_folds.setLineCount(lines);
    if (m_filter)
        m_filter->setLineCount(lines);
    updateGutter();
    updateScrollBars();
    if (stick)
        scrollToBottom();
    viewport()->update();
    m_overview->update();
}

void LogView::resetContent()
{
    m_cache.clear();
    m_folds.clear();
    m_landmarks.clear();
    m_matches.clear();
    m_currentMatch.reset();
    if (m_filter)
        m_filter = std::make_unique<FilterMap>(m_filter->context(), 0);
    m_selection.clear();
    m_current = {};
    m_lineCount = 0;
    m_readError.clear();
    updateLineCount();
    updateScrollBars();
    viewport()->update();
}

void LogView::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    viewport()->update();
}

void LogView::setGroups(std::vector<LogGroup> groups)
{
    m_folds.setGroups(std::move(groups));
    updateScrollBars();
    viewport()->update();
}

void LogView::addLandmarks(std::span<const Landmark> landmarks)
{
    for (const Landmark& l : landmarks)
        if (m_landmarks.empty() || m_landmarks.back() < l.line)
            m_landmarks.push_back(l.line);
    viewport()->update();
    m_overview->update();
}

void LogView::clearLandmarks()
{
    m_landmarks.clear();
    m_overview->update();
}

void LogView::setSearch(std::optional<SearchQuery> query)
{
    // The controller compiled this query already; one that fails here shows
    // its matches unhighlighted rather than not at all.
    (void)m_highlighter.setSearch(std::move(query));
    m_matches.clear();
    m_currentMatch.reset();
    if (m_filter) {
        m_filter = std::make_unique<FilterMap>(m_filter->context(), m_lineCount);
        verticalScrollBar()->setValue(0);
        updateScrollBars();
    }
    viewport()->update();
    m_overview->update();
}

void LogView::addMatches(std::span<const LineNumber> matches)
{
    if (matches.empty())
        return;
    m_matches.insert(m_matches.end(), matches.begin(), matches.end());
    if (m_filter) {
        m_filter->addMatches(matches);
        updateScrollBars();
        viewport()->update();
    }
    m_overview->update();
}

void LogView::setCurrentMatch(std::optional<LineNumber> line)
{
    m_currentMatch = line;
    if (line)
        goToLine(*line, false);
    viewport()->update();
}

Result<void> LogView::setHighlightRules(std::vector<LogHighlight> rules)
{
    auto set = m_highlighter.setRules(std::move(rules));
    viewport()->update();
    return set;
}

void LogView::setFilter(bool on, int context)
{
    const ScreenAnchor anchor = screenAnchor();
    if (!on) {
        m_filter.reset();
    } else {
        m_filter = std::make_unique<FilterMap>(static_cast<std::uint64_t>(std::max(0, context)),
                                               m_lineCount);
        m_filter->addMatches(m_matches);
    }
    restoreAnchor(anchor);
}

void LogView::goToLine(LineNumber line, bool select)
{
    if (m_lineCount == 0)
        return;
    line.value = std::min(line.value, m_lineCount - 1);
    if (const LogGroup* g = m_folds.groupContaining(line); g && g->start != line)
        setFolded(g->start, false);
    if (select)
        m_selection.selectLines(line, line);
    else
        m_selection.clear();
    m_current = line;
    ensureLineVisible(line, true);
    viewport()->update();
    Q_EMIT currentLineChanged(line);
    Q_EMIT selectionChanged();
}

void LogView::showLines(LineNumber first, LineNumber last)
{
    if (m_lineCount == 0)
        return;
    first.value = std::min(first.value, m_lineCount - 1);
    last.value = std::clamp(last.value, first.value, m_lineCount - 1);
    for (const LineNumber l : {first, last})
        if (const LogGroup* g = m_folds.groupContaining(l); g && g->start != l)
            setFolded(g->start, false);
    m_selection.selectLines(first, last);
    m_current = first;
    // The range's start a little below the top, so what leads to it shows too.
    const std::uint64_t row = rows().rowOf(first);
    const auto above = static_cast<std::uint64_t>(pageRows() / 4);
    scrollToRow(row > above ? row - above : 0, false);
    viewport()->update();
    Q_EMIT currentLineChanged(first);
    Q_EMIT selectionChanged();
}

bool LogView::stepLandmark(bool forward)
{
    const auto it = forward ? std::upper_bound(m_landmarks.begin(), m_landmarks.end(), m_current)
                            : std::lower_bound(m_landmarks.begin(), m_landmarks.end(), m_current);
    if (forward ? it == m_landmarks.end() : it == m_landmarks.begin()) {
        Q_EMIT notice(m_landmarks.empty() ? tr("No failures found in this log")
                      : forward           ? tr("No more failures below")
                                          : tr("No more failures above"));
        return false;
    }
    goToLine(forward ? *it : *(it - 1), true);
    return true;
}

void LogView::selectAll()
{
    if (m_lineCount == 0)
        return;
    m_selection.selectLines(LineNumber{0}, LineNumber{m_lineCount - 1});
    viewport()->update();
    Q_EMIT selectionChanged();
}

void LogView::copySelection()
{
    if (!m_file || m_selection.isEmpty()) {
        Q_EMIT notice(tr("Nothing selected to copy"));
        return;
    }
    const auto bytes = selectionBytes(*m_file, m_selection);
    if (!bytes) {
        Q_EMIT notice(tr("Cannot copy: %1").arg(QString::fromStdString(bytes.message())));
        return;
    }
    if (*bytes > m_copyCap) {
        Q_EMIT notice(tr("The selection is %1; copying is limited to %2. Select fewer lines, "
                         "or use Copy link to share the range.")
                          .arg(formatDataSize(*bytes), formatDataSize(m_copyCap)));
        return;
    }
    const std::uint64_t job = ++m_copyJob;
    QtConcurrent::run(fileWorkPool(), [file = m_file, selection = m_selection, cap = m_copyCap] {
        auto text = selectionText(*file, selection, cap);
        return text ? CopyOutcome{std::move(*text), {}}
                    : CopyOutcome{{}, QString::fromStdString(text.message())};
    }).then(this, [this, job](const CopyOutcome& outcome) {
        if (job != m_copyJob)
            return; // a newer copy replaced this one
        if (!outcome.error.isEmpty()) {
            Q_EMIT notice(tr("Cannot copy: %1").arg(outcome.error));
            return;
        }
        QApplication::clipboard()->setText(outcome.text);
        Q_EMIT copied(outcome.text.size());
    });
}

std::optional<LogLink> LogView::linkToSelection() const
{
    if (!m_file || m_lineCount == 0)
        return std::nullopt;
    const QString path = QFileInfo(QString::fromStdString(m_file->path())).absoluteFilePath();
    if (m_selection.isEmpty())
        return LogLink{path, m_current, m_current};
    return LogLink{path, m_selection.firstLine(), m_selection.lastLine()};
}

void LogView::copyLink(LinkForm form)
{
    const auto link = linkToSelection();
    if (!link)
        return;
    const QString text = form == LinkForm::Url ? logLinkUrl(*link) : logLinkPlain(*link);
    QApplication::clipboard()->setText(text);
    Q_EMIT copied(text.size());
}

void LogView::openLineJump()
{
    if (m_lineCount == 0)
        return;
    updateGeometryOfParts();
    m_jump->open(m_lineCount);
}

void LogView::setWrap(bool on)
{
    if (on == m_wrap)
        return;
    const LineNumber keep = rowAt(topRow()).line;
    m_wrap = on;
    horizontalScrollBar()->setValue(0);
    updateScrollBars();
    scrollToRow(rows().rowOf(keep), false);
    viewport()->update();
}

void LogView::setTimestampsShown(bool on)
{
    m_timestamps = on;
    updateGutter();
    updateScrollBars();
    viewport()->update();
}

void LogView::setLogFont(const QFont& font)
{
    setFont(font); // changeEvent() takes the metrics
    m_painter.setFont(font);
    updateGutter();
    updateScrollBars();
    viewport()->update();
}

void LogView::setFolded(LineNumber groupStart, bool folded)
{
    ScreenAnchor anchor = screenAnchor();
    m_folds.setFolded(groupStart, folded);
    if (folded && m_folds.groupContaining(m_current) == m_folds.groupStartingAt(groupStart)) {
        m_current = groupStart; // the current line went into the fold
        if (anchor.line > groupStart)
            anchor.line = groupStart;
    }
    restoreAnchor(anchor);
}

void LogView::setAllFolded(bool folded)
{
    ScreenAnchor anchor = screenAnchor();
    m_folds.setAllFolded(folded);
    if (const LogGroup* g = m_folds.groupContaining(m_current); g && folded)
        m_current = g->start;
    if (const LogGroup* g = m_folds.groupContaining(anchor.line); g && folded)
        anchor.line = g->start;
    restoreAnchor(anchor);
}

void LogView::toggleFold(LineNumber groupStart)
{
    setFolded(groupStart, !m_folds.isFolded(groupStart));
}

} // namespace relayhud::ui
