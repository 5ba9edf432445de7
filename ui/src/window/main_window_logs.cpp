// MainWindow: logs. "Show in log" from a failing test (the job's log from
// GitHub, opened at the test's failure), File > Open Log…, and the routing of
// paths from the command line and drops to reports or logs.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/logs/log_link.h"
#include "relayhud/ui/logs/log_viewer.h"
#include "relayhud/ui/logs/log_window.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_panel.h"

#include <QFileDialog>
#include <QFileInfo>
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

void MainWindow::connectLogs()
{
    connect(m_testsPanel, &TestsPanel::showInLogRequested, this,
            [this](qint64, const QString& identity) { showTestInLog(identity); });
    connect(m_tests, &TestResultsController::jobLogReady, this,
            [this](qint64 id, const QString& path, const QString& title) {
                if (id != m_logRequest)
                    return;
                LogWindow* window = openLog(path, title);
                // The download is over: the status bar says so, not "Downloading…".
                m_status->showMessage(tr("Opened the job's log in its own window: %1")
                                          .arg(title.isEmpty() ? path : title));
                if (!m_logTest.isEmpty())
                    window->viewer()->goToTestFailure(m_logTest);
            });
    connect(m_tests, &TestResultsController::jobLogFailed, this,
            [this](qint64 id, const QString& reason) {
                if (id != m_logRequest)
                    return;
                m_status->showMessage(tr("Cannot show the job's log: %1").arg(reason));
                emit logFailed(reason);
            });
}

void MainWindow::showTestInLog(const QString& testIdentity)
{
    if (m_testsRowId == 0)
        return;
    m_logTest = testIdentity;
    m_logRequest = m_tests->loadJobLog(CheckRunRow{m_testsRowId});
    m_status->showMessage(tr("Downloading the job's log…"));
}

LogWindow* MainWindow::openLog(const QString& path, const QString& title)
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

LogWindow* MainWindow::lastLogWindow() const { return m_lastLog.data(); }

void MainWindow::openPaths(const QStringList& paths)
{
    QStringList reports;
    for (const QString& path : paths) {
        if (!QFileInfo::exists(path)) {
            if (isAppLink(path)) { // relayhud://sha/…, pr/…, run/…
                openLink(path);
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

void MainWindow::showOpenLogDialog()
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a log"), start,
                                                      tr("Logs (*.txt *.log *.gz);;All files (*)"));
    if (!path.isEmpty())
        openLog(path);
}

} // namespace relayhud::ui
