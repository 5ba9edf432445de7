#include "relayhud/ui/logs/log_viewer.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/logs/landmark_delegate.h"
#include "relayhud/ui/logs/landmarks_model.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_search_bar.h"
#include "relayhud/ui/logs/log_search_controller.h"
#include "relayhud/ui/logs/log_structure_watcher.h"
#include "relayhud/ui/logs/log_view.h"

#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

constexpr int kNoticeMs = 6000;

} // namespace

LogViewer::LogViewer(QWidget* parent)
    : QWidget(parent), m_document(new LogDocument(this)),
      m_structure(new LogStructureWatcher(this)), m_search(new LogSearchController(this)),
      m_landmarks(new LandmarksModel(this))
{
    buildLayout();
    connectParts();
    m_noticeTimer.setSingleShot(true);
    connect(&m_noticeTimer, &QTimer::timeout, m_notice, &QLabel::clear);
}

LogViewer::~LogViewer()
{
    // Engine threads stop before the widgets they report to go.
    m_search->setLog(nullptr);
    m_structure->stop();
    m_document->close();
}

void LogViewer::buildLayout()
{
    m_searchBar = new LogSearchBar(this);
    m_view = new LogView(this);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(buildLandmarksPanel());
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(true);
    m_splitter->setSizes({900, 300});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_searchBar);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(buildStatusRow());
    setFocusProxy(m_view);
}

QWidget* LogViewer::buildLandmarksPanel()
{
    auto* panel = new QWidget(this);
    m_landmarksTitle = new QLabel(panel);
    m_landmarksTitle->setTextFormat(Qt::PlainText);
    m_landmarksTitle->setContentsMargins(8, 6, 8, 4);
    QFont bold = m_landmarksTitle->font();
    bold.setBold(true);
    m_landmarksTitle->setFont(bold);
    // A tree view without a tree: it lays out a list of 100,000 rows that
    // grows while the scan runs lazily, where QListView lays out every row.
    m_landmarksView = new QTreeView(panel);
    m_landmarksView->setHeaderHidden(true);
    m_landmarksView->setRootIsDecorated(false);
    m_landmarksView->setItemsExpandable(false);
    m_landmarksView->setUniformRowHeights(true);
    m_landmarksView->setModel(m_landmarks);
    m_landmarksView->setItemDelegate(new LandmarkDelegate(m_landmarksView));
    m_landmarksView->setFrameShape(QFrame::NoFrame);
    m_landmarksView->setToolTip({});
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_landmarksTitle);
    layout->addWidget(m_landmarksView, 1);
    updateLandmarksTitle();
    return panel;
}

QWidget* LogViewer::buildStatusRow()
{
    auto* row = new QWidget(this);
    m_progress = new QLabel(row);
    m_status = new QLabel(row);
    m_notice = new QLabel(row);
    for (QLabel* l : {m_progress, m_status, m_notice})
        l->setTextFormat(Qt::PlainText);
    m_notice->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const auto toggle = [row](const QString& text, const QString& tip) {
        auto* b = new QToolButton(row);
        b->setText(text);
        b->setToolTip(tip);
        b->setCheckable(true);
        b->setAutoRaise(true);
        return b;
    };
    m_wrap = toggle(tr("Wrap"), tr("Wrap long lines"));
    m_timestamps = toggle(tr("Timestamps"), tr("Show the runner's timestamps"));
    m_follow = toggle(tr("Follow"), tr("Follow the file as it grows (tail -f)"));
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(8, 2, 6, 2);
    layout->setSpacing(10);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_notice, 1);
    layout->addWidget(m_wrap);
    layout->addWidget(m_timestamps);
    layout->addWidget(m_follow);
    return row;
}

