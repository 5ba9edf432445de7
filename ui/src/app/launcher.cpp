#include "relayhud/ui/app/launcher.h"

#include "relayhud/ui/backends/doctor_panel.h"

#include "relayhud/ui/app/demo_simulator.h"
#include "relayhud/ui/app/instance_channel.h"
#include "relayhud/ui/app/window_shot.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/gating/merge_gating_panel.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/logs/log_link.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/window/backends_coordinator.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/gating_coordinator.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include <algorithm>
#include <cstdio>

namespace relayhud::ui {

Launcher::Launcher(LaunchOptions options, QObject* parent)
    : QObject(parent), m_options(std::move(options))
{
    m_sinceStart.start();
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (m_finishing && m_window && m_window->backends()->doctorPanel()->isVisible()
            && !m_artifactsSynced)
            return fail(tr("the first artifact pass did not end within %1 s")
                            .arg(kArtifactsTimeoutMs / 1000));
        fail(m_finishing ? tr("the selected cell's tests did not show within %1 s%2")
                               .arg(kHeadlessTimeoutMs / 1000)
                               .arg(m_lastTestsError.isEmpty()
                                        ? QString()
                                        : tr(" (last read: %1)").arg(m_lastTestsError))
             : m_synced ? tr("the matrix stayed empty after the sync")
                        : tr("no successful sync within %1 s").arg(kHeadlessTimeoutMs / 1000));
    });
}

// The window (and its cache connections) goes before the simulator and its
// temporary directory.
Launcher::~Launcher()
{
    m_window.reset();
    m_simulator.reset();
    m_channel.reset();
}

bool Launcher::headless() const
{
    return m_options.mode == LaunchOptions::Mode::SelfTest
           || m_options.mode == LaunchOptions::Mode::Screenshot;
}

void Launcher::start()
{
    if (m_options.mode == LaunchOptions::Mode::Normal)
        startNormal();
    else if (m_options.mode == LaunchOptions::Mode::Demo)
        startDemo();
    else
        startSimulator();
}

void Launcher::startNormal()
{
    QSettings store;
    SessionConfig config;
    config.settings = loadSettings(store);
    if (!m_options.cachePath.isEmpty())
        config.settings.cachePath = m_options.cachePath;
    if (!m_options.hudUrl.isEmpty())
        config.settings.hudUrl = m_options.hudUrl;
    if (!m_options.teamServer.isEmpty())
        config.settings.teamServer = m_options.teamServer;
    config.persistSettings = m_options.cachePath.isEmpty() && m_options.hudUrl.isEmpty()
                             && m_options.teamServer.isEmpty();
    if (m_options.exitAfterPaint) {
        config.persistWindow = false;
        config.syncOnStart = false;
        openNormalWindow(config); // a measurement: never another instance's
        return;
    }
    // One window per cache: hand the arguments to the instance showing it.
    const Result<QString> name =
        InstanceChannel::serverNameFor(config.settings.effectiveCachePath());
    if (!name) { // no folder of the user's own: this window runs on its own
        std::fprintf(stderr, "relayhud: links from other instances will not reach this one: %s\n",
                     name.message().c_str());
        openNormalWindow(config);
        return;
    }
    m_channel = std::make_unique<InstanceChannel>(*name);
    connect(m_channel.get(), &InstanceChannel::forwarded, this, [this] {
        std::fprintf(stderr, "relayhud: the running instance took the arguments\n");
        exitLater(0);
    });
    // Another user holds the socket: nothing was sent, and this window opens
    // on its own (it cannot listen where another listens).
    connect(m_channel.get(), &InstanceChannel::refused, this, [this, config](const QString& why) {
        std::fprintf(stderr, "relayhud: %s; this window runs on its own\n", qPrintable(why));
        m_channel->disconnect(this);
        openNormalWindow(config);
    });
    connect(m_channel.get(), &InstanceChannel::alone, this, [this, config](const QString&) {
        if (!m_channel->listen())
            std::fprintf(stderr,
                         "relayhud: links from other instances will not reach this one: "
                         "%s\n",
                         qPrintable(m_channel->errorString()));
        connect(m_channel.get(), &InstanceChannel::received, this, &Launcher::onForwardedArguments);
        openOrOfferToDemo(config);
    });
    m_channel->forward(forwardable(m_options.openPaths));
}

