#include "relayhud/ui/tests/tests_panel.h"

#include "relayhud/ui/common/elided_label.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_counts_bar.h"
#include "relayhud/ui/tests/tests_delegate.h"
#include "relayhud/ui/tests/tests_filter_bar.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_tree_view.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QResizeEvent>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace relayhud::ui {

namespace {

QString stateMessage(const TestRunInfo& run)
{
    const QString why = toQString(run.message);
    switch (run.state) {
    case TestRunState::Stored: return TestsPanel::tr("The reports hold no test cases.");
    case TestRunState::NoReports:
        return TestsPanel::tr("The artifacts hold no JUnit report.")
               % (why.isEmpty() ? QString() : u"\n" % why);
    case TestRunState::Expired:
        return TestsPanel::tr("Artifacts expired (GitHub keeps them 90 days).")
               % (why.isEmpty() ? QString() : u"\n" % why);
    case TestRunState::Unauthorized:
        return why.isEmpty() ? TestsPanel::tr("Not allowed to read the artifacts: set the "
                                              "artifact store's token in Settings.")
                             : why;
    case TestRunState::Failed:
        return TestsPanel::tr("Could not fetch the test results: %1")
            .arg(why.isEmpty() ? TestsPanel::tr("unknown error") : why);
    }
    return {};
}

bool failsIn(const TestsPanelData& data, TestId testId)
{
    return testId
           && std::any_of(data.results.begin(), data.results.end(), [&](const StoredTestResult& r) {
                  return r.testId == testId && isFailingOutcome(r.outcome);
              });
}

OutcomeCounts countOutcomes(const TestsPanelData& data)
{
    OutcomeCounts counts{};
    for (const StoredTestResult& result : data.results)
        ++counts[static_cast<std::size_t>(result.outcome)];
    // A loader may hand over fewer results than the run has; the run's own
    // totals are then the truth about the artifacts.
    if (data.run.totals.cases() > static_cast<std::int64_t>(data.results.size()))
        return data.run.totals.outcomes;
    return counts;
}

} // namespace

TestsPanel::TestsPanel(QWidget* parent)
    : QWidget(parent), m_model(new TestsModel(this)),
      m_title(new ElidedLabel(Qt::ElideRight, this)), m_counts(new TestsCountsBar(this)),
      m_stack(new QStackedWidget(this)), m_message(new QLabel(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setContentsMargins(6, 4, 6, 0);
    m_title->setTextFormat(Qt::PlainText);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_message->setMargin(16);
    m_stack->addWidget(m_message);
    m_stack->addWidget(buildTable());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_jobBar = new QWidget(this);
    m_jobTriage = new QLabel(m_jobBar);
    m_jobTriage->setObjectName(QStringLiteral("jobTriage"));
    m_jobTriage->setTextFormat(Qt::PlainText);
    m_jobTriage->setWordWrap(true);
    m_jobTriage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tagJob = new QToolButton(m_jobBar);
    m_tagJob->setObjectName(QStringLiteral("tagJob"));
    m_tagJob->setText(tr("Tag job…"));
    m_tagJob->setToolTip(tr("Set the class, a note and a bug link of the job's own failure"));
    connect(m_tagJob, &QToolButton::clicked, this, [this] { showTagDialog(true); });
    auto* jobLayout = new QHBoxLayout(m_jobBar);
    jobLayout->setContentsMargins(6, 0, 6, 0);
    jobLayout->addWidget(m_jobTriage, 1);
    jobLayout->addWidget(m_tagJob, 0, Qt::AlignTop);
    m_jobBar->hide();
    layout->addWidget(m_title);
    layout->addWidget(m_counts);
    layout->addWidget(m_jobBar);
    layout->addWidget(m_stack, 1);
    configureView();
    connectParts();
    connectTriageKeys();
    setMessage(tr("Select a cell to see its tests."));
}

TestsPanel::~TestsPanel() = default;

QWidget* TestsPanel::buildTable()
{
    auto* page = new QWidget(this);
    m_filterBar = new TestsFilterBar(page);
    m_view = new TestsTreeView(page);
    m_view->setObjectName(QStringLiteral("testsView"));
    m_details = new TestDetailsView(page);
    m_splitter = new QSplitter(Qt::Vertical, page);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_details);
    // The table takes what the details pane leaves (TestsPanel::resizeEvent).
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setChildrenCollapsible(false);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_splitByUser = true; });
    m_splitter->installEventFilter(this); // its own size, once laid out, is the one to split
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_splitter, 1);
    return page;
}

