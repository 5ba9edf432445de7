// MainWindow: the Merge gating tab (issue 34, part 8). It follows the current
// row's pull request, is read only while it can be seen, and comes to the
// front when the Pull requests view is chosen, where a row is a PR.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/gating/merge_gating_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"

#include <QDockWidget>
#include <QTabBar>

namespace relayhud::ui {

void MainWindow::buildGatingDock()
{
    m_gating = new MergeGatingPanel(this);
    m_gatingDock = new QDockWidget(tr("Merge gating"), this);
    m_gatingDock->setObjectName(QStringLiteral("mergeGatingDock"));
    m_gatingDock->setWidget(m_gating);
    m_gatingDock->setToolTip(tr("Would the merge bot block this PR on a CRCR check, and what "
                                "would Dr. CI list? (pytorch/test-infra's rules)"));
    addDockWidget(Qt::RightDockWidgetArea, m_gatingDock);
    tabifyDockWidget(m_testsDock, m_gatingDock);
    m_testsDock->raise();
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showGatingFor(current); });
    connect(m_gatingDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_gating->prNumber() != m_gatingPr)
            m_gating->load(m_config.settings.effectiveCachePath(), m_gatingPr);
    });
    // A sync may change the PR's runs: read again what is shown.
    connect(this, &MainWindow::syncSucceeded, this, [this] {
        if (!m_gatingDock->visibleRegion().isEmpty() && m_gatingPr > 0)
            m_gating->load(m_config.settings.effectiveCachePath(), m_gatingPr);
    });
    connect(m_viewTabs, &QTabBar::currentChanged, this, [this](int index) {
        if (index == static_cast<int>(CommitView::PullRequests) && !m_gatingDock->isHidden())
            m_gatingDock->raise();
    });
}

void MainWindow::showGatingFor(const QModelIndex& current)
{
    m_gatingPr = current.isValid()
                     ? m_proxy->headerData(current.row(), Qt::Vertical, MatrixModel::PrNumberRole)
                           .toLongLong()
                     : 0;
    if (m_gating->prNumber() == m_gatingPr || m_gatingDock->visibleRegion().isEmpty())
        return; // the same PR, or read when the tab is next seen
    m_gating->load(m_config.settings.effectiveCachePath(), m_gatingPr);
}

} // namespace relayhud::ui