// No window shows this cache. Links (relayhud://pr/N, ...) go to a running
// demo when there is one: they were most likely copied from it, and a new
// window would sync the user's own cache for a place that is not in it.
void Launcher::openOrOfferToDemo(const SessionConfig& config)
{
    const bool links = std::any_of(m_options.openPaths.begin(), m_options.openPaths.end(),
                                   [](const QString& path) { return isAppLink(path); });
    const Result<QString> demo = InstanceChannel::demoServerName();
    if (!links || !demo) {
        openNormalWindow(config);
        return;
    }
    m_demoChannel = std::make_unique<InstanceChannel>(*demo);
    connect(m_demoChannel.get(), &InstanceChannel::forwarded, this, [this] {
        std::fprintf(stderr, "relayhud: the running demo took the arguments\n");
        exitLater(0);
    });
    connect(m_demoChannel.get(), &InstanceChannel::alone, this, [this, config](const QString&) {
        m_demoChannel->disconnect(this);
        openNormalWindow(config);
    });
    m_demoChannel->forward(forwardable(m_options.openPaths));
}

// A second `--demo LINK` hands the link to the demo already running; a
// `--demo` alone starts another demo.
void Launcher::startDemo()
{
    const Result<QString> demo = InstanceChannel::demoServerName();
    if (!demo) {
        std::fprintf(stderr, "relayhud: links will not reach this demo: %s\n",
                     demo.message().c_str());
        startSimulator();
        return;
    }
    m_demoChannel = std::make_unique<InstanceChannel>(*demo);
    if (m_options.openPaths.isEmpty()) {
        listenAsDemo();
        return;
    }
    connect(m_demoChannel.get(), &InstanceChannel::forwarded, this, [this] {
        std::fprintf(stderr, "relayhud: the running demo took the arguments\n");
        exitLater(0);
    });
    connect(m_demoChannel.get(), &InstanceChannel::alone, this, [this](const QString&) {
        m_demoChannel->disconnect(this);
        listenAsDemo();
    });
    m_demoChannel->forward(forwardable(m_options.openPaths));
}

// Becomes the demo links reach (unless another demo already is), then starts.
void Launcher::listenAsDemo()
{
    if (m_demoChannel->listen())
        connect(m_demoChannel.get(), &InstanceChannel::received, this,
                &Launcher::onForwardedArguments);
    else
        std::fprintf(stderr, "relayhud: links will reach the other demo, not this one: %s\n",
                     qPrintable(m_demoChannel->errorString()));
    startSimulator();
}

void Launcher::openNormalWindow(const SessionConfig& config)
{
    createWindow(config);
    if (m_options.exitAfterPaint)
        connect(m_window->sync(), &SyncCoordinator::matrixRefreshed, this,
                [this](int rows, int) { exitAfterFirstPaint(rows); });
    connect(m_window->links(), &LinksCoordinator::linkOpened, this,
            [](const QString& link, bool found, const QString& message) {
                std::fprintf(stderr, "relayhud: %s: %s%s\n", qPrintable(link),
                             found ? "" : "not opened: ", qPrintable(message));
            });
    m_window->logs()->openPaths(m_options.openPaths);
}

// Another `relayhud` with the same cache: raise the window and open its links
// and files here.
void Launcher::onForwardedArguments(const QStringList& arguments)
{
    if (!m_window) { // a demo whose simulator is still starting opens them once ready
        m_options.openPaths << arguments;
        return;
    }
    if (m_window->isMinimized())
        m_window->showNormal();
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
    m_window->logs()->openPaths(arguments);
}

QStringList Launcher::forwardable(const QStringList& arguments)
{
    QStringList out;
    for (const QString& argument : arguments) {
        const QFileInfo file(argument);
        if (file.exists()) {
            out << file.absoluteFilePath();
            continue;
        }
        // PATH:LINE or PATH:FIRST-LAST of a file here.
        auto lines = parseLogLink(argument);
        if (lines && !argument.startsWith(u"relayhud:", Qt::CaseInsensitive)
            && QFileInfo::exists(lines->path)) {
            lines->path = QFileInfo(lines->path).absoluteFilePath();
            out << logLinkPlain(*lines);
            continue;
        }
        out << argument;
    }
    return out;
}

// The first matrix built from the cache, painted synchronously: what a user
// waits for at start.
void Launcher::exitAfterFirstPaint(int rows)
{
    if (m_finishing)
        return;
    m_finishing = true;
    m_window->matrix()->view()->viewport()->repaint();
    std::printf("first paint of %d rows after %lld ms\n", rows,
                static_cast<long long>(m_sinceStart.elapsed()));
    std::fflush(stdout);
    exitLater(rows > 0 ? 0 : 1);
}

