#include "relayhud/ui/window/coverage_coordinator.h"

#include "relayhud/ui/charts/charts_panel.h"
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QDockWidget>
#include <QMainWindow>

namespace relayhud::ui {

CoverageCoordinator::CoverageCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(frame), m_coverage(new CoveragePanel(frame.window)),
      m_coverageDock(
          frame.tests->addTabBeside(tr("Coverage"), QStringLiteral("coverageDock"), m_coverage)),
      m_charts(new ChartsPanel(frame.settings->effectiveCachePath(), frame.window)),
      m_chartsDock(frame.tests->addTabBeside(tr("Charts"), QStringLiteral("chartsDock"), m_charts))
{
    connect(m_coverage, &CoveragePanel::testActivated, this, [this](const QString& identity) {
        m_frame.tests->raise();
        if (!m_frame.tests->panel()->selectIdentity(identity))
            m_frame.status->showMessage(
                tr("%1 is not in the Tests tab's rows (filters?)").arg(identity));
    });
    // Judging a run reads its results: only while the tab can be seen.
    connect(m_coverageDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_coverage->rowId() != m_frame.matrix->shownRun())
            m_coverage->showRun(m_frame.matrix->shownRun());
    });
    connect(m_charts, &ChartsPanel::commitActivated, m_frame.matrix,
            &MatrixCoordinator::selectCommit);
}

void CoverageCoordinator::applySettings()
{
    const AppSettings& settings = *m_frame.settings;
    const verdict::VerdictSources sources = verdictSources(settings);
    m_frame.loader->setVerdictSources(sources);
    m_coverage->setCachePath(settings.effectiveCachePath().toStdString());
    m_coverage->setSources(sources);
    m_charts->setCachePath(settings.effectiveCachePath());
}

void CoverageCoordinator::follow(const QModelIndex& current)
{
    if (!current.isValid()) {
        m_coverage->setMessage(tr("Select a cell to see what its run covered."));
        return;
    }
    const CheckRunRow run{current.data(MatrixModel::RunRowIdRole).toLongLong()};
    if (run == m_coverage->rowId())
        return;
    if (!run || m_coverage->isVisible()) // no run clears it at once
        m_coverage->showRun(run);
    else
        m_coverage->setMessage(tr("Judging the run…")); // visibilityChanged judges it
}

void CoverageCoordinator::resultsRead(qint64 runRowId)
{
    const CheckRunRow run{runRowId};
    const verdict::RunVerdict* judged = m_coverage->shown();
    if (m_coverage->rowId() == run && m_coverage->isVisible()
        && (!judged || judged->checkRunRow != run || !judged->testRun))
        m_coverage->refresh(); // a judgement still on its way may predate the results
}

void CoverageCoordinator::resultsStored()
{
    if (m_coverage->rowId())
        m_coverage->refresh();
}

void CoverageCoordinator::reloadCharts() { m_charts->reload(); }

} // namespace relayhud::ui
