// MainWindow: the Coverage tab (a run's verdict and what it covered), the
// coverage settings reaching the matrix's verdict marks, the trend charts,
// and the views of nightly and release runs.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/charts/charts_panel.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/tests/tests_panel.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QTabBar>

namespace relayhud::ui {

void MainWindow::buildCoverageDock()
{
    m_coverage = new CoveragePanel(this);
    m_coverageDock = new QDockWidget(tr("Coverage"), this);
    m_coverageDock->setObjectName(QStringLiteral("coverageDock"));
    m_coverageDock->setWidget(m_coverage);
    addDockWidget(Qt::RightDockWidgetArea, m_coverageDock);
    tabifyDockWidget(m_testsDock, m_coverageDock);
    m_testsDock->raise();
    connect(m_coverage, &CoveragePanel::missingTestActivated, this,
            &MainWindow::openMissingMandatoryTest);
    connect(m_coverage, &CoveragePanel::testActivated, this, [this](const QString& identity) {
        m_testsDock->show();
        m_testsDock->raise();
        if (!m_testsPanel->selectIdentity(identity))
            m_status->showMessage(tr("%1 is not in the Tests tab's rows (filters?)").arg(identity));
    });
    // Judging a run reads its results: only while the tab can be seen.
    connect(m_coverageDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_coverage->rowId().value != m_shownRowId)
            m_coverage->showRun(CheckRunRow{m_shownRowId});
    });
}

void MainWindow::buildChartsDock()
{
    m_charts = new ChartsPanel(m_config.settings.effectiveCachePath(), this);
    m_chartsDock = new QDockWidget(tr("Charts"), this);
    m_chartsDock->setObjectName(QStringLiteral("chartsDock"));
    m_chartsDock->setWidget(m_charts);
    addDockWidget(Qt::RightDockWidgetArea, m_chartsDock);
    tabifyDockWidget(m_testsDock, m_chartsDock);
    m_testsDock->raise();
    connect(m_charts, &ChartsPanel::commitActivated, this, &MainWindow::selectCommit);
    // A change while the tab is hidden is read when it is next seen
    // (ChartsPanel::reload waits for the panel to be shown).
    connect(this, &MainWindow::syncSucceeded, m_charts, &ChartsPanel::reload);
    connect(this, &MainWindow::triageWritten, m_charts, &ChartsPanel::reload);
    connect(this, &MainWindow::triageImported, m_charts, &ChartsPanel::reload);
}

bool MainWindow::selectCommit(const QString& sha)
{
    revealCommit(sha);
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            if (m_proxy->headerData(row, Qt::Vertical, MatrixModel::ShaRole).toString() != sha)
                continue;
            // The commit's first failure, else its first run, else its first column.
            const QModelIndex target = landingCell(row);
            m_view->selectionModel()->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect);
            m_view->scrollTo(target, QAbstractItemView::PositionAtCenter);
            return true;
        }
        if (pass == 0 && m_proxy->filters() != MatrixFilters{})
            m_proxy->resetFilters(); // the filters hid it: show every commit
        else
            break;
    }
    m_status->showMessage(tr("Commit %1 is not in the matrix").arg(sha.left(7)));
    return false;
}

void MainWindow::applyCoverageSettings()
{
    const verdict::VerdictSources sources = verdictSources(m_config.settings);
    m_loader->setVerdictSources(sources);
    m_coverage->setCachePath(m_config.settings.effectiveCachePath().toStdString());
    m_coverage->setSources(sources);
    m_charts->setCachePath(m_config.settings.effectiveCachePath());
}

void MainWindow::showCoverageFor(std::int64_t rowId)
{
    if (rowId == 0) {
        m_coverage->showRun(CheckRunRow{});
        return;
    }
    if (m_coverage->isVisible())
        m_coverage->showRun(CheckRunRow{rowId});
    else
        m_coverage->setMessage(tr("Judging the run…")); // visibilityChanged judges it
}

bool MainWindow::openMissingMandatoryTest(const QString& configPath, const QString& name, int)
{
    ConfigEditorWindow* editor = openConfigEditor();
    if (!configPath.isEmpty() && editor->revealTest(name))
        return true;
    if (!configPath.isEmpty() && editor->openFile(configPath) && editor->revealTest(name))
        return true;
    m_status->showMessage(
        configPath.isEmpty() ? tr("No outcome config is set for this backend (Settings › Coverage)")
                             : tr("%1 has no entry %2").arg(configPath, name));
    return false;
}

// The shown run's backend is its matrix column's.
QString MainWindow::configPathForShownRun() const
{
    if (m_shownRowId == 0 || m_detailsContext.backend.empty())
        return {};
    return m_config.settings.outcomeConfigs.value(toQString(m_detailsContext.backend));
}

void MainWindow::updateViewCounts()
{
    const MatrixSnapshot& commits = m_model->commits();
    m_viewTabs->setTabText(
        static_cast<int>(CommitView::PullRequests),
        tr("Pull requests (%1)").arg(rowsInView(commits, CommitView::PullRequests)));
    m_viewTabs->setTabText(
        static_cast<int>(CommitView::Scheduled),
        tr("Nightly && periodic (%1)").arg(rowsInView(commits, CommitView::Scheduled)));
    m_viewTabs->setTabText(
        static_cast<int>(CommitView::Release),
        tr("Release branches (%1)").arg(rowsInView(commits, CommitView::Release)));
}

} // namespace relayhud::ui