void Launcher::startSimulator()
{
    if (headless()) {
        m_deadline.start(kHeadlessTimeoutMs);
        std::fprintf(stderr, "relayhud: starting the simulator\n");
    }
    m_simulator = std::make_unique<DemoSimulator>();
    connect(m_simulator.get(), &DemoSimulator::ready, this, &Launcher::onSimulatorReady);
    connect(m_simulator.get(), &DemoSimulator::failed, this, &Launcher::onSimulatorFailed);
    m_simulator->start(m_options.simulator);
}

void Launcher::onSimulatorReady(const QString& baseUrl)
{
    SessionConfig config;
    config.settings.hudUrl = baseUrl;
    config.settings.cachePath = m_simulator->cachePath();
    config.settings.historyDays = 30;
    const ArtifactSettings artifacts = m_simulator->artifactSettings();
    config.settings.githubApiUrl = QString::fromStdString(artifacts.githubApiUrl);
    config.settings.s3Endpoint = QString::fromStdString(artifacts.s3Endpoint);
    config.sessionCredentials = m_simulator->credentials();
    // Every run's test results, so each green gets its verdict mark.
    config.settings.artifactPolicy = ArtifactPolicy::AllRuns;
    config.settings.outcomeConfigs = m_simulator->outcomeConfigs();
    // Two demos given one --server share their tags, as a team would.
    config.settings.teamServer = m_options.teamServer;
    config.demo = true;
    config.persistWindow = false;
    config.persistSettings = false;
    createWindow(config);
    if (headless()) {
        m_deadline.start(kHeadlessTimeoutMs); // the sync's own 30 s, from now
        watchHeadless();
    }
    m_window->logs()->openPaths(m_options.openPaths);
}

void Launcher::onSimulatorFailed(const QString& reason)
{
    if (headless()) {
        fail(tr("simulator: %1").arg(reason));
        return;
    }
    // The reason may quote the simulator's stderr: plain text only.
    QMessageBox box(
        QMessageBox::Critical, tr("RelayHUD demo"),
        tr("The demo needs the local HUD simulator, which did not start:\n\n%1").arg(reason));
    box.setTextFormat(Qt::PlainText);
    box.exec();
    exitLater(1);
}

void Launcher::createWindow(const SessionConfig& config)
{
    m_window = std::make_unique<MainWindow>(config);
    // Offscreen, a window the size of the screen it pictures (--size), as a
    // window manager would size it (window_shot.h).
    if (m_options.mode == LaunchOptions::Mode::Screenshot)
        sizeLikeAScreen(*m_window, m_options.screenshotSize);
    if (!m_options.view.isEmpty())
        m_window->showView(m_options.view);
    m_window->show();
}

void Launcher::watchHeadless()
{
    connect(m_window->sync(), &SyncCoordinator::syncSucceeded, this, [this] { m_synced = true; });
    connect(m_window->sync(), &SyncCoordinator::artifactsSynced, this,
            [this] { m_artifactsSynced = true; });
    connect(m_window->sync(), &SyncCoordinator::syncFailed, this,
            [this](const QString& reason) { fail(tr("sync: %1").arg(reason)); });
    connect(m_window->sync(), &SyncCoordinator::matrixRefreshed, this,
            &Launcher::onMatrixRefreshed);
}

void Launcher::onMatrixRefreshed(int rows, int columns)
{
    if (!m_synced || rows == 0 || m_finishing)
        return;
    m_finishing = true;
    m_deadline.stop();
    if (m_options.mode == LaunchOptions::Mode::SelfTest)
        finishSelfTest(rows, columns);
    else
        shootWhenTestsShown();
}

// The screenshot shows a failed cell with its tests, as a user sees it.
void Launcher::shootWhenTestsShown()
{
    connect(m_window->tests(), &TestsCoordinator::testsShown, this, [this](qint64, int, int, int) {
        // Let layouts settle before grabbing.
        QTimer::singleShot(300, this, &Launcher::finishScreenshot);
    });
    m_deadline.start(kHeadlessTimeoutMs);
    m_window->matrix()->selectInterestingCell();
}