void LogViewer::connectParts()
{
    connect(m_document, &LogDocument::opened, this, &LogViewer::onOpened);
    connect(m_document, &LogDocument::indexProgressed, this, &LogViewer::onIndexProgress);
    connect(m_document, &LogDocument::contentReset, this, &LogViewer::onContentReset);
    connect(m_document, &LogDocument::notice, this, &LogViewer::showNotice);
    connect(m_document, &LogDocument::grew, this, [this] {
        m_search->extend();
        m_structure->logGrew();
    });
    connect(m_structure, &LogStructureWatcher::landmarksAdded, this, &LogViewer::onLandmarksAdded);
    connect(m_structure, &LogStructureWatcher::groupsChanged, this,
            [this] { m_view->setGroups(m_structure->groups()); });
    connect(m_structure, &LogStructureWatcher::finished, this, [this] {
        updateLandmarksTitle();
        resolvePendingTest();
    });
    connect(m_search, &LogSearchController::matchesAdded, this,
            [this](std::span<const LineNumber> matches) {
                m_view->addMatches(matches);
                jumpToFirstMatch(false);
            });
    connect(m_search, &LogSearchController::progressed, this, [this](qint64 count, bool done) {
        m_searchBar->setCount(count, done);
        if (done) {
            jumpToFirstMatch(true);
            Q_EMIT searchFinished(count);
        }
    });
    connect(m_search, &LogSearchController::failed, this, &LogViewer::showNotice);
    connect(m_searchBar, &LogSearchBar::queryChanged, this, &LogViewer::startSearch);
    // A keystroke stops the search of the text before it at once (its workers
    // free the cores); the new one starts after the bar's short pause.
    connect(m_searchBar->textEdit(), &QLineEdit::textEdited, m_search, &LogSearchController::stop);
    connect(m_searchBar, &LogSearchBar::nextRequested, this, [this] { stepMatch(true); });
    connect(m_searchBar, &LogSearchBar::previousRequested, this, [this] { stepMatch(false); });
    connect(m_searchBar, &LogSearchBar::filterChanged, m_view, &LogView::setFilter);
    connect(m_landmarksView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) {
                if (index.isValid())
                    m_view->goToLine(m_landmarks->landmarkAt(index.row()).line, true);
            });
    connect(m_landmarksView, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        m_view->goToLine(m_landmarks->landmarkAt(index.row()).line, true);
    });
    connect(m_view, &LogView::notice, this, &LogViewer::showNotice);
    connect(m_view, &LogView::copied, this, [this](qint64 n) {
        showNotice(tr("Copied %1 characters").arg(QLocale().toString(n)));
    });
    connect(m_wrap, &QToolButton::toggled, m_view, &LogView::setWrap);
    connect(m_timestamps, &QToolButton::toggled, m_view, &LogView::setTimestampsShown);
    connect(m_follow, &QToolButton::toggled, this, &LogViewer::setFollowing);

    const auto shortcut = [this](const QKeySequence& keys, auto slot) {
        auto* s = new QShortcut(keys, this, slot);
        s->setContext(Qt::WidgetWithChildrenShortcut);
    };
    // F3 by name: QKeySequence::FindNext is also Ctrl+G on Linux desktops,
    // which the view keeps for "go to line".
    shortcut(QKeySequence::Find, [this] { m_searchBar->focusSearch(); });
    shortcut(QKeySequence(Qt::Key_F3), [this] { stepMatch(true); });
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { stepMatch(false); });
}

void LogViewer::openFile(const QString& path)
{
    m_search->setLog(nullptr);
    m_structure->stop();
    m_landmarks->clear();
    m_view->setLogFile(nullptr);
    m_view->setPlaceholderText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    m_progress->clear();
    m_status->clear();
    m_document->open(path);
}

QString LogViewer::filePath() const { return m_document->path(); }

void LogViewer::onOpened(bool ok, const QString& error)
{
    if (!ok) {
        m_view->setPlaceholderText(tr("Cannot open the log: %1").arg(error));
        // Not "none found": nothing was read, so nothing can be said.
        m_landmarksTitle->setText(tr("Failures: not read"));
        Q_EMIT opened(false, error);
        if (m_pendingTest)
            Q_EMIT testFailureResolved(*std::exchange(m_pendingTest, std::nullopt), false);
        return;
    }
    const auto& file = m_document->file();
    m_view->setLogFile(file);
    m_view->setPlaceholderText(tr("Indexing…"));
    m_search->setLog(file);
    m_structure->start(file);
    updateLandmarksTitle();
    if (!m_searchBar->query().pattern.empty())
        startSearch();
    if (m_follow->isChecked())
        m_document->setFollowing(true);
    Q_EMIT opened(true, {});
    onIndexProgress();
}

void LogViewer::onIndexProgress()
{
    const IndexProgress& p = m_document->progress();
    m_view->updateLineCount();
    m_search->extend(); // a finished search goes on over lines indexed since
    if (p.finished && m_view->rowCount() == 0)
        m_view->setPlaceholderText(tr("This log is empty."));
    applyPendingLines();
    const auto& file = m_document->file();
    if (!file)
        return;
    if (!p.error.empty())
        m_progress->setText(tr("Indexing stopped: %1").arg(QString::fromStdString(p.error)));
    else if (!p.finished && p.totalBytes > 0)
        m_progress->setText(
            tr("Indexing… %1%").arg(static_cast<int>(p.indexedBytes * 100 / p.totalBytes)));
    else
        m_progress->clear();
    m_progress->setVisible(!m_progress->text().isEmpty());
    const std::uint64_t lines = file->lineCount();
    m_status->setText(tr("%1 lines · %2%3")
                          .arg(QLocale().toString(static_cast<qulonglong>(lines)),
                               formatDataSize(file->sizeBytes()),
                               file->wasCompressed() ? tr(" (decompressed)") : QString()));
    if (p.finished)
        Q_EMIT indexingFinished();
}

void LogViewer::onContentReset()
{
    m_view->resetContent();
    m_landmarks->clear();
    m_structure->start(m_document->file());
    if (!m_searchBar->query().pattern.empty())
        startSearch();
    showNotice(tr("The file changed under the viewer; it is read again."));
}

void LogViewer::onLandmarksAdded(std::size_t first, std::size_t count)
{
    const auto& all = m_structure->landmarks();
    const std::span<const Landmark> added(all.data() + first, count);
    m_landmarks->append(added);
    m_view->addLandmarks(added);
    updateLandmarksTitle();
    Q_EMIT landmarksChanged(m_landmarks->rowCount());
    resolvePendingTest();
}