// A wide, short panel (a bottom dock, a report window) puts the details beside
// the table so the table keeps enough rows; a tall or narrow one (the dock
// column beside the matrix) puts them below. Never beside when narrow: side
// by side needs more width than the column has, and asking for it would
// widen the window. Below, the details pane's height follows the panel's
// alone (never the selected test's text), and the table takes the rest: its
// height never jumps as tests are selected.
void TestsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    splitTableAndDetails();
}

bool TestsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize)
        splitTableAndDetails();
    return QWidget::eventFilter(watched, event);
}

void TestsPanel::splitTableAndDetails()
{
    constexpr int kSideBySideWidth = 1000;
    const Qt::Orientation wanted =
        width() > 2 * height() && width() >= kSideBySideWidth ? Qt::Horizontal : Qt::Vertical;
    if (m_splitter->orientation() == wanted && m_splitByUser)
        return;
    if (m_splitter->orientation() != wanted)
        m_splitByUser = false;
    m_splitter->setOrientation(wanted);
    const int extent = wanted == Qt::Horizontal ? m_splitter->width() : m_splitter->height();
    if (extent <= 1)
        return; // not laid out yet: its first resize splits it
    const int details =
        wanted == Qt::Horizontal ? extent * 2 / 5 : std::clamp(height() * 11 / 20, 150, 380);
    m_splitter->setSizes({std::max(1, extent - details), std::min(details, extent - 1)});
}

void TestsPanel::configureView()
{
    m_view->setModel(m_model);
    m_view->setItemDelegate(new TestsDelegate(m_view));
    m_view->setUniformRowHeights(true); // 100,000 rows: no per-row height queries
    m_view->setRootIsDecorated(false);
    m_view->setTreePosition(TestsModel::TestColumn);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection); // tag several at once
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(true);
    header->setMinimumSectionSize(40);
    // By logical column; Message stretches (the last shown).
    const std::array<int, TestsModel::ColumnCount> widths{150, 380, 170, 90, 90, 72, 130, 0, 118};
    for (std::size_t column = 0; column < widths.size(); ++column)
        if (widths[column] > 0)
            header->resizeSection(static_cast<int>(column), widths[column]);
    header->moveSection(header->visualIndex(TestsModel::ClassColumn), 1); // beside the outcome
    header->setSortIndicator(TestsModel::OutcomeColumn, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
}

void TestsPanel::connectParts()
{
    connect(m_filterBar, &TestsFilterBar::filterChanged, this, &TestsPanel::applyFilter);
    connect(m_counts, &TestsCountsBar::outcomesChanged, this, &TestsPanel::applyFilter);
    connect(m_filterBar, &TestsFilterBar::groupingChanged, this, &TestsPanel::applyGrouping);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_model, &QAbstractItemModel::layoutChanged, this, &TestsPanel::afterLayout);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TestsPanel::afterLayout);
    connect(m_view, &QTreeView::expanded, this,
            [this](const QModelIndex& index) { rememberExpansion(index, true); });
    connect(m_view, &QTreeView::collapsed, this,
            [this](const QModelIndex& index) { rememberExpansion(index, false); });
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const StoredTestResult* result = m_model->result(index))
            emit testActivated(result->testId.value);
    });
    connect(m_details, &TestDetailsView::showInLogRequested, this, &TestsPanel::showInLogRequested);
    connect(m_details, &TestDetailsView::tagRequested, this, [this] { showTagDialog(false); });
    connect(m_details, &TestDetailsView::openInConfigRequested, this,
            &TestsPanel::openInConfigRequested);
    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        m_filterBar->textEdit()->setFocus(Qt::ShortcutFocusReason);
        m_filterBar->textEdit()->selectAll();
    });
}

void TestsPanel::setLoading(const QString& message)
{
    m_message->setText(message.isEmpty() ? tr("Fetching test results…") : message);
    m_stack->setCurrentIndex(0);
    m_counts->hide();
}

void TestsPanel::setMessage(const QString& message)
{
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
    m_counts->hide();
    m_title->setFullText(QString());
    m_title->hide();
    m_data.reset();
    m_job.reset();
    updateJobTriage();
    m_model->setResults(std::vector<StoredTestResult>{}, {});
    m_details->showNote(tr("Select a test to see its message, traceback and history."));
}

bool TestsPanel::setData(TestsPanelData loaded)
{
    return setData(std::make_shared<const TestsPanelData>(std::move(loaded)));
}

