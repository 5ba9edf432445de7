// MainWindow: construction, menus and window state.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/resources.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/details/link_label.h"
#include "relayhud/ui/details/run_details_loader.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/filter_bar.h"
#include "relayhud/ui/matrix/job_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/report_window.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/triage/team_client.h"
#include "relayhud/ui/triage/triage_controller.h"
#include "relayhud/ui/watch/watch_controller.h"
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
// The dock column before a cell is selected, and the share of the window it
// grows to when one is (unless the user sized it).
constexpr int kCompactDockWidth = 380;
constexpr double kOpenDockShare = 0.36;
constexpr int kOpenDockLeast = 570;

} // namespace

MainWindow::MainWindow(SessionConfig config, QWidget* parent)
    : QMainWindow(parent), m_config(std::move(config)), m_reader(new CacheReader(this)),
      m_model(new MatrixModel(this)), m_proxy(new MatrixFilterProxy(this)),
      m_credentials(new CredentialStore(this)), m_tests(new TestResultsController(this)),
      m_triage(new TriageController(this)), m_team(new TeamClient(this)),
      m_undo(new QUndoStack(this)), m_sync(new SyncController(this)),
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
    m_loader->hold(); // until onSnapshot is connected below
    reloadMatrix();
    buildCentral();
    buildDock();
    buildTestsDock();
    buildCoverageDock();
    buildChartsDock();
    buildClustersDock();
    buildGatingDock();
    buildSideColumn();
    buildStatusBar();
    buildLinks();
    buildWalk();
    m_watcher = new WatchCoordinator({this, &m_config.settings, m_model, m_view, m_status,
                                      [this](qint64 run) { return selectRunRow(run); },
                                      m_config.persistWindow},
                                     this);
    buildBackendsView();
    buildDoctorView();
    buildMenus();
    setAcceptDrops(true);
    sizeToScreen();
    restoreWindowState();

    connect(m_loader, &SnapshotLoader::loaded, this, &MainWindow::onSnapshot);
    connect(m_loader, &SnapshotLoader::failed, this, [this](const QString& reason) {
        m_cacheError = reason;
        m_status->showCacheError(reason);
        updateEmptyText();
    });
    connect(m_sync, &SyncController::started, this, [this] {
        m_status->showSyncing({}, 0, 0);
        updateEmptyText();
    });
    connect(m_proxy, &MatrixFilterProxy::filtersChanged, this, &MainWindow::updateEmptyText);
    connect(m_sync, &SyncController::progressed, m_status, &SyncStatusWidget::showSyncing);
    connect(m_sync, &SyncController::succeeded, this, &MainWindow::onSyncSucceeded);
    connect(m_sync, &SyncController::failed, this, &MainWindow::onSyncFailed);

    connectTests();
    connectLogs();
    connectTriage();
    connectTeam();
    openCache();
    applyCoverageSettings();
    if (m_config.sessionCredentials)
        m_credentials->useSessionOnly(*m_config.sessionCredentials);
    applyCredentials();
    if (!m_config.sessionCredentials)
        m_credentials->load(); // the keychain answers later
    reloadClusters();
    if (m_config.syncOnStart)
        m_sync->syncNow();
    m_loader->release();
}

MainWindow::~MainWindow()
{
    m_sync->shutdown();
    m_tests->shutdown();
}

void MainWindow::buildCentral()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_model->setShardGrouping(m_config.settings.groupShards);
    m_filterBar = new FilterBar(*m_proxy, central);
    m_viewTabs = new QTabBar(central);
    m_viewTabs->setObjectName(QStringLiteral("commitViews"));
    m_viewTabs->setDrawBase(false);
    m_viewTabs->setExpanding(false);
    // One tab per CommitView, in its order, then the backends overview.
    m_viewTabs->addTab(tr("All commits"));
    m_viewTabs->addTab(tr("Pull requests"));
    m_viewTabs->addTab(tr("Nightly && periodic"));
    m_viewTabs->addTab(tr("Release branches"));
    m_viewTabs->setTabToolTip(0, tr("Every upstream commit the backends ran on"));
    m_viewTabs->setTabToolTip(1, tr("One row per upstream pull request: its newest head, and each "
                                    "job's latest run across its heads, as the PyTorch HUD's "
                                    "per-backend page shows it, across backends. Click a PR's "
                                    "heads to see the earlier ones."));
    m_viewTabs->setTabToolTip(2, tr("Scheduled downstream runs (nightly, periodic): one row per "
                                    "upstream SHA they tested"));
    m_viewTabs->setTabToolTip(3, tr("Commits aimed at release/* branches, where the data says "
                                    "which branch a commit targets (the PyTorch HUD has no release "
                                    "view)"));
    connect(m_viewTabs, &QTabBar::currentChanged, this, [this](int index) {
        // The last tabs are the backends overview and the doctor, in the matrix's place.
        if (index == kBackendsTab) {
            m_centralStack->setCurrentIndex(1);
            reloadBackends();
            return;
        }
        if (index == kDoctorTab) {
            m_centralStack->setCurrentIndex(2);
            reloadDoctor();
            return;
        }
        m_centralStack->setCurrentIndex(0);
        m_proxy->setCommitView(static_cast<CommitView>(index));
    });
    connect(m_proxy, &MatrixFilterProxy::filtersChanged, this, [this] {
        const QSignalBlocker blocker(m_viewTabs);
        m_viewTabs->setCurrentIndex(static_cast<int>(m_proxy->filters().view));
        m_centralStack->setCurrentIndex(0);
    });
    connect(m_model, &MatrixModel::merged, this, &MainWindow::updateViewCounts);
    m_view = new MatrixView(central);
    m_view->setModel(m_proxy);
    m_view->setFrameShape(QFrame::NoFrame);
    connect(m_view->commitHeader(), &CommitHeaderView::pullRequestToggled, this,
            [this](int row) { togglePullRequestHeads(row); });
    connect(m_view->jobHeader(), &JobHeaderView::shardGroupToggled, this, [this](int column) {
        toggleShardGroup(
            m_proxy->headerData(column, Qt::Horizontal, MatrixModel::ShardFamilyRole).toString());
    });
    m_centralStack = new QStackedWidget(central);
    m_centralStack->addWidget(m_view);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_viewTabs);
    layout->addWidget(m_centralStack, 1);
    setCentralWidget(central);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    connect(m_view, &MatrixView::cellActivated, this, &MainWindow::onCellActivated);
    m_proxy->setHideAllGreen(m_config.settings.hideAllGreen);
}

