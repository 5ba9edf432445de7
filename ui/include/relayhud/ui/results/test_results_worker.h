#pragma once
// Loads test results for the GUI on a worker thread: one run's results and
// the history of its failing tests, a traceback, one test's history, and
// imports of reports the user opened. Fetches a run's artifacts first when
// the cache has none yet (the user opened it; policy does not matter then).
// Owns its own Database connection, HTTP client and content cache; lives in a
// QThread and is driven by queued calls (see TestResultsController).
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/model/test_results.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/tests/tests_panel_data.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>

namespace relayhud {
class Database;
class ContentCache;
class HttpClient;
class ArtifactFetcher;
} // namespace relayhud

namespace relayhud::ui {

struct TestsLoadRequest {
    Ticket ticket;
    std::string cachePath;
    ArtifactAccess access;
    CheckRunRow checkRunRow; // a run's results ...
    TestRunId testRunId;     // ... or a test run by id (imports)
    bool fetchIfMissing = true;
    int historyShas = 30;
    std::size_t maxHistories = 400; // failing tests whose strips are loaded up front
};

class TestResultsWorker : public QObject {
    Q_OBJECT
public:
    // `latestLoad` is written by the GUI thread: a load older than it is
    // skipped, and a fetch for it is cancelled through `abortFetch`.
    TestResultsWorker(const std::atomic<bool>& shutdown, const std::atomic<Ticket>& latestLoad,
                      std::atomic<bool>& abortFetch, QObject* parent = nullptr);
    ~TestResultsWorker() override;

    void load(const relayhud::ui::TestsLoadRequest& request);
    void loadText(Ticket ticket, TestMessageId textId);
    void loadHistory(Ticket ticket, CheckRunRow checkRunRow, TestId testId, int shas);
    void importPaths(const QString& cachePath, const QStringList& paths);
    // The raw GitHub Actions log of a run's job, downloaded into the content
    // cache (GET .../actions/jobs/{check run id}/logs).
    void loadJobLog(qint64 requestId, const std::string& cachePath,
                    const relayhud::ui::ArtifactAccess& access, CheckRunRow checkRunRow);

signals:
    void fetching(Ticket ticket, const QString& what);
    void loaded(const std::shared_ptr<const relayhud::ui::TestsPanelData>& data);
    void loadFailed(Ticket ticket, const QString& reason);
    void textLoaded(Ticket ticket, qint64 textId, const QString& text, bool cut,
                    const QString& fullPath);
    void historyLoaded(Ticket ticket, const relayhud::TestHistory& history);
    void imported(qint64 testRunId, const QString& label, const QString& summary);
    void importFailed(const QString& reason);
    // `title`: "torch-spyre/torch-spyre · test (default, 1, 3, linux.spyre.1)".
    void jobLogReady(qint64 requestId, const QString& path, const QString& title);
    void jobLogFailed(qint64 requestId, const QString& reason);

private:
    void loadNow(const TestsLoadRequest& request);
    void importNow(const QString& cachePath, const QStringList& paths);
    Result<void> prepare(const std::string& cachePath, const ArtifactAccess& access);
    Result<TestRunId> resolveTestRun(const TestsLoadRequest& request,
                                     std::optional<TestRunInfo>& run);
    Result<void> fetchArtifacts(const TestsLoadRequest& request);
    Result<std::shared_ptr<TestsPanelData>> gather(const TestsLoadRequest& request,
                                                   const TestRunInfo& run);
    bool stale(Ticket ticket) const;
    // Suggestions and tags of a run's failures (and of the job itself).
    Result<void> gatherTriage(TestsPanelData& data, CheckRunRow checkRunRow);

    const std::atomic<bool>& m_shutdown;
    const std::atomic<Ticket>& m_latestLoad;
    std::atomic<bool>& m_abortFetch;
    std::unique_ptr<Database> m_cache;
    std::unique_ptr<ContentCache> m_blobs;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<ArtifactFetcher> m_fetcher;
    std::string m_cachePath;
    ArtifactAccess m_access;
    // A finished job's log never changes: where each was downloaded to in
    // this session, so a second "Show in log" opens it at once.
    std::unordered_map<CheckRunRow, std::string, IdHash> m_jobLogs;
};

} // namespace relayhud::ui

Q_DECLARE_METATYPE(relayhud::ui::TestsLoadRequest)
Q_DECLARE_METATYPE(std::shared_ptr<const relayhud::ui::TestsPanelData>)
Q_DECLARE_METATYPE(relayhud::TestHistory)
Q_DECLARE_METATYPE(relayhud::Ticket)
