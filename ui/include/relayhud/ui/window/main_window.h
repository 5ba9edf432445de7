#pragma once
// RelayHUD's main window: the filter bar and the SHA x job matrix in the
// centre, the run details in a dock, sync state in the status bar. All data
// comes from the cache; syncing and snapshot building run off the GUI thread.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/model/triage_tags.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/util/result.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QStackedWidget;
class QTabBar;
class QDockWidget;
class QTimer;
class QUndoStack;

namespace relayhud::ui {

class CacheReader;
class FilterBar;
class MatrixFilterProxy;
class MatrixModel;
class MatrixView;
class RunDetailsPanel;
class RunDetailsLoader;
struct RunDetails;
class SnapshotLoader;
class SyncController;
class SyncStatusWidget;
class CredentialStore;
class TestResultsController;
class TestsPanel;
class TriageController;
class TeamClient;
class ClustersPanel;
class CoveragePanel;
class ChartsPanel;
class WatchController;
class WatchCoordinator;
class BackendsPanel;
class DoctorPanel;
class MergeGatingPanel;
struct TriageEdit;
class ConfigEditorWindow;
struct TriageRequest;
class ReportWindow;
class LogWindow;
struct SyncOutcome;
struct ArtifactSyncOutcome;
struct TestsPanelData;
class JumpBox;
struct JumpEntry;
struct AppLink;
struct WalkCell;

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
    // reportOpened(ReportWindow*) needs the complete type for its meta type.
    Q_MOC_INCLUDE("relayhud/ui/results/report_window.h")
    Q_MOC_INCLUDE("relayhud/ui/logs/log_window.h")
public:
    explicit MainWindow(SessionConfig config, QWidget* parent = nullptr);
    ~MainWindow() override;

    MatrixView* matrixView() const { return m_view; }
    MatrixModel& matrixModel() const { return *m_model; }
    MatrixFilterProxy& filterProxy() const { return *m_proxy; }
    QTabBar* commitViewTabs() const { return m_viewTabs; }
    RunDetailsPanel* detailsPanel() const { return m_details; }
    TestsPanel* testsPanel() const { return m_testsPanel; }
    ClustersPanel* clustersPanel() const { return m_clustersPanel; }
    // The link to the team's triage server (Settings › Team, --server).
    TeamClient* teamClient() const { return m_team; }
    // Re-reads the failure clusters of the recent SHAs (worker).
    void reloadClusters();
    SyncStatusWidget* syncStatus() const { return m_status; }
    const AppSettings& settings() const { return m_config.settings; }

