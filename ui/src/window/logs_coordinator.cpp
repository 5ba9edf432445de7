#include "relayhud/ui/window/logs_coordinator.h"

#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/logs/log_link.h"
#include "relayhud/ui/logs/log_viewer.h"
#include "relayhud/ui/logs/log_window.h"
#include "relayhud/ui/results/report_window.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStandardPaths>

namespace relayhud::ui {

namespace {

// JUnit reports, archives of them and folders go to a report window; every
// other file is read as a log.
bool isReportPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return true;
    const QString name = info.fileName().toLower();
    for (const char* suffix : {".xml", ".xml.gz", ".zip", ".tar", ".tar.gz", ".tgz"})
        if (name.endsWith(QLatin1String(suffix)))
            return true;
    return false;
}

} // namespace

LogsCoordinator::LogsCoordinator(Frame frame, QObject* parent) : QObject(parent), m_frame(frame)
{
    TestsCoordinator* tests = m_frame.tests;
    TestResultsController* controller = tests->controller();
    connect(tests->panel(), &TestsPanel::showInLogRequested, this,
            [this](qint64, const QString& identity) { showTestInLog(identity); });
    connect(controller, &TestResultsController::jobLogReady, this,
            [this](qint64 id, const QString& path, const QString& title) {
                if (id != m_logRequest)
                    return;
                LogWindow* window = openLog(path, title);
                // The download is over: the status bar says so, not "Downloading…".
                m_frame.status->showMessage(tr("Opened the job's log in its own window: %1")
                                                .arg(title.isEmpty() ? path : title));
                if (!m_logTest.isEmpty())
                    window->viewer()->goToTestFailure(m_logTest);
            });
    connect(controller, &TestResultsController::jobLogFailed, this,
            [this](qint64 id, const QString& reason) {
                if (id != m_logRequest)
                    return;
                m_frame.status->showMessage(tr("Cannot show the job's log: %1").arg(reason));
                emit logFailed(reason);
            });
    connect(controller, &TestResultsController::imported, this, &LogsCoordinator::onReportImported);
    connect(controller, &TestResultsController::importFailed, this, [this](const QString& reason) {
        m_frame.status->showMessage(tr("Could not open the report: %1").arg(reason));
        emit reportFailed(reason);
    });
}

void LogsCoordinator::showTestInLog(const QString& testIdentity)
{
    const CheckRunRow run = m_frame.tests->shownRun();
    if (!run)
        return;
    m_logTest = testIdentity;
    m_logRequest = m_frame.tests->controller()->loadJobLog(run);
    m_frame.status->showMessage(tr("Downloading the job's log…"));
}

LogWindow* LogsCoordinator::openLog(const QString& path, const QString& title)
{
    auto* window = new LogWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->resize(1200, 800);
    window->openFile(path, title);
    window->show();
    m_lastLog = window;
    emit logOpened(window);
    return window;
}

LogWindow* LogsCoordinator::lastLogWindow() const { return m_lastLog.data(); }

ReportWindow* LogsCoordinator::lastReportWindow() const { return m_lastReport.data(); }

void LogsCoordinator::openPaths(const QStringList& paths)
{
    QStringList reports;
    for (const QString& path : paths) {
        if (!QFileInfo::exists(path)) {
            if (isAppLink(path)) { // relayhud://sha/…, pr/…, run/…
                m_frame.links->openLink(path);
                continue;
            }
            if (const auto link = parseLogLink(path)) {
                auto* window = openLog(link->path);
                window->openLink(*link);
                continue;
            }
        }
        if (isReportPath(path))
            reports << path;
        else
            openLog(path);
    }
    openReports(reports);
}

void LogsCoordinator::showOpenLogDialog()
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    const QString path = QFileDialog::getOpenFileName(m_frame.window, tr("Open a log"), start,
                                                      tr("Logs (*.txt *.log *.gz);;All files (*)"));
    if (!path.isEmpty())
        openLog(path);
}

void LogsCoordinator::showOpenReportDialog(bool folder)
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    QStringList paths;
    if (folder) {
        const QString dir = QFileDialog::getExistingDirectory(
            m_frame.window, tr("Open a folder of reports"), start);
        if (!dir.isEmpty())
            paths << dir;
    } else {
        paths = QFileDialog::getOpenFileNames(
            m_frame.window, tr("Open test reports"), start,
            tr("Test reports and artifacts (*.xml *.xml.gz *.zip *.tar *.tar.gz *.tgz);;"
               "All files (*)"));
    }
    if (!paths.isEmpty())
        openReports(paths);
}

void LogsCoordinator::openReports(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_frame.status->showMessage(
        tr("Reading %n report path(s)…", nullptr, static_cast<int>(paths.size())));
    m_frame.tests->controller()->importPaths(paths);
}

void LogsCoordinator::onReportImported(qint64 testRunId, const QString& label,
                                       const QString& summary)
{
    auto* window = new ReportWindow(m_frame.settings->effectiveCachePath().toStdString(),
                                    TestRunId{testRunId}, label, summary);
    m_lastReport = window;
    window->show();
    m_frame.status->showMessage(tr("Opened %1: %2").arg(label, summary));
    emit reportOpened(window);
}

} // namespace relayhud::ui
