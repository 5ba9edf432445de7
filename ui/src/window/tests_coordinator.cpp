#include "relayhud/ui/window/tests_coordinator.h"

#include "relayhud/model/test_result.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/tests/tests_panel_data.h"

#include <QDockWidget>
#include <QMainWindow>

namespace relayhud::ui {

TestsCoordinator::TestsCoordinator(QMainWindow* window, QDockWidget* above)
    : QObject(window), m_window(window), m_panel(new TestsPanel(window)),
      m_dock(new QDockWidget(tr("Tests"), window)), m_tests(new TestResultsController(this))
{
    m_dock->setObjectName(QStringLiteral("testsDock"));
    m_dock->setWidget(m_panel);
    // Below the run details, right of the matrix: the matrix keeps the
    // window's full height (SideColumn::applyDefaultSizes).
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    window->splitDockWidget(above, m_dock, Qt::Vertical);
    m_panel->setMessage(tr("Select a cell to see its tests."));

    connect(m_tests, &TestResultsController::fetching, this,
            [this](Ticket, const QString& what) { m_panel->setLoading(what); });
    connect(m_tests, &TestResultsController::loaded, this, &TestsCoordinator::onLoaded);
    connect(m_tests, &TestResultsController::loadFailed, this,
            [this](Ticket, const QString& reason) {
                m_panel->setMessage(tr("Cannot show this run's tests: %1").arg(reason));
                m_readFailed = true;
                emit testsFailed(reason);
            });
    connect(m_panel, &TestsPanel::tracebackRequested, this,
            [this](qint64 textId) { m_tests->loadText(m_load, TestMessageId{textId}); });
    connect(
        m_tests, &TestResultsController::textLoaded, this,
        [this](Ticket ticket, qint64 textId, const QString& text, bool cut, const QString& full) {
            if (ticket == m_load)
                m_panel->setTraceback(textId, text, cut, full);
        });
    connect(m_panel, &TestsPanel::historyRequested, this, [this](qint64 testId) {
        if (m_run)
            m_tests->loadHistory(m_load, m_run, TestId{testId});
    });
    connect(m_tests, &TestResultsController::historyLoaded, this,
            [this](Ticket ticket, const TestHistory& history) {
                if (ticket == m_load)
                    m_panel->setHistory(history);
            });
}

void TestsCoordinator::follow(const QModelIndex& current)
{
    if (!current.isValid()) {
        showRun(CheckRunRow{});
        m_panel->setMessage(tr("Select a cell to see its tests."));
        return;
    }
    const CheckRunRow run{current.data(MatrixModel::RunRowIdRole).toLongLong()};
    if (run != m_run)
        showRun(run);
    if (!run)
        m_panel->setMessage(tr("No run here."));
}

void TestsCoordinator::showRun(CheckRunRow run)
{
    m_run = run;
    m_checkRunId = {};
    if (!run) {
        m_tests->clear();
        m_load = m_tests->currentLoad();
        return;
    }
    m_panel->setLoading(tr("Reading test results…"));
    m_load = m_tests->loadRun(run, true);
}

void TestsCoordinator::reload(bool fetch)
{
    if (m_run)
        m_load = m_tests->loadRun(m_run, fetch);
}

void TestsCoordinator::reloadAfterArtifacts(bool stored)
{
    if (stored || m_readFailed)
        reload(true);
}

QDockWidget* TestsCoordinator::addTabBeside(const QString& title, const QString& name,
                                            QWidget* panel)
{
    auto* dock = new QDockWidget(title, m_window);
    dock->setObjectName(name);
    dock->setWidget(panel);
    m_window->addDockWidget(Qt::RightDockWidgetArea, dock);
    m_window->tabifyDockWidget(m_dock, dock);
    m_dock->raise();
    return dock;
}

void TestsCoordinator::raise()
{
    m_dock->show();
    m_dock->raise();
}

void TestsCoordinator::onLoaded(const std::shared_ptr<const TestsPanelData>& loaded)
{
    if (loaded->ticket != m_load)
        return;
    m_readFailed = false;
    m_base = loaded->triageBase;
    m_checkRunId = loaded->checkRunId;
    m_panel->setData(loaded);
    int failing = 0;
    for (const StoredTestResult& r : loaded->results)
        failing += isFailingOutcome(r.outcome) ? 1 : 0;
    emit testsShown(m_run.value, static_cast<int>(loaded->results.size()), failing,
                    static_cast<int>(loaded->histories.size()));
    if (loaded->run.id && loaded->run.checkRunRow == m_run)
        emit runResultsRead(m_run.value);
}

} // namespace relayhud::ui
