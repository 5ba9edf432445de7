#pragma once
// The GUI side of TestResultsWorker: owns its thread, numbers the loads so a
// late answer for a cell the user has left is dropped, cancels a fetch that
// a newer selection made pointless, and joins the thread on shutdown.
#include "relayhud/ui/results/test_results_worker.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace relayhud::ui {

class TestResultsController : public QObject {
    Q_OBJECT
public:
    explicit TestResultsController(QObject* parent = nullptr);
    ~TestResultsController() override;

    void setAccess(const std::string& cachePath, const ArtifactAccess& access);

    // Each returns the load id its answers will carry.
    Ticket loadRun(CheckRunRow checkRunRow, bool fetchIfMissing = true);
    Ticket loadTestRun(TestRunId testRunId);
    // Answers carry `ticket`, the load the text or history belongs to.
    void loadText(Ticket ticket, TestMessageId textId);
    void loadHistory(Ticket ticket, CheckRunRow checkRunRow, TestId testId, int shas = 30);
    void importPaths(const QStringList& paths);
    // Downloads a run's job log; answers with jobLogReady/jobLogFailed
    // carrying the returned id.
    qint64 loadJobLog(CheckRunRow checkRunRow);
    // Forgets the current load (no cell selected).
    void clear();

    Ticket currentLoad() const { return m_latest.load(); }
    void shutdown();

signals:
    void fetching(Ticket ticket, const QString& what);
    void loaded(const std::shared_ptr<const relayhud::ui::TestsPanelData>& data);
    void loadFailed(Ticket ticket, const QString& reason);
    void textLoaded(Ticket ticket, qint64 textId, const QString& text, bool cut,
                    const QString& fullPath);
    void historyLoaded(Ticket ticket, const relayhud::TestHistory& history);
    void imported(qint64 testRunId, const QString& label, const QString& summary);
    void importFailed(const QString& reason);
    void jobLogReady(qint64 requestId, const QString& path, const QString& title);
    void jobLogFailed(qint64 requestId, const QString& reason);

private:
    Ticket post(TestsLoadRequest request);
    Ticket nextLoad();

    std::atomic<bool> m_shutdownFlag{false};
    std::atomic<Ticket> m_latest{Ticket{}};
    std::atomic<bool> m_abortFetch{false};
    QThread m_thread;
    TestResultsWorker* m_worker;
    std::string m_cachePath;
    ArtifactAccess m_access;
    bool m_shutDown = false;
    qint64 m_lastLogRequest = 0;
};

} // namespace relayhud::ui
