#pragma once
// RelayHUD's main window, as a frame (issue 38): the filter bar, the view tabs
// and the SHA x job matrix in the centre, the docks in a column beside it,
// the status bar and the menus. Each view or dock has a coordinator that owns
// its wiring (window/*_coordinator.h); the window builds them, connects what
// one tells another, and keeps the settings and the window's state. All data
// comes from the cache; syncing and snapshot building run off the GUI thread.
#include "relayhud/ui/settings/app_settings.h"

#include <QMainWindow>

#include <optional>
#include <vector>

class QAction;
class QModelIndex;
class QStackedWidget;
class QTabBar;

namespace relayhud {
struct Backend;
}

namespace relayhud::ui {

struct ArtifactSyncOutcome;
class BackendsCoordinator;
class CacheReader;
class ConfigCoordinator;
class CoverageCoordinator;
class CredentialStore;
class DetailsCoordinator;
class FilterBar;
class GatingCoordinator;
class LinksCoordinator;
class LogsCoordinator;
class MatrixCoordinator;
class MatrixFilterProxy;
class MatrixModel;
class MatrixView;
class SideColumn;
class SnapshotLoader;
class SyncController;
class SyncCoordinator;
class SyncStatusWidget;
class TestsCoordinator;
class TriageCoordinator;
class ViewTabs;
class WatchController;
class WatchCoordinator;

struct SessionConfig {
    AppSettings settings;
    bool persistWindow = true;   // window geometry and layout in QSettings
    bool persistSettings = true; // AppSettings in QSettings (off with --cache/--hud overrides)
    bool demo = false;           // "RelayHUD — demo" in the title
    bool syncOnStart = true;
    // Tokens for this session only (the demo's simulator); unset: the
    // environment over the OS keychain.
    std::optional<Credentials> sessionCredentials;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(SessionConfig config, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The coordinators of the views and docks, each owning its wiring.
    SyncCoordinator* sync() const { return m_sync; }
    MatrixCoordinator* matrix() const { return m_matrix; }
    DetailsCoordinator* details() const { return m_details; }
    TestsCoordinator* tests() const { return m_tests; }
    LinksCoordinator* links() const { return m_links; }
    LogsCoordinator* logs() const { return m_logs; }
    BackendsCoordinator* backends() const { return m_backends; }
    TriageCoordinator* triage() const { return m_triage; }
    CoverageCoordinator* coverage() const { return m_coverage; }
    GatingCoordinator* gating() const { return m_gating; }
    ConfigCoordinator* configs() const { return m_configs; }
    // The docks beside the matrix; View › Side column (F9) hides them.
    SideColumn* sideColumn() const { return m_sideColumn; }
    // Watch and notify: followed items, notifications, unseen changes.
    WatchController* watch() const;
    QTabBar* commitViewTabs() const;
    SyncStatusWidget* syncStatus() const { return m_status; }
    const AppSettings& settings() const { return m_config.settings; }
    // The view tabs by name ("commits", "prs", "nightly", "release",
    // "backends", "doctor"); the window reopens in the one it was left in.
    static QStringList viewNames();
    bool showView(const QString& name);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildCentral();
    void buildMenus();
    void buildViewMenu();
    void restoreWindowState();
    void saveWindowState() const;
    void connectParts();
    void openCache();
    void applySettings(const AppSettings& next);
    void showSettingsDialog();
    void runSettingsDialog(const std::vector<Backend>& allowlist);
    ArtifactAccess artifactAccess() const;
    void applyCredentials();
    void onArtifactsRead(const ArtifactSyncOutcome& outcome);

    SessionConfig m_config;
    // The rare one-row reads of a user's action (a link, the settings'
    // allowlist, the cache's last sync), off the GUI thread.
    CacheReader* m_reader;
    bool m_settingsAsked = false; // the allowlist is being read for the dialog
    MatrixModel* m_model;
    MatrixFilterProxy* m_proxy;
    CredentialStore* m_credentials;
    SyncController* m_syncController;
    SnapshotLoader* m_loader; // asked for the first snapshot before the window is built
    MatrixView* m_view = nullptr;
    FilterBar* m_filterBar = nullptr;
    ViewTabs* m_viewTabs = nullptr;
    QStackedWidget* m_centralStack = nullptr; // the matrix, or the backends overview or doctor
    SyncStatusWidget* m_status = nullptr;
    bool m_layoutRestored = false; // a saved dock layout was applied
    SyncCoordinator* m_sync = nullptr;
    DetailsCoordinator* m_details = nullptr;
    TestsCoordinator* m_tests = nullptr;
    MatrixCoordinator* m_matrix = nullptr;
    LinksCoordinator* m_links = nullptr;
    LogsCoordinator* m_logs = nullptr;
    CoverageCoordinator* m_coverage = nullptr;
    TriageCoordinator* m_triage = nullptr;
    GatingCoordinator* m_gating = nullptr;
    ConfigCoordinator* m_configs = nullptr;
    SideColumn* m_sideColumn = nullptr;
    WatchCoordinator* m_watcher = nullptr; // the watch, its tray icon and menu
    BackendsCoordinator* m_backends = nullptr;
};

} // namespace relayhud::ui
