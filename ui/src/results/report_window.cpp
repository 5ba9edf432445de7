#include "relayhud/ui/results/report_window.h"

#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/tests/tests_panel.h"

#include <QStatusBar>

namespace relayhud::ui {

ReportWindow::ReportWindow(const std::string& cachePath, TestRunId testRunId, const QString& label,
                           const QString& summary, QWidget* parent)
    : QMainWindow(parent), m_loader(new TestResultsController(this)), m_panel(new TestsPanel(this)),
      m_testRunId(testRunId)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("%1 — RelayHUD").arg(label));
    setCentralWidget(m_panel);
    statusBar()->showMessage(summary);
    resize(1200, 760);
    m_loader->setAccess(cachePath, {});
    connect(m_loader, &TestResultsController::loaded, this,
            [this](const std::shared_ptr<const TestsPanelData>& results) {
                m_panel->setData(results);
                emit loaded(static_cast<int>(results->results.size()));
            });
    connect(m_loader, &TestResultsController::loadFailed, this,
            [this](Ticket, const QString& reason) {
                m_panel->setMessage(tr("Cannot read this report: %1").arg(reason));
            });
    connect(m_panel, &TestsPanel::tracebackRequested, this,
            [this](qint64 textId) { m_loader->loadText(m_load, TestMessageId{textId}); });
    connect(m_loader, &TestResultsController::textLoaded, m_panel,
            [this](Ticket, qint64 textId, const QString& text, bool cut, const QString& full) {
                m_panel->setTraceback(textId, text, cut, full);
            });
    m_panel->setLoading(tr("Reading %1…").arg(label));
    m_load = m_loader->loadTestRun(testRunId);
}

ReportWindow::~ReportWindow() { m_loader->shutdown(); }

} // namespace relayhud::ui
