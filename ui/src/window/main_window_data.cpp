// MainWindow: the settings and the cache they name.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/store/run_store.h"
#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/settings/settings_dialog.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/window/coverage_coordinator.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/triage_coordinator.h"

#include <QSettings>

namespace relayhud::ui {

void MainWindow::openCache()
{
    const QString path = m_config.settings.effectiveCachePath();
    m_reader->setCachePath(path.toStdString());
    m_settingsAsked = false; // an answer from the old cache is dropped
    m_details->setCachePath(path);
    m_sync->openCache(); // the first open makes the cache (its folder, its schema) on a worker
}

void MainWindow::applySettings(const AppSettings& next)
{
    const AppSettings previous = m_config.settings;
    if (next == previous)
        return;
    m_config.settings = next;
    if (m_config.persistSettings) {
        QSettings store;
        saveSettings(store, next);
    }
    const bool cacheMoved = next.effectiveCachePath() != previous.effectiveCachePath();
    if (cacheMoved) {
        openCache();
        m_triage->setCachePath(next.effectiveCachePath()); // its undo steps stay with the old one
    }
    applyCredentials(); // the artifact endpoints may have changed
    const bool coverageChanged = next.outcomeConfigs != previous.outcomeConfigs
                                 || next.shrinkPercent != previous.shrinkPercent;
    if (cacheMoved || coverageChanged)
        m_coverage->applySettings();
    if (coverageChanged || cacheMoved)
        m_sync->reloadMatrix(); // the greens' marks, or the other cache's matrix
    if (cacheMoved)
        m_triage->reloadClusters();
    if (cacheMoved || next.hudUrl != previous.hudUrl || next.backends != previous.backends
        || next.historyDays != previous.historyDays)
        m_sync->syncNow();
}

// The allowlist the dialog offers is read off the GUI thread first; a cache
// that cannot be read offers none (backends can still be typed in).
void MainWindow::showSettingsDialog()
{
    if (m_settingsAsked)
        return; // a second press while the allowlist is read opens one dialog
    m_settingsAsked = true;
    m_reader->read<std::vector<Backend>>(
        [](const Database& cache) { return RunStore(cache).backends(); },
        [this](const Result<std::vector<Backend>>& backends) {
            m_settingsAsked = false;
            if (!backends)
                m_status->showMessage(
                    tr("The allowlist cannot be read: %1").arg(toQString(backends.message())));
            runSettingsDialog(backends ? *backends : std::vector<Backend>{});
        });
}

void MainWindow::runSettingsDialog(const std::vector<Backend>& allowlist)
{
    SettingsDialog dialog(m_config.settings, allowlist, m_credentials->stored(),
                          m_credentials->keychainProblem(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    applySettings(dialog.settings());
    if (dialog.credentialsChanged())
        m_credentials->save(dialog.credentials()); // applied when the keychain answers
}

} // namespace relayhud::ui