    void syncNow();
    // Rebuilds the snapshot from the cache (worker) and merges it.
    void reloadMatrix();
    // Makes the first cell in `state` (or any non-empty cell) current;
    // false when the matrix has none.
    bool selectInterestingCell();
    // Imports JUnit reports, archives or folders into the cache and shows
    // them in a window of their own.
    void openReports(const QStringList& paths);
    ReportWindow* lastReportWindow() const;
    // Reports, archives and folders to report windows; logs (any other file,
    // or a PATH:LINE / PATH:A-B / relayhud://log link) to log windows.
    void openPaths(const QStringList& paths);
    LogWindow* openLog(const QString& path, const QString& title = {});
    LogWindow* lastLogWindow() const;
    // The shown run's job log at this test's failure (downloaded first).
    void showTestInLog(const QString& testIdentity);
    // Triage of the shown run's failures: undo with Edit > Undo.
    QUndoStack* triageUndoStack() const { return m_undo; }
    void exportTriage(const QString& path);
    // The outcome-config editor (one per window), shown and raised.
    ConfigEditorWindow* openConfigEditor();
    // Tools › Outcome Config Editor: the editor on the selected cell's
    // backend's config with the tests panel's selected test revealed; with
    // no cell selected, on the configs of the backends in view.
    ConfigEditorWindow* openConfigEditorHere();
    // "Open in config": the entry that decides a test; asks for a config
    // file first when none is open. False when no open config has it.
    bool openTestInConfig(const QString& identity, const QString& marks);
    void importTriage(const QString& path); // merges, newest wins
    CoveragePanel* coveragePanel() const { return m_coverage; }
    QDockWidget* coverageDock() const { return m_coverageDock; }
    ChartsPanel* chartsPanel() const { return m_charts; }
    QDockWidget* chartsDock() const { return m_chartsDock; }
    // Merge gating of the current row's PR (issue 34, part 8).
    MergeGatingPanel* gatingPanel() const { return m_gating; }
    QDockWidget* gatingDock() const { return m_gatingDock; }
    // Makes the commit's first failure current (its first untriaged one,
    // else its first run; clearing filters that hide it); false when the
    // matrix does not have it.
    bool selectCommit(const QString& sha);
    // Watch and notify: followed items, notifications, unseen changes.
    WatchController* watch() const;
    BackendsPanel* backendsPanel() const { return m_backends; }
    DoctorPanel* doctorPanel() const { return m_doctor; }
    // Shows the backends overview in the matrix's place (its view tab).
    void showBackendsOverview();
    // The view tabs by name ("commits", "prs", "nightly", "release",
    // "backends"); the window reopens in the one it was left in.
    static QStringList viewNames();
    bool showView(const QString& name);
    // Re-reads the backends overview (worker) if it can be seen.
    void reloadBackends();
    void reloadDoctor();
    // Makes the cell of this run (a cache row id) current, clearing filters
    // that hide it; false when the matrix does not have it.
    bool selectRunRow(qint64 runRowId);
    // A mandatory test that did not run: its entry in the config editor.
    bool openMissingMandatoryTest(const QString& configPath, const QString& name, int line);
    // relayhud://sha/<sha>, pr/<n> or run/<check_run_id>[?test=<identity>]:
    // selects that place once the first matrix has loaded; linkOpened (and the
    // status bar) says what was found, or why nothing was.
    void openLink(const QString& link);
    // Ctrl+K: the jump box over the matrix in memory, shown and focused.
    JumpBox* showJumpBox();
    // Moves the selection to a jump box entry; false (with a status message)
    // when the matrix or the shown run no longer has it.
    bool jumpTo(const JumpEntry& entry);
    // The relayhud:// link that "Copy link" puts on the clipboard for a
    // commit row or a test of the tests dock's run; empty when there is
    // nothing to link to. A cell's link needs its run's relay id, which
    // "Copy link" reads off the GUI thread (copyCellLink).
    QString commitLink(int proxyRow) const;
    QString testLink(const QString& identity) const;
    // View › Side column (F9): shows or hides the docks beside the matrix,
    // which then takes the window's width (main_window_layout.cpp).
    QAction* sideColumnAction() const { return m_sideColumnAction; }
    bool sideColumnShown() const;

signals:
    void matrixRefreshed(int rows, int columns);
    void syncSucceeded();
    void syncFailed(const QString& reason);
    // An artifact pass ended (results and job logs read, or an error), and
    // the views that read them were asked to reload.
    void artifactsSynced();
    // The tests panel received a run's results: how many, how many failing,
    // and how many of those have a history strip.
    void testsShown(std::int64_t runRowId, int tests, int failing, int histories);
    // ... or could not be read (the panel says why; the next artifact pass
    // reads them again).
    void testsFailed(const QString& reason);
    // The details panel shows the selected cell's run (read off the GUI thread).
    void runDetailsShown(std::int64_t runRowId);
    void reportOpened(ReportWindow* window);
    void reportFailed(const QString& reason);
    void logOpened(LogWindow* window);
    void logFailed(const QString& reason);
    // A tag (or its undo) reached the cache.
    void triageWritten();
    // An import finished: `error` empty on success.
    void triageImported(const QString& error);
    // The team server's link changed state (connected, offline, unsent).
    void teamViewChanged();
    // A colleague's triage reached this cache and the views re-read it.
    void teamChangesArrived(qint64 applied);
    // The Clusters dock received new clusters.
    void clustersShown(int clusters);
    // A relayhud:// link was acted on: `found` false with the reason.
    void linkOpened(const QString& link, bool found, const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildCentral();
    void buildDock();
    void buildTestsDock();
    void connectTests();
    void connectLogs();
    void connectTriage();
    void connectTeam();
    // Starts, restarts or stops the team link to match the settings and the
    // keychain's password.
    void applyTeamSettings();
    void buildTriageMenus();
    void buildClustersDock();
    void buildCoverageDock();
    void buildChartsDock();
    void buildGatingDock();
    void showGatingFor(const QModelIndex& current);
    void applyCoverageSettings();
    void showCoverageFor(std::int64_t rowId);
    QString configPathForShownRun() const;
    void openConfigsInView(ConfigEditorWindow& editor);
    void updateViewCounts();
    void onClusterTagRequested(const std::vector<TriageTarget>& targets, const TriageEdit& edit);
    void pushTriage(std::vector<TriageTarget> targets, std::vector<std::optional<TriageTag>> before,
                    const TriageEdit& edit, bool keepNotes);
    QString triageAuthor() const;
    void onTriageRequested(const TriageRequest& request);
    void applyTriage(const std::vector<TriageTarget>& targets,
                     const std::vector<std::optional<TriageTag>>& values);
    void showExportTriageDialog();
    void showImportTriageDialog();
    void buildStatusBar();
    void buildMenus();
    void buildFileMenu();
    void buildViewMenu();
    void buildBackendsView();
    void buildDoctorView();
    void sizeToScreen();
    // The dock column (main_window_layout.cpp): its panels scroll inside
    // their docks, so no panel's content sets the window's minimum size.
    void buildSideColumn();
    QList<QDockWidget*> sideDocks() const;
    void setSideColumnShown(bool shown);
    void updateSideColumnAction();
    void applyDefaultDockSizes(int width);
    void growDocksForSelection();
    void restoreWindowState();
    void saveWindowState() const;

    void openCache();
    void configureSync();
    void applySettings(const AppSettings& next);
    void showSettingsDialog();
    void runSettingsDialog(const std::vector<Backend>& allowlist);
    void showAbout();
    void showOpenReportDialog(bool folder);
    void showOpenLogDialog();

    ArtifactAccess artifactAccess() const;
    void applyCredentials();
    void showTestsFor(std::int64_t rowId);
    void onTestsLoaded(const std::shared_ptr<const TestsPanelData>& loaded);
    void onArtifactsSynced(const ArtifactSyncOutcome& outcome);
    void onReportImported(qint64 testRunId, const QString& label, const QString& summary);

    void onSnapshot(const std::shared_ptr<MatrixSnapshot>& snapshot);
    void onSyncSucceeded(const SyncOutcome& outcome);
    void onSyncFailed(const QString& reason, int retryInSeconds);
    void onCurrentChanged(const QModelIndex& current);
    void onCellActivated(const QModelIndex& index);
    void showRunDetails(std::int64_t rowId, const QModelIndex& sourceIndex);
    void onRunDetailsLoaded(const RunDetails& details);
    void updateEmptyText();

    // Links and keys (main_window_links.cpp).
    void buildLinks();
    void actOnLink(const QString& text);
    void actOnRunLink(const QString& text, const AppLink& link);
    bool selectSourceCell(int row, int column);
    bool jumpToColumn(const JumpEntry& entry);
    // The pull-request view: show or hide a PR row's earlier heads; and
    // show the PR's earlier heads when `sha` is one of them.
    void togglePullRequestHeads(int proxyRow);
    void revealCommit(const QString& sha);
    void toggleShardGroup(const QString& family);
    // The current cell by what it shows, to find it again after the
    // model's rows or columns changed under it (main_window_views.cpp).
    struct CurrentRun {
        bool cell = false; // a cell was current
        qint64 run = 0;
        QString sha;        // its row's
        qint64 pr = 0;      // its row's PR, in the pull-request view
        std::string column; // matrixColumnKey of its column (a folded group's own)
        bool group = false; // a folded shard group's cell
        QString family;     // its shard group's, "" outside one
    };
    CurrentRun currentRun() const;
    void changeKeepingCurrent(const std::function<void()>& change, bool revealFolded);
    QModelIndex findCurrent(const CurrentRun& before) const;
    void selectPendingTest(std::int64_t rowId, bool loaded);
    void reportLink(const QString& link, bool found, const QString& message);
    void showCellMenu(const QPoint& pos);
    void copyCellLink(std::int64_t rowId);
    void openRunLink(const QString& text, const AppLink& link, std::int64_t rowId,
                     const std::optional<CheckRun>& run);
    void showCommitMenu(const QPoint& pos);
    void showTestMenu(const QPoint& pos);
    // Keyboard triage across the matrix, and the place kept through filters
    // (main_window_walk.cpp).
    void buildWalk();
    void walkFailures(bool forward);
    void walkCells(bool forward, bool wholeCell);
    std::vector<WalkCell> failedCells() const;
    WalkCell walkCellAt(const QModelIndex& index) const;
    void enterWalkedRun(std::int64_t rowId);
    QModelIndex landingCell(int proxyRow) const;
    CurrentRun placeToKeep() const;
    void settlePlace(const CurrentRun& before, bool revealFolded, bool outer, bool filtered);
    bool modelHasRun(qint64 run) const;
    void holdPlace();
    void restorePlace();

    SessionConfig m_config;
    // The rare one-row reads of a user's action (a link, the settings'
    // allowlist), off the GUI thread; a cell's details: m_detailsLoader.
    CacheReader* m_reader;
    bool m_settingsAsked = false; // the allowlist is being read for the dialog
    MatrixModel* m_model;
    MatrixFilterProxy* m_proxy;
    MatrixView* m_view = nullptr;
    FilterBar* m_filterBar = nullptr;
    QTabBar* m_viewTabs = nullptr;
    RunDetailsPanel* m_details = nullptr;
    RunDetailsLoader* m_detailsLoader = nullptr;
    // What the matrix knows of the cell being read that the cache does not:
    // a PR row's earlier head, the column's level.
    struct DetailsContext {
        std::optional<UpstreamCommit> commit;
        Level level = Level::Unknown;
        std::string backend; // the column's "org/repo"
    } m_detailsContext;
    QDockWidget* m_detailsDock = nullptr;
    SyncStatusWidget* m_status = nullptr;
    TestsPanel* m_testsPanel = nullptr;
    QDockWidget* m_testsDock = nullptr;
    CredentialStore* m_credentials;
    TestResultsController* m_tests;
    TriageController* m_triage;
    TeamClient* m_team;
    QUndoStack* m_undo;
    QTimer* m_marksReload = nullptr;
    ClustersPanel* m_clustersPanel = nullptr;
    QDockWidget* m_clustersDock = nullptr;
    CoveragePanel* m_coverage = nullptr;
    QDockWidget* m_coverageDock = nullptr;
    ChartsPanel* m_charts = nullptr;
    QDockWidget* m_chartsDock = nullptr;
    MergeGatingPanel* m_gating = nullptr;
    QDockWidget* m_gatingDock = nullptr;
    qint64 m_gatingPr = 0; // the current row's PR (0: none), read when the tab is seen
    WatchCoordinator* m_watcher = nullptr; // the watch, its tray icon and menu
    BackendsPanel* m_backends = nullptr;
    DoctorPanel* m_doctor = nullptr;
    QStackedWidget* m_centralStack = nullptr; // the matrix, or the backends overview
    static constexpr int kBackendsTab = 4;    // after the CommitView tabs
    static constexpr int kDoctorTab = 5;      // the integration doctor
    bool m_backendsStale = true;
    bool m_doctorStale = true;
    bool m_layoutRestored = false; // a saved dock layout was applied
    bool m_dockSizesSet = false;
    bool m_docksGrown = false;
    QAction* m_sideColumnAction = nullptr;
    // The docks the side column's toggle hid, and the one in front of each
    // tab group, to bring back as they were.
    QList<QDockWidget*> m_collapsedDocks;
    QList<QDockWidget*> m_collapsedFront;
    std::optional<TriageTarget> m_testsBase; // the shown run, as a triage target
    qint64 m_testsLoad = 0;
    bool m_testsReadFailed =
        false; // the shown run's last read failed: the next pass reads it again
    std::int64_t m_testsRowId = 0;
    CheckRunId m_testsCheckRunId; // the tests' run's relay id, for links; empty for an import
    QPointer<ReportWindow> m_lastReport;
    QPointer<LogWindow> m_lastLog;
    QPointer<ConfigEditorWindow> m_configEditor;
    qint64 m_logRequest = 0;
    QString m_logTest;
    SyncController* m_sync;
    SnapshotLoader* m_loader;
    QAction* m_syncAction = nullptr;
    QAction* m_hideGreenAction = nullptr;
    QAction* m_firstAttemptAction = nullptr;
    std::int64_t m_shownRowId = 0;
    bool m_keepingCurrent = false; // the panels wait while the model changes under the cell
    QString m_lastSyncError;
    QString m_cacheError;       // why the last snapshot could not be read (a damaged cache)
    QStringList m_pendingLinks; // until the first matrix has loaded
    bool m_matrixLoaded = false;
    QString m_pendingTest; // a run link's ?test=, selected when its run's tests show
    QString m_pendingTestLink;
    std::int64_t m_pendingTestRowId = 0;
    QAction* m_jumpAction = nullptr;
    JumpBox* m_jumpBox = nullptr;
    // A cell the filters hide: the panels keep showing its run, and it is
    // current again once a filter shows it.
    CurrentRun m_lostPlace;
    CurrentRun m_heldPlace; // while the filters change
    bool m_placeHeld = false;
    bool m_heldOuter = false;
    // A cell j / k / n / p moved to: its tests select their first (last)
    // untriaged failure once shown, and take the focus back if they had it.
    struct WalkEntry {
        std::int64_t rowId = 0;
        bool forward = true;
        bool focusTests = false;
    } m_walkEntry;
};

} // namespace relayhud::ui
