#include "relayhud/ui/results/test_results_worker.h"

#include "relayhud/net/http_client.h"
#include "relayhud/results/report_import.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/util/paths.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/triage_text.h"

#include <QFileInfo>

#include <algorithm>
#include <new>

namespace relayhud::ui {

namespace {

bool sameAccess(const ArtifactAccess& a, const ArtifactAccess& b)
{
    const auto& x = a.settings;
    const auto& y = b.settings;
    const auto& c = a.credentials;
    const auto& d = b.credentials;
    return x.githubApiUrl == y.githubApiUrl && x.githubWebHost == y.githubWebHost
           && x.s3Endpoint == y.s3Endpoint && x.s3Region == y.s3Region
           && x.s3PathStyle == y.s3PathStyle && c.githubToken == d.githubToken
           && c.s3AccessKeyId == d.s3AccessKeyId && c.s3SecretAccessKey == d.s3SecretAccessKey
           && c.s3SessionToken == d.s3SessionToken;
}

// A state that a fetch by hand may change: the user may have fixed the token,
// or the network may be back.
bool worthRefetching(TestRunState state)
{
    return state == TestRunState::Failed || state == TestRunState::Unauthorized;
}

QString jobTitle(const CheckRun& run)
{
    return toQString(run.downstreamRepo) % u" / " % toQString(run.workflow) % u" / "
           % toQString(run.jobName);
}

QString importSummary(const ImportSummary& summary)
{
    const TestRunTotals& t = summary.totals;
    return QObject::tr("%n report(s), %1 tests: %2 failed, %3 errors, %4 skipped", nullptr,
                       static_cast<int>(summary.reports.size()))
        .arg(t.cases())
        .arg(t.count(TestOutcome::Failed) + t.count(TestOutcome::XPassStrict))
        .arg(t.count(TestOutcome::Error))
        .arg(t.count(TestOutcome::Skipped) + t.count(TestOutcome::XFailed));
}

} // namespace

TestResultsWorker::TestResultsWorker(const std::atomic<bool>& shutdown,
                                     const std::atomic<Ticket>& latestLoad,
                                     std::atomic<bool>& abortFetch, QObject* parent)
    : QObject(parent), m_shutdown(shutdown), m_latestLoad(latestLoad), m_abortFetch(abortFetch)
{
}

TestResultsWorker::~TestResultsWorker() = default;

bool TestResultsWorker::stale(Ticket ticket) const
{
    return m_shutdown.load() || ticket < m_latestLoad.load();
}

Result<void> TestResultsWorker::prepare(const std::string& cachePath, const ArtifactAccess& access)
{
    if (!m_cache || m_cachePath != cachePath) {
        m_fetcher.reset();
        m_blobs.reset();
        m_cache.reset();
        auto opened = Database::open(cachePath);
        if (!opened)
            return makeError("cannot open the cache " + cachePath + ": " + opened.message());
        auto blobs = ContentCache::open(blobRootFor(cachePath));
        if (!blobs)
            return makeError(blobs.message());
        m_cache = std::move(*opened);
        m_blobs = std::make_unique<ContentCache>(std::move(*blobs));
        m_cachePath = cachePath;
    }
    if (!m_fetcher || !sameAccess(m_access, access)) {
        HttpOptions options;
        options.cancel = &m_shutdown;
        options.totalTimeout = std::chrono::minutes(5); // artifacts can be large
        m_http = std::make_unique<HttpClient>(options);
        m_fetcher = std::make_unique<ArtifactFetcher>(*m_http, *m_blobs, access.settings,
                                                      access.credentials);
        m_access = access;
    }
    return {};
}

// Core never throws; memory running out is the one exception that can reach
// a worker (an input past every limit). It ends the request with a message
// instead of reaching Qt's event loop, which would abort the app.
void TestResultsWorker::load(const TestsLoadRequest& request)
{
    try {
        loadNow(request);
    } catch (const std::bad_alloc&) {
        emit loadFailed(request.ticket, tr("Out of memory reading these results; the input is "
                                           "too large for this machine."));
    }
}

void TestResultsWorker::importPaths(const QString& cachePath, const QStringList& paths)
{
    try {
        importNow(cachePath, paths);
    } catch (const std::bad_alloc&) {
        emit importFailed(
            tr("Out of memory importing these files; they are too large for this machine."));
    }
}

void TestResultsWorker::loadNow(const TestsLoadRequest& request)
{
    if (stale(request.ticket))
        return;
    if (auto ready = prepare(request.cachePath, request.access); !ready) {
        emit loadFailed(request.ticket, toQString(ready.message()));
        return;
    }
    std::optional<TestRunInfo> run;
    auto id = resolveTestRun(request, run);
    if (!id) {
        emit loadFailed(request.ticket, toQString(id.message()));
        return;
    }
    if (stale(request.ticket))
        return;
    if (!run) { // nothing fetched, and fetching was not allowed (or no artifacts)
        auto data = std::make_shared<TestsPanelData>();
        data->ticket = request.ticket;
        // A job that failed without artifacts still has its own failure.
        if (request.checkRunRow) {
            if (auto row = RunStore(*m_cache).checkRun(request.checkRunRow)) {
                data->jobTitle = jobTitle(*row);
                data->selfReported = row->reported.tests;
                data->selfReportedKind = countKindOf(row->downstreamRepo).kind;
                data->checkRunId = row->checkRunId;
            }
            if (auto triaged = gatherTriage(*data, request.checkRunRow); !triaged) {
                emit loadFailed(request.ticket, toQString(triaged.message()));
                return;
            }
        }
        emit loaded(data);
        return;
    }
    auto data = gather(request, *run);
    if (!data && request.checkRunRow) {
        // An artifact pass may have replaced the run's results between the
        // reads (its test run goes, a new one comes): read the new one, as
        // no later pass may come to say so.
        auto again = TestResultStore(*m_cache).testRunForCheckRun(request.checkRunRow);
        if (again && *again && (*again)->id != run->id)
            data = gather(request, **again);
    }
    if (!data) {
        emit loadFailed(request.ticket, toQString(data.message()));
        return;
    }
    emit loaded(std::move(*data));
}

Result<TestRunId> TestResultsWorker::resolveTestRun(const TestsLoadRequest& request,
                                                    std::optional<TestRunInfo>& run)
{
    if (request.testRunId) {
        auto info = TestResultStore(*m_cache).testRun(request.testRunId);
        if (!info)
            return info.error();
        run = std::move(*info);
        return run->id;
    }
    auto existing = TestResultStore(*m_cache).testRunForCheckRun(request.checkRunRow);
    if (!existing)
        return existing.error();
    run = std::move(*existing);
    if ((!run || worthRefetching(run->state)) && request.fetchIfMissing) {
        if (auto fetched = fetchArtifacts(request); !fetched)
            return fetched.error();
        auto again = TestResultStore(*m_cache).testRunForCheckRun(request.checkRunRow);
        if (!again)
            return again.error();
        run = std::move(*again);
    }
    return run ? run->id : TestRunId{};
}

Result<void> TestResultsWorker::fetchArtifacts(const TestsLoadRequest& request)
{
    auto row = RunStore(*m_cache).checkRun(request.checkRunRow);
    if (!row)
        return row.error();
    if (row->reported.artifactUrl.empty())
        return {}; // the backend reported no artifacts: nothing to fetch
    emit fetching(request.ticket,
                  tr("Fetching test results from %1…").arg(toQString(row->reported.artifactUrl)));
    m_abortFetch = false;
    ArtifactSync sync(*m_cache, *m_fetcher, m_access.settings);
    auto fetched = sync.fetchRun(request.checkRunRow, &m_abortFetch);
    if (!fetched && !m_abortFetch.load())
        return fetched.error();
    return {};
}

Result<std::shared_ptr<TestsPanelData>> TestResultsWorker::gather(const TestsLoadRequest& request,
                                                                  const TestRunInfo& run)
{
    auto data = std::make_shared<TestsPanelData>();
    data->ticket = request.ticket;
    data->run = run;
    if (run.checkRunRow) {
        auto row = RunStore(*m_cache).checkRun(*run.checkRunRow);
        if (!row)
            return row.error();
        data->selfReported = row->reported.tests;
        data->selfReportedKind = countKindOf(row->downstreamRepo).kind;
        data->jobTitle = jobTitle(*row);
        data->checkRunId = row->checkRunId;
    } else {
        data->jobTitle = toQString(run.label);
    }
    auto results = TestResultStore(*m_cache).testResults(run.id);
    if (!results)
        return results.error();
    data->results = std::move(*results);
    if (!run.checkRunRow)
        return data;
    if (auto triaged = gatherTriage(*data, *run.checkRunRow); !triaged)
        return triaged.error();
    std::vector<TestId> failing;
    for (const StoredTestResult& r : data->results)
        if (isFailingOutcome(r.outcome) && failing.size() < request.maxHistories)
            failing.push_back(r.testId);
    if (failing.empty())
        return data;
    auto histories =
        TestResultStore(*m_cache).testHistory(*run.checkRunRow, failing, request.historyShas);
    if (!histories)
        return histories.error();
    data->histories = std::move(*histories);
    return data;
}

Result<void> TestResultsWorker::gatherTriage(TestsPanelData& data, CheckRunRow checkRunRow)
{
    auto base = TriageStore(*m_cache).triageTargetOf(checkRunRow);
    if (!base)
        return base.error();
    data.triageBase = *base;
    auto suggestions = triage::suggestForRun(*m_cache, checkRunRow);
    if (!suggestions)
        return suggestions.error();
    auto tags = TriageStore(*m_cache).triageTagsForCheckRun(checkRunRow);
    if (!tags)
        return tags.error();
    std::unordered_map<std::string, const TriageTag*> tagOf;
    for (const TriageTag& tag : *tags)
        tagOf.emplace(tag.target.test, &tag);
    for (const triage::Suggestion& suggestion : *suggestions) {
        TestTriage entry = toTestTriage(suggestion);
        if (const auto tag = tagOf.find(suggestion.target.identity); tag != tagOf.end())
            entry.tag = *tag->second;
        data.triage[suggestion.target.testId] = std::move(entry);
    }
    return {};
}

void TestResultsWorker::loadText(Ticket ticket, TestMessageId textId)
{
    if (stale(ticket) || !m_cache)
        return;
    auto text = TestResultStore(*m_cache).testText(textId);
    if (!text) {
        emit textLoaded(ticket, textId.value,
                        tr("(cannot read this text: %1)").arg(toQString(text.message())), false,
                        QString());
        return;
    }
    QString fullPath;
    if (!text->fullTextHash.empty() && m_blobs)
        if (auto path = m_blobs->path(text->fullTextHash))
            fullPath = toQString(*path);
    emit textLoaded(ticket, textId.value, toQString(text->text), !text->fullTextHash.empty(),
                    fullPath);
}

void TestResultsWorker::loadHistory(Ticket ticket, CheckRunRow checkRunRow, TestId testId, int shas)
{
    if (stale(ticket) || !m_cache)
        return;
    auto histories = TestResultStore(*m_cache).testHistory(checkRunRow, {testId}, shas);
    if (histories && !histories->empty())
        emit historyLoaded(ticket, histories->front());
}

void TestResultsWorker::importNow(const QString& cachePath, const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    if (auto ready = prepare(cachePath.toStdString(), m_access); !ready) {
        emit importFailed(toQString(ready.message()));
        return;
    }
    std::vector<std::string> files;
    for (const QString& p : paths)
        files.push_back(p.toStdString());
    TestRunOrigin origin;
    origin.source = TestRunSource::Import;
    origin.label = paths.size() == 1 ? QFileInfo(paths.front()).fileName().toStdString()
                                     : tr("%1 files").arg(paths.size()).toStdString();
    origin.location = files.front();
    auto writer = TestResultStore(*m_cache).beginTestRun(origin, m_blobs.get());
    if (!writer) {
        emit importFailed(toQString(writer.message()));
        return;
    }
    ImportOptions options;
    options.cancel = &m_shutdown;
    auto summary = importReports(files, **writer, options);
    if (!summary) {
        emit importFailed(toQString(summary.message()));
        return;
    }
    for (const std::string& w : summary->warnings)
        (*writer)->addWarning(w);
    auto id = (*writer)->commit(summary->totals);
    if (!id) {
        emit importFailed(toQString(id.message()));
        return;
    }
    emit imported(id->value, toQString(origin.label), importSummary(*summary));
}

void TestResultsWorker::loadJobLog(qint64 requestId, const std::string& cachePath,
                                   const ArtifactAccess& access, CheckRunRow checkRunRow)
{
    if (auto ready = prepare(cachePath, access); !ready) {
        emit jobLogFailed(requestId, toQString(ready.message()));
        return;
    }
    auto run = RunStore(*m_cache).checkRun(checkRunRow);
    if (!run) {
        emit jobLogFailed(requestId, toQString(run.message()));
        return;
    }
    const std::string& repo = run->downstreamRepo;
    const QString title = toQString(repo + " · " + run->jobName);
    if (const auto known = m_jobLogs.find(checkRunRow);
        known != m_jobLogs.end() && QFileInfo::exists(toQString(known->second))) {
        emit jobLogReady(requestId, toQString(known->second), title);
        return;
    }
    const auto slash = repo.find('/');
    if (slash == std::string::npos || run->checkRunId.value.empty()) {
        emit jobLogFailed(requestId, tr("This run names no GitHub Actions job to read a log of."));
        return;
    }
    auto fetched = m_fetcher->fetchJobLog(repo.substr(0, slash), repo.substr(slash + 1),
                                          run->checkRunId.value);
    if (!fetched) {
        emit jobLogFailed(requestId, toQString(fetched.message()));
        return;
    }
    if (fetched->status != FetchStatus::Fetched || fetched->file.path.empty()) {
        emit jobLogFailed(requestId, toQString(fetched->message));
        return;
    }
    m_jobLogs[checkRunRow] = fetched->file.path;
    emit jobLogReady(requestId, toQString(fetched->file.path), title);
}

} // namespace relayhud::ui