void MainWindow::buildDock()
{
    m_details = new RunDetailsPanel(this);
    m_detailsDock = new QDockWidget(tr("Run details"), this);
    m_detailsDock->setObjectName(QStringLiteral("runDetailsDock"));
    m_detailsDock->setWidget(m_details);
    m_detailsDock->setMinimumWidth(300);
    addDockWidget(Qt::RightDockWidgetArea, m_detailsDock);
    connect(m_details, &RunDetailsPanel::linkActivated, this, &openWebUrl);
    m_detailsLoader = new RunDetailsLoader(this);
    connect(m_detailsLoader, &RunDetailsLoader::loaded, this, &MainWindow::onRunDetailsLoaded);
    connect(m_detailsLoader, &RunDetailsLoader::failed, this,
            [this](CheckRunRow rowId, const QString& message) {
                if (rowId.value == m_shownRowId)
                    m_details->showMessage(tr("Cannot read this run: %1").arg(message));
            });
}

void MainWindow::buildStatusBar()
{
    m_status = new SyncStatusWidget(this);
    statusBar()->addWidget(m_status, 1);
    statusBar()->setSizeGripEnabled(true);
}

void MainWindow::buildMenus()
{
    buildFileMenu();
    buildTriageMenus();
    buildViewMenu();
    m_watcher->buildMenu(menuBar());
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About RelayHUD"), this, &MainWindow::showAbout);
}

void MainWindow::buildFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_syncAction = file->addAction(tr("&Sync now"), this, &MainWindow::syncNow);
    m_syncAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    QAction* open =
        file->addAction(tr("&Open Reports…"), this, [this] { showOpenReportDialog(false); });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Report &Folder…"), this, [this] { showOpenReportDialog(true); });
    QAction* openLogAction =
        file->addAction(tr("Open &Log…"), this, &MainWindow::showOpenLogDialog);
    openLogAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addSeparator();
    QAction* settings = file->addAction(tr("S&ettings…"), this, &MainWindow::showSettingsDialog);
    settings->setShortcut(QKeySequence::Preferences);
    settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
}

