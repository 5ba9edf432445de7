// MainWindow: the backends overview (issue 17), a view tab in the matrix's
// place: it needs the window's width.
#include "relayhud/ui/main_window.h"

#include "relayhud/ui/backends/backends_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/watch/watch_controller.h"

#include <QStackedWidget>
#include <QTabBar>

namespace relayhud::ui {

void MainWindow::buildBackendsView()
{
    m_backends = new BackendsPanel(m_centralStack);
    m_centralStack->addWidget(m_backends);
    const int tab = m_viewTabs->addTab(tr("Backends"));
    Q_ASSERT(tab == kBackendsTab);
    m_viewTabs->setTabToolTip(tab, tr("Every backend at a glance, worst first, and the relay's "
                                      "health (the HUD's /crcr summary, and more)"));
    connect(m_backends, &BackendsPanel::backendActivated, this, [this](const QString& repo) {
        m_proxy->setBackends({repo}); // back to the matrix, that backend's columns
        m_status->showMessage(
            tr("Showing %1's columns (View > Reset filters shows every backend)").arg(repo));
    });
    m_backends->setFollowed(m_watch->list().followed);
    connect(m_watch, &WatchController::listChanged, m_backends,
            [this](const WatchList& list) { m_backends->setFollowed(list.followed); });
}

void MainWindow::showBackendsOverview() { m_viewTabs->setCurrentIndex(kBackendsTab); }

void MainWindow::reloadBackends()
{
    m_backendsStale = m_centralStack->currentWidget() != m_backends;
    if (m_backendsStale)
        return;
    m_backends->load(m_config.settings.effectiveCachePath(), m_config.settings.historyDays);
}

} // namespace relayhud::ui