bool TestsPanel::setData(std::shared_ptr<const TestsPanelData> loaded)
{
    if (!loaded || loaded->ticket < m_latestLoad)
        return false;
    m_latestLoad = loaded->ticket;
    // Another run keeps the selected test only where it fails there too: a
    // red cell opens on a failure, never on a passing test.
    if (!m_data || m_data->run.checkRunRow != loaded->run.checkRunRow
        || m_data->run.id != loaded->run.id)
        if (!failsIn(*loaded, m_selectedTestId))
            m_selectedTestId = TestId{};
    m_data = std::move(loaded);
    m_title->setFullText(m_data->jobTitle);
    m_title->setVisible(!m_data->jobTitle.isEmpty());
    showRunState(*m_data);
    m_details->setLogAvailable(m_data->run.checkRunRow.has_value());
    m_details->showNote(tr("Select a test to see its message, traceback and history."));
    m_model->setResults(
        std::shared_ptr<const std::vector<StoredTestResult>>(m_data, &m_data->results),
        m_data->histories);
    m_model->setTriage(m_data->triage);
    // The table kept its test through the reset before the triage came: its
    // details take the class now, not at the next click.
    if (const QModelIndex kept = m_view->currentIndex(); kept.isValid())
        if (const StoredTestResult* shown = m_model->result(kept))
            m_details->setTriage(m_model->triage(shown->testId));
    const auto job = m_data->triage.find(TestId{}); // the job's own
    m_job = job == m_data->triage.end() ? std::nullopt : std::optional<TestTriage>(job->second);
    updateJobTriage();
    m_view->setColumnHidden(TestsModel::ClassColumn, m_data->triage.empty());
    m_filterBar->setChoices(m_model->testsIndex());
    // Reports without torch-spyre's marks (most of them) need no Op/Dtype columns.
    m_view->setColumnHidden(TestsModel::OpColumn, m_model->testsIndex().opChoices().empty());
    m_view->setColumnHidden(TestsModel::DtypeColumn, m_model->testsIndex().dtypeChoices().empty());
    m_filterBar->setFilter(m_model->filter()); // the model drops a file/op/dtype this run lacks
    m_counts->setSelectedOutcomes(m_model->filter().outcomes);
    m_filterBar->setShownCount(m_model->visibleTestCount(), m_model->testCount());
    // The reset kept the same test selected when this run fails it too;
    // otherwise the first failing test in the table's order, else the first row.
    if (!m_view->currentIndex().isValid())
        m_view->setCurrentIndex(firstFailingTest());
    return true;
}

void TestsPanel::showRunState(const TestsPanelData& loaded)
{
    // No test run and no results: the run named no artifacts (the loader
    // sends only its triage).
    const bool noTestRun = !loaded.run.id && loaded.results.empty();
    const bool stored = !noTestRun && loaded.run.state == TestRunState::Stored;
    m_counts->setCounts(stored ? std::optional<OutcomeCounts>(countOutcomes(loaded)) : std::nullopt,
                        loaded.selfReported, loaded.selfReportedKind);
    m_counts->setWarnings(loaded.run.warnings);
    m_counts->show();
    const bool table = stored && !loaded.results.empty();
    if (noTestRun) {
        m_message->setText(tr("This run has no test results: the backend reported no artifact "
                              "URL."));
    } else if (!table) {
        const QString where = toQString(loaded.run.location);
        m_message->setText(stateMessage(loaded.run)
                           % (where.isEmpty() ? QString() : u"\n\n" % where));
    }
    m_stack->setCurrentIndex(table ? 1 : 0);
}

void TestsPanel::setTraceback(qint64 textId, const QString& text, bool cut, const QString& fullPath)
{
    m_details->setTraceback(TestMessageId{textId}, text, cut, fullPath);
}

void TestsPanel::setHistory(const TestHistory& history)
{
    m_model->setHistory(history);
    m_details->setHistory(history);
}

void TestsPanel::applyFilter()
{
    TestsFilter filter = m_filterBar->filter();
    filter.outcomes = m_counts->selectedOutcomes();
    m_model->setFilter(filter);
    m_filterBar->setShownCount(m_model->visibleTestCount(), m_model->testCount());
}

void TestsPanel::applyGrouping()
{
    const TestsModel::Grouping grouping = m_filterBar->grouping();
    m_view->setRootIsDecorated(grouping != TestsModel::Grouping::None);
    m_model->setGrouping(grouping);
}

