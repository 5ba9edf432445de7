// MainWindow: construction, menus and window state.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/resources.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/filter_bar.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/view_tabs.h"
#include "relayhud/ui/results/report_window.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/triage/triage_controller.h"
#include "relayhud/ui/upgrade/upgrade_review_window.h"
#include "relayhud/ui/watch/watch_controller.h"
#include "relayhud/ui/window/backends_coordinator.h"
#include "relayhud/ui/window/config_coordinator.h"
#include "relayhud/ui/window/coverage_coordinator.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/gating_coordinator.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/side_column.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/ui/window/triage_coordinator.h"
#include "window/watch_coordinator.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace relayhud::ui {

namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kView = QStringLiteral("window/view");
const QString kAttemptsHeader = QStringLiteral("window/attemptsHeader");
// 2: the docks moved right of the matrix (issue 17); older layouts are not
// restored over it.
constexpr int kLayoutVersion = 2;

void showAbout(QWidget* parent)
{
    QMessageBox::about(
        parent, QObject::tr("About RelayHUD"),
        QObject::tr(
            "<h3>RelayHUD %1</h3><p>A desktop HUD and triage tool for PyTorch's Cross-Repository "
            "CI Relay: downstream backend CI results by upstream commit.</p>"
            "<p>Results are the backends' own reports; only queue and execution times are "
            "measured by the relay.</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

// First start: the screen's working area, maximized; the matrix is the
// product's face and takes what the docks do not.
void sizeToScreen(QMainWindow& window, bool maximize)
{
    const QScreen* screen = QGuiApplication::primaryScreen();
    const QSize area = screen ? screen->availableGeometry().size() : QSize(1400, 860);
    window.resize(area.boundedTo(QSize(2560, 1600)).expandedTo(QSize(900, 600)));
    // Sessions that keep no window state (tests, screenshots) keep a plain size.
    if (maximize && screen && area.width() >= 1200)
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
}

} // namespace

MainWindow::MainWindow(SessionConfig config, QWidget* parent)
    : QMainWindow(parent), m_config(std::move(config)), m_reader(new CacheReader(this)),
      m_model(new MatrixModel(this)), m_proxy(new MatrixFilterProxy(this)),
      m_credentials(new CredentialStore(this)), m_syncController(new SyncController(this)),
      m_loader(new SnapshotLoader(this))
{
    initResources();
    setObjectName(QStringLiteral("RelayHudMainWindow"));
    // The platform adds the application's display name ("demo — RelayHUD").
    setWindowTitle(m_config.demo ? tr("demo") : QString());
    setWindowIcon(QIcon(QStringLiteral(":/relayhud/relayhud.svg")));
    m_proxy->setSourceModel(m_model);
    // The matrix is read on a worker while the window is built: the first
    // paint then waits on the slower of the two, not on both in turn.
    m_loader->setCachePath(m_config.settings.effectiveCachePath().toStdString());
    m_loader->setVerdictSources(verdictSources(m_config.settings));
    m_loader->hold(); // until the sync coordinator takes its snapshots
    m_loader->request(matrixQuery(m_config.settings));
    m_status = new SyncStatusWidget(this);
    statusBar()->addWidget(m_status, 1);
    statusBar()->setSizeGripEnabled(true);
    buildCentral();
    const AppSettings* settings = &m_config.settings;
    m_details = new DetailsCoordinator(this, m_proxy, settings);
    m_tests = new TestsCoordinator(this, m_details->dock());
    m_matrix = new MatrixCoordinator({m_model, m_proxy, m_view, m_status, m_tests}, this);
    m_sync = new SyncCoordinator({settings, m_reader, m_loader, m_syncController, m_model, m_proxy,
                                  m_view, m_filterBar, m_status, m_matrix},
                                 this);
    m_links = new LinksCoordinator(
        {this, m_reader, m_model, m_proxy, m_view, m_status, m_loader, m_matrix, m_tests}, this);
    m_logs = new LogsCoordinator({this, settings, m_status, m_tests, m_links}, this);
    m_coverage =
        new CoverageCoordinator({this, settings, m_status, m_tests, m_matrix, m_loader}, this);
    m_triage = new TriageCoordinator({this, settings, m_credentials, m_status, m_tests, m_matrix,
                                      [this] { m_sync->reloadMatrix(); }},
                                     this);
    m_gating = new GatingCoordinator({this, settings, m_proxy, m_view, m_viewTabs, m_tests}, this);
    m_configs =
        new ConfigCoordinator({settings, m_proxy, m_view, m_status, m_tests, m_details}, this);
    m_sideColumn =
        new SideColumn(this,
                       {m_details->dock(), m_tests->dock(), m_coverage->coverageDock(),
                        m_coverage->chartsDock(), m_triage->clustersDock(), m_gating->dock()},
                       m_view);
    m_watcher =
        new WatchCoordinator({this, &m_config.settings, m_model, m_view, m_status,
                              [this](qint64 run) { return m_matrix->selectRun(CheckRunRow{run}); },
                              m_config.persistWindow},
                             this);
    m_backends = new BackendsCoordinator({m_centralStack, m_viewTabs, m_proxy, m_status, watch(),
                                          m_matrix, settings, [this] { return artifactAccess(); }},
                                         this);
    buildMenus();
    setAcceptDrops(true);
    sizeToScreen(*this, m_config.persistWindow);
    restoreWindowState();
    connectParts();
    openCache();
    m_coverage->applySettings();
    if (m_config.sessionCredentials)
        m_credentials->useSessionOnly(*m_config.sessionCredentials);
    applyCredentials();
    if (!m_config.sessionCredentials)
        m_credentials->load(); // the keychain answers later
    m_triage->reloadClusters();
    if (m_config.syncOnStart)
        m_sync->syncNow();
    m_loader->release();
}

MainWindow::~MainWindow()
{
    m_syncController->shutdown();
    m_tests->controller()->shutdown();
}

void MainWindow::buildCentral()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_model->setShardGrouping(m_config.settings.groupShards);
    m_filterBar = new FilterBar(*m_proxy, central);
    m_viewTabs = new ViewTabs(*m_model, *m_proxy, central);
    connect(m_viewTabs, &ViewTabs::matrixChosen, this,
            [this] { m_centralStack->setCurrentIndex(0); });
    m_view = new MatrixView(central);
    m_view->setModel(m_proxy);
    m_view->setFrameShape(QFrame::NoFrame);
    m_centralStack = new QStackedWidget(central);
    m_centralStack->addWidget(m_view);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_viewTabs);
    layout->addWidget(m_centralStack, 1);
    setCentralWidget(central);
    m_proxy->setHideAllGreen(m_config.settings.hideAllGreen);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* sync = file->addAction(tr("&Sync now"), m_sync, &SyncCoordinator::syncNow);
    sync->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    QAction* open = file->addAction(tr("&Open Reports…"), this,
                                    [this] { m_logs->showOpenReportDialog(false); });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Report &Folder…"), this,
                    [this] { m_logs->showOpenReportDialog(true); });
    QAction* openLogAction =
        file->addAction(tr("Open &Log…"), m_logs, &LogsCoordinator::showOpenLogDialog);
    openLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addSeparator();
    QAction* settings = file->addAction(tr("S&ettings…"), this, &MainWindow::showSettingsDialog);
    settings->setShortcut(QKeySequence::Preferences);
    settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    m_triage->buildMenus(menuBar());
    QMenu* tools = menuBar()->addMenu(tr("T&ools"));
    QAction* editor = tools->addAction(tr("Outcome &Config Editor…"), this,
                                       [this] { m_configs->openEditorHere(); });
    editor->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    tools->addAction(tr("&Upgrade Review…"), this, [this] {
        auto* review = new UpgradeReviewWindow; // a window of its own, like a report's
        review->setAttribute(Qt::WA_DeleteOnClose);
        review->show();
    });
    buildViewMenu();
    m_watcher->buildMenu(menuBar());
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About RelayHUD"), this, [this] { showAbout(this); });
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* hideGreen = view->addAction(tr("&Hide green rows and columns"));
    hideGreen->setCheckable(true);
    hideGreen->setChecked(m_config.settings.hideAllGreen);
    connect(hideGreen, &QAction::toggled, m_proxy, &MatrixFilterProxy::setHideAllGreen);
    connect(m_proxy, &MatrixFilterProxy::filtersChanged, hideGreen, [this, hideGreen] {
        const QSignalBlocker blocker(hideGreen);
        hideGreen->setChecked(m_proxy->filters().hideAllGreen);
        m_config.settings.hideAllGreen = m_proxy->filters().hideAllGreen;
    });
    QAction* firstAttempt = view->addAction(tr("Show &first attempt instead of newest"));
    firstAttempt->setCheckable(true);
    firstAttempt->setChecked(m_config.settings.showFirstAttempt);
    connect(firstAttempt, &QAction::toggled, this, [this](bool first) {
        m_config.settings.showFirstAttempt = first;
        m_sync->reloadMatrix();
    });
    QAction* shards = view->addAction(tr("&Group shards into one column"));
    shards->setCheckable(true);
    shards->setChecked(m_config.settings.groupShards);
    shards->setStatusTip(tr("A job's shards share one column showing the worst status, as the "
                            "PyTorch HUD groups them; click a group's label to open it"));
    connect(shards, &QAction::toggled, this, [this](bool on) {
        m_config.settings.groupShards = on;
        m_model->setShardGrouping(on);
    });
    QAction* heads = view->addAction(tr("Show or hide the PR's earlier &heads"), this, [this] {
        if (m_view->currentIndex().isValid())
            m_matrix->togglePullRequestHeads(m_view->currentIndex().row());
    });
    heads->setShortcut(QKeySequence(Qt::Key_H));
    heads->setStatusTip(tr("In the Pull requests view: the current PR's earlier heads"));
    QAction* group = view->addAction(tr("Open or fold the shard &group"), this, [this] {
        m_matrix->toggleShardGroup(
            m_view->currentIndex().data(MatrixModel::ShardFamilyRole).toString());
    });
    group->setShortcut(QKeySequence(Qt::Key_G));
    QAction* reset =
        view->addAction(tr("&Reset filters"), m_proxy, &MatrixFilterProxy::resetFilters);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    QAction* find = view->addAction(tr("&Filter…"), this, [this] {
        m_filterBar->textEdit()->setFocus();
        m_filterBar->textEdit()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    view->addAction(m_links->jumpAction()); // Ctrl+K
    view->addSeparator();
    view->addAction(m_sideColumn->action()); // F9
    view->addAction(m_details->dock()->toggleViewAction());
    view->addAction(m_tests->dock()->toggleViewAction());
    view->addAction(m_coverage->coverageDock()->toggleViewAction());
    view->addAction(m_gating->dock()->toggleViewAction());
    QAction* backends = view->addAction(tr("&Backends overview"), this,
                                        [this] { showView(QStringLiteral("backends")); });
    backends->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    QAction* charts = m_coverage->chartsDock()->toggleViewAction();
    charts->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    view->addAction(charts);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    m_sideColumn->windowShown(m_layoutRestored);
}

QTabBar* MainWindow::commitViewTabs() const { return m_viewTabs; }

QStringList MainWindow::viewNames() { return ViewTabs::names(); }

bool MainWindow::showView(const QString& name) { return m_viewTabs->showView(name); }

void MainWindow::restoreWindowState()
{
    if (!m_config.persistWindow)
        return;
    QSettings store;
    restoreGeometry(store.value(kGeometry).toByteArray());
    m_layoutRestored = restoreState(store.value(kState).toByteArray(), kLayoutVersion);
    m_details->panel()->attemptsView()->horizontalHeader()->restoreState(
        store.value(kAttemptsHeader).toByteArray());
    showView(store.value(kView).toString()); // the view the user left
}

void MainWindow::saveWindowState() const
{
    QSettings store;
    if (m_config.persistWindow) {
        store.setValue(kGeometry, saveGeometry());
        store.setValue(kState, saveState(kLayoutVersion));
        store.setValue(kAttemptsHeader,
                       m_details->panel()->attemptsView()->horizontalHeader()->saveState());
        store.setValue(kView, m_viewTabs->currentName());
    }
    if (m_config.persistSettings)
        saveSettings(store, m_config.settings);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Quit closes the config editor first: its pending edits are saved or
    // dropped as the user says, or the quit waits.
    if (!m_configs->closeEditor()) {
        event->ignore();
        return;
    }
    saveWindowState();
    m_syncController->shutdown();
    m_tests->controller()->shutdown();
    m_triage->controller()->shutdown();
    QMainWindow::closeEvent(event);
}

WatchController* MainWindow::watch() const { return m_watcher->controller(); }

} // namespace relayhud::ui
