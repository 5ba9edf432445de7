#include "relayhud/ui/window/gating_coordinator.h"

#include "relayhud/ui/gating/merge_gating_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTabBar>

namespace relayhud::ui {

GatingCoordinator::GatingCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(frame), m_panel(new MergeGatingPanel(frame.window)),
      m_dock(
          frame.tests->addTabBeside(tr("Merge gating"), QStringLiteral("mergeGatingDock"), m_panel))
{
    m_dock->setToolTip(tr("Would the merge bot block this PR on a CRCR check, and what "
                          "would Dr. CI list? (pytorch/test-infra's rules)"));
    connect(m_frame.view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &GatingCoordinator::follow);
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_panel->prNumber() != m_pr)
            load();
    });
    connect(m_frame.tabs, &QTabBar::currentChanged, this, [this](int index) {
        if (index == static_cast<int>(CommitView::PullRequests) && !m_dock->isHidden())
            m_dock->raise();
    });
}

void GatingCoordinator::reload()
{
    if (!m_dock->visibleRegion().isEmpty() && m_pr)
        load();
}

void GatingCoordinator::follow(const QModelIndex& current)
{
    m_pr = current.isValid()
               ? PrNumber{m_frame.proxy
                              ->headerData(current.row(), Qt::Vertical, MatrixModel::PrNumberRole)
                              .toLongLong()}
               : PrNumber{};
    if (m_panel->prNumber() == m_pr || m_dock->visibleRegion().isEmpty())
        return; // the same PR, or read when the tab is next seen
    load();
}

void GatingCoordinator::load() { m_panel->load(m_frame.settings->effectiveCachePath(), m_pr); }

} // namespace relayhud::ui
