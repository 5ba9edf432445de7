#pragma once
// Logs and reports in windows of their own (issue 38): "Show in log" from a
// failing test (the job's log from GitHub, opened at the test's failure),
// File › Open Log… and Open Reports…, and the paths of the command line and
// of drops, routed to report windows (JUnit reports, archives, folders), log
// windows (any other file, PATH:LINE, relayhud://log) or the links.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

class QMainWindow;

namespace relayhud::ui {

struct AppSettings;
class LinksCoordinator;
class LogWindow;
class ReportWindow;
class SyncStatusWidget;
class TestsCoordinator;

class LogsCoordinator : public QObject {
    Q_OBJECT
    // reportOpened(ReportWindow*) needs the complete type for its meta type.
    Q_MOC_INCLUDE("relayhud/ui/results/report_window.h")
    Q_MOC_INCLUDE("relayhud/ui/logs/log_window.h")
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr;         // the dialogs' parent
        const AppSettings* settings = nullptr; // the cache a report window reads
        SyncStatusWidget* status = nullptr;
        TestsCoordinator* tests = nullptr; // its run's job log; imports
        LinksCoordinator* links = nullptr; // relayhud:// paths
    };
    explicit LogsCoordinator(Frame frame, QObject* parent = nullptr);

    // The shown run's job log at this test's failure (downloaded first).
    void showTestInLog(const QString& testIdentity);
    LogWindow* openLog(const QString& path, const QString& title = {});
    LogWindow* lastLogWindow() const;
    // Imports JUnit reports, archives or folders into the cache and shows
    // them in a window of their own.
    void openReports(const QStringList& paths);
    ReportWindow* lastReportWindow() const;
    // Reports, archives and folders to report windows; logs (any other file,
    // or a PATH:LINE / PATH:A-B / relayhud://log link) to log windows; other
    // relayhud:// links to the links.
    void openPaths(const QStringList& paths);
    void showOpenReportDialog(bool folder);
    void showOpenLogDialog();

signals:
    void reportOpened(ReportWindow* window);
    void reportFailed(const QString& reason);
    void logOpened(LogWindow* window);
    void logFailed(const QString& reason);

private:
    void onReportImported(qint64 testRunId, const QString& label, const QString& summary);

    Frame m_frame;
    QPointer<ReportWindow> m_lastReport;
    QPointer<LogWindow> m_lastLog;
    qint64 m_logRequest = 0;
    QString m_logTest;
};

} // namespace relayhud::ui