void LogViewer::updateLandmarksTitle()
{
    const int n = m_landmarks->rowCount();
    const bool scanning = m_document->file() && !m_structure->isFinished();
    if (n == 0)
        m_landmarksTitle->setText(scanning ? tr("Failures: looking…") : tr("Failures: none found"));
    else
        m_landmarksTitle->setText(scanning ? tr("Failures (%1, looking…)").arg(n)
                                           : tr("Failures (%1)").arg(n));
}

void LogViewer::startSearch()
{
    m_view->setSearch(std::nullopt);
    m_jumpToFirstMatch = false;
    const SearchQuery query = m_searchBar->query();
    if (query.pattern.empty()) {
        m_search->stop();
        m_searchBar->clearCount();
        return;
    }
    if (!m_document->file())
        return; // searched when the log opens
    const auto started = m_search->start(query);
    if (!started) {
        m_searchBar->setError(QString::fromStdString(started.message()));
        return;
    }
    m_view->setSearch(query);
    m_searchBar->setCount(0, false);
    m_jumpToFirstMatch = true;
}

void LogViewer::jumpToFirstMatch(bool searchDone)
{
    if (!m_jumpToFirstMatch)
        return;
    // As a browser's find does: the first match from where the user is; one
    // above only once the search is done and there is none below.
    const LineNumber from = m_view->rowAt(m_view->topRow()).line;
    const auto target = m_search->firstAtOrAfter(from);
    if (!target || (*target < from && !searchDone))
        return;
    m_jumpToFirstMatch = false;
    m_view->setCurrentMatch(target);
}

void LogViewer::stepMatch(bool forward)
{
    if (!m_search->isActive())
        return;
    const LineNumber from = m_view->currentLine();
    const auto target = forward ? m_search->next(from) : m_search->previous(from);
    if (target)
        m_view->setCurrentMatch(target);
    else if (m_search->isRunning())
        m_jumpToFirstMatch = true;
}

void LogViewer::goToLine(LineNumber line, bool select)
{
    m_pendingLines = LineRequest{line, line, select, false};
    applyPendingLines();
}

void LogViewer::showLines(LineNumber first, LineNumber last)
{
    m_pendingLines = LineRequest{first, last, true, true};
    applyPendingLines();
}

void LogViewer::applyPendingLines()
{
    const auto& file = m_document->file();
    if (!m_pendingLines || !file)
        return;
    const bool indexed = file->lineCount() > m_pendingLines->last.value;
    if (!indexed && !m_document->progress().finished)
        return; // wait for the index to get there
    const LineRequest r = *std::exchange(m_pendingLines, std::nullopt);
    if (r.range)
        m_view->showLines(r.first, r.last);
    else
        m_view->goToLine(r.first, r.select);
}

bool LogViewer::goToTestFailure(const QString& testIdentity)
{
    m_pendingTest = testIdentity;
    return resolvePendingTest();
}

bool LogViewer::resolvePendingTest()
{
    const LogStructure* structure = m_structure->structure();
    if (!m_pendingTest || !structure)
        return false;
    const auto line = structure->findTestFailure(m_pendingTest->toStdString());
    // Before the scan ends only a section header is sure to be the answer: a
    // FAILED line found first may have its section further down.
    const auto& all = m_structure->landmarks();
    const auto it = line ? std::find_if(all.begin(), all.end(),
                                        [&](const Landmark& l) { return l.line == *line; })
                         : all.end();
    const bool sure = it != all.end() && it->kind == LandmarkKind::TestSection;
    if (!line || (!sure && !m_structure->isFinished())) {
        if (m_structure->isFinished()) {
            showNotice(tr("No failure of %1 found in this log").arg(*m_pendingTest));
            Q_EMIT testFailureResolved(*std::exchange(m_pendingTest, std::nullopt), false);
        }
        return false;
    }
    m_view->showLines(*line, *line);
    {
        // Mark it in the list without the list moving the view again.
        const QSignalBlocker quiet(m_landmarksView->selectionModel());
        m_landmarksView->setCurrentIndex(m_landmarks->index(m_landmarks->rowAtOrBefore(*line)));
    }
    m_landmarksView->viewport()->update();
    Q_EMIT testFailureResolved(*std::exchange(m_pendingTest, std::nullopt), true);
    return true;
}

void LogViewer::setFollowing(bool on)
{
    if (m_follow->isChecked() != on)
        m_follow->setChecked(on); // comes back here through toggled()
    m_view->setFollowing(on);
    m_document->setFollowing(on);
    if (on)
        m_view->scrollToBottom();
}

bool LogViewer::isFollowing() const { return m_follow->isChecked(); }

void LogViewer::showNotice(const QString& text)
{
    m_notice->setText(text);
    m_noticeTimer.start(kNoticeMs);
}

QString LogViewer::progressText() const { return m_progress->text(); }
QString LogViewer::statusText() const { return m_status->text(); }
QString LogViewer::noticeText() const { return m_notice->text(); }

} // namespace relayhud::ui