void MainWindow::buildViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_hideGreenAction = view->addAction(tr("&Hide green rows and columns"));
    m_hideGreenAction->setCheckable(true);
    m_hideGreenAction->setChecked(m_config.settings.hideAllGreen);
    connect(m_hideGreenAction, &QAction::toggled, m_proxy, &MatrixFilterProxy::setHideAllGreen);
    connect(m_proxy, &MatrixFilterProxy::filtersChanged, this, [this] {
        const QSignalBlocker blocker(m_hideGreenAction);
        m_hideGreenAction->setChecked(m_proxy->filters().hideAllGreen);
        m_config.settings.hideAllGreen = m_proxy->filters().hideAllGreen;
    });
    m_firstAttemptAction = view->addAction(tr("Show &first attempt instead of newest"));
    m_firstAttemptAction->setCheckable(true);
    m_firstAttemptAction->setChecked(m_config.settings.showFirstAttempt);
    connect(m_firstAttemptAction, &QAction::toggled, this, [this](bool first) {
        m_config.settings.showFirstAttempt = first;
        reloadMatrix();
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
            togglePullRequestHeads(m_view->currentIndex().row());
    });
    heads->setShortcut(QKeySequence(Qt::Key_H));
    heads->setStatusTip(tr("In the Pull requests view: the current PR's earlier heads"));
    QAction* group = view->addAction(tr("Open or fold the shard &group"), this, [this] {
        toggleShardGroup(m_view->currentIndex().data(MatrixModel::ShardFamilyRole).toString());
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
    view->addAction(m_jumpAction); // Ctrl+K
    view->addSeparator();
    view->addAction(m_sideColumnAction); // F9
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_testsDock->toggleViewAction());
    view->addAction(m_coverageDock->toggleViewAction());
    view->addAction(m_gatingDock->toggleViewAction());
    QAction* backends =
        view->addAction(tr("&Backends overview"), this, &MainWindow::showBackendsOverview);
    backends->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    QAction* charts = m_chartsDock->toggleViewAction();
    charts->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    view->addAction(charts);
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About RelayHUD"),
        tr("<h3>RelayHUD %1</h3><p>A desktop HUD and triage tool for PyTorch's Cross-Repository "
           "CI Relay: downstream backend CI results by upstream commit.</p>"
           "<p>Results are the backends' own reports; only queue and execution times are "
           "measured by the relay.</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

// First start: the screen's working area, maximized; the matrix is the
// product's face and takes what the docks do not.
void MainWindow::sizeToScreen()
{
    const QScreen* screen = QGuiApplication::primaryScreen();
    const QSize area = screen ? screen->availableGeometry().size() : QSize(1400, 860);
    resize(area.boundedTo(QSize(2560, 1600)).expandedTo(QSize(900, 600)));
    // Sessions that keep no window state (tests, screenshots) keep a plain size.
    if (m_config.persistWindow && screen && area.width() >= 1200)
        setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_dockSizesSet) {
        m_dockSizesSet = true;
        if (!m_layoutRestored)
            applyDefaultDockSizes(kCompactDockWidth);
    }
}

void MainWindow::applyDefaultDockSizes(int width)
{
    resizeDocks({m_detailsDock}, {width}, Qt::Horizontal);
    const int column = std::max(400, height() - 120);
    // The run's details scroll; the tests (a table and a failure's details)
    // need the room more.
    // On a laptop screen the run's heading and first fields show above the
    // tests' table and details.
    const int details = height() < 900 ? column / 4 : column / 3;
    resizeDocks({m_detailsDock, m_testsDock}, {details, column - details}, Qt::Vertical);
}

// The docks start compact; the first selected cell opens them to a third of
// the window, unless the user has already sized them.
void MainWindow::growDocksForSelection()
{
    if (m_docksGrown || m_layoutRestored)
        return;
    m_docksGrown = true;
    if (m_detailsDock->isFloating() || m_detailsDock->width() > kCompactDockWidth + 8)
        return;
    // At least the tests panel's width on a laptop screen (1366 px): its
    // buttons and "Show in log" whole, the matrix keeping 700 px.
    const int share = std::max(static_cast<int>(width() * kOpenDockShare), kOpenDockLeast);
    const int wanted =
        std::clamp(share, kCompactDockWidth, std::max(kCompactDockWidth, width() - 700));
    resizeDocks({m_detailsDock}, {wanted}, Qt::Horizontal);
    // The narrower matrix still shows the selected cell: laid out now, so
    // the scroll reads its new width (a queued scroll raced the layout).
    layout()->activate();
    if (m_view->currentIndex().isValid())
        m_view->scrollTo(m_view->currentIndex());
}

QStringList MainWindow::viewNames()
{
    // The view tabs' order: CommitView's, then the backends overview and the doctor.
    return {QStringLiteral("commits"), QStringLiteral("prs"),      QStringLiteral("nightly"),
            QStringLiteral("release"), QStringLiteral("backends"), QStringLiteral("doctor")};
}

bool MainWindow::showView(const QString& name)
{
    const int tab = static_cast<int>(viewNames().indexOf(name));
    if (tab < 0)
        return false;
    m_viewTabs->setCurrentIndex(tab);
    return true;
}

void MainWindow::restoreWindowState()
{
    if (!m_config.persistWindow)
        return;
    QSettings store;
    restoreGeometry(store.value(kGeometry).toByteArray());
    m_layoutRestored = restoreState(store.value(kState).toByteArray(), kLayoutVersion);
    m_details->attemptsView()->horizontalHeader()->restoreState(
        store.value(kAttemptsHeader).toByteArray());
    showView(store.value(kView).toString()); // the view the user left
}

void MainWindow::saveWindowState() const
{
    QSettings store;
    if (m_config.persistWindow) {
        store.setValue(kGeometry, saveGeometry());
        store.setValue(kState, saveState(kLayoutVersion));
        store.setValue(kAttemptsHeader, m_details->attemptsView()->horizontalHeader()->saveState());
        store.setValue(kView, viewNames().value(m_viewTabs->currentIndex()));
    }
    if (m_config.persistSettings)
        saveSettings(store, m_config.settings);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Quit closes the config editor first: its pending edits are saved or
    // dropped as the user says, or the quit waits.
    if (m_configEditor && !m_configEditor->close()) {
        event->ignore();
        return;
    }
    saveWindowState();
    m_sync->shutdown();
    m_tests->shutdown();
    m_triage->shutdown();
    QMainWindow::closeEvent(event);
}

WatchController* MainWindow::watch() const { return m_watcher->controller(); }

} // namespace relayhud::ui