void TestsPanel::onCurrentChanged(const QModelIndex& current)
{
    const StoredTestResult* result = m_model->result(current);
    if (!result)
        return; // a group row, or the test was filtered out: keep showing the last one
    const bool fresh = !m_details->hasTest() || m_details->testId() != result->testId
                       || m_details->tracebackId() != result->tracebackId;
    m_selectedTestId = result->testId;
    const TestHistory* history = m_model->history(result->testId);
    m_details->showTest(*result, history);
    m_details->setTriage(m_model->triage(result->testId));
    if (!fresh)
        return;
    if (result->tracebackId)
        emit tracebackRequested(result->tracebackId.value);
    if (!history)
        emit historyRequested(result->testId.value);
}

void TestsPanel::afterLayout()
{
    if (m_model->grouping() != TestsModel::Grouping::None)
        restoreExpansion();
    restoreSelection();
}

void TestsPanel::restoreExpansion()
{
    m_restoringExpansion = true;
    m_view->expandAll();
    for (int row = 0; !m_collapsedGroups.empty() && row < m_model->rowCount(); ++row) {
        const QModelIndex group = m_model->index(row, 0);
        if (m_collapsedGroups.count(group.data(TestsModel::GroupNameRole).toString()) > 0)
            m_view->collapse(group);
    }
    m_restoringExpansion = false;
}

void TestsPanel::rememberExpansion(const QModelIndex& index, bool expanded)
{
    if (m_restoringExpansion)
        return;
    const QString name = index.data(TestsModel::GroupNameRole).toString();
    if (expanded)
        m_collapsedGroups.erase(name);
    else
        m_collapsedGroups.insert(name);
}

void TestsPanel::restoreSelection()
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid()) {
        m_view->scrollTo(current);
        return;
    }
    const QModelIndex again = m_model->indexOfTest(m_selectedTestId);
    if (again.isValid()) {
        m_view->selectionModel()->setCurrentIndex(again, QItemSelectionModel::ClearAndSelect
                                                             | QItemSelectionModel::Rows);
        m_view->scrollTo(again);
    }
}

QModelIndex TestsPanel::firstTest() const
{
    const QModelIndex first = m_model->index(0, 0);
    return m_model->grouping() == TestsModel::Grouping::None ? first : m_model->index(0, 0, first);
}

bool TestsPanel::selectTest(TestId testId)
{
    const QModelIndex index = m_model->indexOfTest(testId);
    if (!index.isValid())
        return false;
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                         | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    return true;
}

bool TestsPanel::selectIdentity(const QString& identity)
{
    if (!m_data)
        return false;
    const std::string wanted = identity.toStdString();
    for (const StoredTestResult& r : m_data->results)
        if (r.identity == wanted)
            return selectTest(r.testId);
    return false;
}

void TestsPanel::applyTriage(TestId testId, const TestTriage& triage)
{
    if (!testId) {
        m_job = triage;
        updateJobTriage();
    } else {
        m_model->setTestTriage(testId, triage);
        if (m_details->hasTest() && m_details->testId() == testId)
            m_details->setTriage(m_model->triage(testId));
    }
}

const TestTriage* TestsPanel::triageOf(TestId testId) const
{
    if (!testId)
        return m_job ? &*m_job : nullptr;
    return m_model->triage(testId);
}

void TestsPanel::updateJobTriage()
{
    m_jobBar->setVisible(m_job.has_value());
    if (!m_job) {
        m_jobTriage->clear();
        return;
    }
    const TestTriage& job = *m_job;
    QString text =
        job.hasHuman()
            ? tr("Job: %1 (tagged by %2)").arg(classLabel(job.tag->cls), toQString(job.tag->author))
            : tr("Job: %1 (suggested)").arg(classLabel(job.suggested));
    if (job.hasHuman() && !job.tag->note.empty())
        text += u" — " % toQString(job.tag->note);
    if (!job.why.isEmpty())
        text += u"\n" % job.why;
    for (const QString& item : job.evidence)
        text += u"\n• " % item;
    if (!job.group.isEmpty())
        text += u"\n" % tr("Part of %1").arg(job.group);
    m_jobTriage->setText(text);
}

QString TestsPanel::jobTriageText() const
{
    return m_jobBar->isHidden() ? QString() : m_jobTriage->text();
}

bool TestsPanel::isShowingTable() const { return m_stack->currentIndex() == 1; }
QString TestsPanel::messageText() const { return m_message->text(); }
QString TestsPanel::titleText() const { return m_title->fullText(); }

} // namespace relayhud::ui
