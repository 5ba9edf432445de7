#include "relayhud/ui/window/backends_coordinator.h"

#include "relayhud/ui/backends/backends_panel.h"
#include "relayhud/ui/backends/doctor_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/watch/watch_controller.h"
#include "relayhud/ui/window/matrix_coordinator.h"

#include <QStackedWidget>
#include <QTabBar>

namespace relayhud::ui {

BackendsCoordinator::BackendsCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(std::move(frame)), m_backends(new BackendsPanel(m_frame.stack)),
      m_doctor(new DoctorPanel(m_frame.stack))
{
    QTabBar* tabs = m_frame.tabs;
    m_frame.stack->addWidget(m_backends);
    m_backendsTab = tabs->addTab(tr("Backends"));
    tabs->setTabToolTip(m_backendsTab, tr("Every backend at a glance, worst first, and the "
                                          "relay's health (the HUD's /crcr summary, and more)"));
    connect(m_backends, &BackendsPanel::backendActivated, this, [this](const QString& repo) {
        m_frame.proxy->setBackends({repo}); // back to the matrix, that backend's columns
        m_frame.status->showMessage(
            tr("Showing %1's columns (View > Reset filters shows every backend)").arg(repo));
    });
    m_backends->setFollowed(m_frame.watch->list().followed);
    connect(m_frame.watch, &WatchController::listChanged, m_backends,
            [this](const WatchList& list) { m_backends->setFollowed(list.followed); });

    m_frame.stack->addWidget(m_doctor);
    m_doctorTab = tabs->addTab(tr("Doctor"));
    tabs->setTabToolTip(m_doctorTab, tr("Is each backend's CRCR integration sound? Its runs in "
                                        "the cache and its workflows, checked against the "
                                        "relay's rules, worst first"));
    connect(m_doctor, &DoctorPanel::runActivated, this, [this](qint64 row) {
        m_frame.tabs->setCurrentIndex(static_cast<int>(CommitView::All));
        if (!m_frame.matrix->selectRun(CheckRunRow{row}))
            m_frame.status->showMessage(tr("That run is not in the matrix's window"));
    });
    connect(tabs, &QTabBar::currentChanged, this, &BackendsCoordinator::show);
}

void BackendsCoordinator::show(int tab)
{
    if (tab == m_backendsTab)
        m_frame.stack->setCurrentWidget(m_backends);
    else if (tab == m_doctorTab)
        m_frame.stack->setCurrentWidget(m_doctor);
    else
        return; // the matrix's own tabs
    reload();
}

void BackendsCoordinator::reload()
{
    const AppSettings& settings = *m_frame.settings;
    // The doctor reads the workflows afresh; the Backends tab counts from the
    // copies it keeps, so it reads them when next shown.
    if (m_frame.stack->currentWidget() == m_doctor)
        m_doctor->load(settings.effectiveCachePath(), settings.historyDays, m_frame.access(), true);
    else if (m_frame.stack->currentWidget() == m_backends)
        m_backends->load(settings.effectiveCachePath(), settings.historyDays, m_frame.access());
}

} // namespace relayhud::ui
