// MainWindow: the backends overview (issue 17) and the integration doctor
// (issue 20), view tabs in the matrix's place: they need the window's width.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/backends/backends_panel.h"
#include "relayhud/ui/backends/doctor_panel.h"
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
    m_backends->setFollowed(watch()->list().followed);
    connect(watch(), &WatchController::listChanged, m_backends,
            [this](const WatchList& list) { m_backends->setFollowed(list.followed); });
}

void MainWindow::buildDoctorView()
{
    m_doctor = new DoctorPanel(m_centralStack);
    m_centralStack->addWidget(m_doctor);
    const int tab = m_viewTabs->addTab(tr("Doctor"));
    Q_ASSERT(tab == kDoctorTab);
    m_viewTabs->setTabToolTip(tab, tr("Is each backend's CRCR integration sound? Its runs in "
                                      "the cache and its workflows, checked against the relay's "
                                      "rules, worst first"));
    // The doctor reads the workflows afresh; the Backends tab counts from the
    // copies it keeps, so it reads again when next shown.
    connect(m_doctor, &DoctorPanel::loaded, this, [this] { m_backendsStale = true; });
    connect(m_doctor, &DoctorPanel::runActivated, this, [this](qint64 row) {
        m_viewTabs->setCurrentIndex(static_cast<int>(CommitView::All));
        if (!selectRunRow(row))
            m_status->showMessage(tr("That run is not in the matrix's window"));
    });
}

void MainWindow::showBackendsOverview() { m_viewTabs->setCurrentIndex(kBackendsTab); }

void MainWindow::reloadDoctor()
{
    m_doctorStale = m_centralStack->currentWidget() != m_doctor;
    if (m_doctorStale)
        return;
    m_doctor->load(m_config.settings.effectiveCachePath(), m_config.settings.historyDays,
                   artifactAccess(), true);
}

void MainWindow::reloadBackends()
{
    m_backendsStale = m_centralStack->currentWidget() != m_backends;
    if (m_backendsStale)
        return;
    m_backends->load(m_config.settings.effectiveCachePath(), m_config.settings.historyDays,
                     artifactAccess());
}

} // namespace relayhud::ui