// Selecting a failed cell must show its run and, from its artifacts, its
// failing tests: the path a user takes first. Both arrive from workers, in
// either order.
void Launcher::finishSelfTest(int rows, int columns)
{
    auto passIfDone = [this] {
        if (m_selfTestTestsOk && m_selfTestDetailsOk)
            exitLater(0);
    };
    connect(m_window->tests(), &TestsCoordinator::testsShown, this,
            [this, rows, columns, passIfDone](std::int64_t, int tests, int failing, int histories) {
                if (tests == 0 || failing == 0 || histories == 0)
                    return fail(tr("the failed cell showed %1 tests, %2 failing, %3 histories")
                                    .arg(tests)
                                    .arg(failing)
                                    .arg(histories));
                std::printf("self-test ok: %d rows x %d columns; the failed cell shows %d tests, "
                            "%d failing with %d history strips, %lld ms after start\n",
                            rows, columns, tests, failing, histories,
                            static_cast<long long>(m_sinceStart.elapsed()));
                std::fflush(stdout);
                m_selfTestTestsOk = true;
                passIfDone();
            });
    // A read that failed is said, and waited past: the next artifact pass
    // reads the shown run again (the deadline still holds).
    connect(m_window->tests(), &TestsCoordinator::testsFailed, this, [this](const QString& reason) {
        m_lastTestsError = reason;
        std::fprintf(stderr, "relayhud: the failed cell's tests: %s; waiting for the next read\n",
                     qPrintable(reason));
    });
    connect(m_window->details(), &DetailsCoordinator::runDetailsShown, this, [this, passIfDone] {
        if (m_window->details()->panel()->titleText().isEmpty())
            return fail(tr("selecting a cell did not show its run's details"));
        m_selfTestDetailsOk = true;
        passIfDone();
    });
    m_deadline.start(kHeadlessTimeoutMs);
    if (!m_window->matrix()->selectInterestingCell())
        return fail(tr("the matrix has rows but no runs"));
}

void Launcher::finishScreenshot()
{
    if (m_shot)
        return;
    // The doctor's page reads each backend's workflows after the sync, and
    // the job logs of the first artifact pass: a picture of it waits for both
    // (a deadline still holds).
    DoctorPanel* doctor = m_window->backends()->doctorPanel();
    if (doctor->isVisible() && !m_artifactsSynced) {
        m_deadline.start(kArtifactsTimeoutMs);
        connect(m_window->sync(), &SyncCoordinator::artifactsSynced, this,
                &Launcher::finishScreenshot, Qt::SingleShotConnection);
        return;
    }
    if (doctor->isVisible() && doctor->isLoading()) {
        connect(doctor, &DoctorPanel::loaded, this, &Launcher::finishScreenshot,
                Qt::SingleShotConnection);
        return;
    }
    // The Merge gating tab (in front in the Pull requests view) reads its PR on a worker.
    if (MergeGatingPanel* gating = m_window->gating()->panel();
        gating->isVisible() && gating->isLoading()) {
        connect(gating, &MergeGatingPanel::loaded, this, &Launcher::finishScreenshot,
                Qt::SingleShotConnection);
        return;
    }
    m_shot = true;
    m_deadline.stop();
    // A selected cell fills the panels: a window manager would keep the
    // window at least at its minimum size, and so does the picture.
    if (const QString problem = screenFitProblem(*m_window, m_options.screenshotSize);
        !problem.isEmpty()) {
        std::fprintf(stderr, "relayhud: %s; the picture shows it at that size\n",
                     qPrintable(problem));
        sizeLikeAScreen(*m_window, m_options.screenshotSize);
    }
    const QPixmap shot = shootWindow(*m_window);
    if (!shot.save(m_options.screenshotPath))
        return fail(tr("cannot write %1").arg(m_options.screenshotPath));
    std::printf("screenshot saved: %s (%dx%d)\n", qPrintable(m_options.screenshotPath),
                shot.width(), shot.height());
    std::fflush(stdout);
    exitLater(0);
}

void Launcher::fail(const QString& reason)
{
    m_deadline.stop();
    const char* what = m_options.mode == LaunchOptions::Mode::SelfTest ? "self-test" : "relayhud";
    std::fprintf(stderr, "%s failed: %s\n", what, qPrintable(reason));
    exitLater(1);
}

void Launcher::exitLater(int code)
{
    if (m_exiting)
        return; // the first verdict stands
    m_exiting = true;
    // exit() before exec() would be lost; queue it behind the current event.
    QTimer::singleShot(0, qApp, [code] { QCoreApplication::exit(code); });
}

} // namespace relayhud::ui
