#include "relayhud/sync/artifact_sync.h"

#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

#include "sync/cancel.h"
#include "sync/fetch_pool.h"
#include "sync/job_line_sync.h"
#include "sync/paging.h"
#include "sync/run_artifacts.h"

#include "relayhud/util/time.h"

#include <cctype>
#include <map>

namespace relayhud {
namespace {

using sync::cancelled;

// Distinct problems, each once: 200 runs refused for a missing token are one
// line. Messages that differ only in numbers (run ids, ports) count as one.
class ProblemLog {
public:
    void add(const std::string& message)
    {
        auto [it, inserted] = m_byShape.try_emplace(shapeOf(message), m_lines.size());
        if (inserted)
            m_lines.push_back({message, 0});
        ++m_lines[it->second].runs;
    }

    std::vector<std::string> lines() const
    {
        std::vector<std::string> out;
        for (const auto& line : m_lines)
            out.push_back(line.runs == 1 ? line.text
                                         : line.text + " (" + std::to_string(line.runs) + " runs)");
        return out;
    }

private:
    // Digits become '#', and a URL is kept to its host: one server down for
    // every run is one problem, whatever paths it was asked for.
    static std::string shapeOf(const std::string& message)
    {
        std::string shape;
        for (std::size_t i = 0; i < message.size(); ++i) {
            const char c = message[i];
            if (message.compare(i, 3, "://") == 0) {
                const auto end = message.find_first_of("/ \"'", i + 3);
                shape += message.substr(i, end == std::string::npos ? end : end - i);
                i = message.find_first_of(" \"'", i + 3);
                if (i == std::string::npos)
                    break;
                shape += message[i];
            } else if (!std::isdigit(static_cast<unsigned char>(c))) {
                shape += c;
            } else if (shape.empty() || shape.back() != '#') {
                shape += '#';
            }
        }
        return shape;
    }

    struct Line {
        std::string text;
        int runs = 0;
    };
    std::vector<Line> m_lines;
    std::map<std::string, std::size_t> m_byShape;
};

void count(ArtifactSyncReport& report, const sync::StoredRun& stored)
{
    ++report.runs;
    switch (stored.state) {
    case TestRunState::Stored:
        ++report.stored;
        report.cases += stored.cases;
        break;
    case TestRunState::NoReports: ++report.empty; break;
    case TestRunState::Expired: ++report.expired; break;
    case TestRunState::Unauthorized: ++report.unauthorized; break;
    case TestRunState::Failed: ++report.failed; break;
    }
}

ArtifactQueueQuery queueQuery(const ArtifactSyncOptions& options)
{
    const EpochSeconds now = nowSeconds();
    ArtifactQueueQuery query;
    query.failedOnly = options.policy == ArtifactPolicy::FailedRuns;
    query.since = options.days > 0 ? now - static_cast<EpochSeconds>(options.days) * 86'400 : 0;
    query.retryFailedBefore = now - options.retryAfterSeconds;
    query.limit = options.maxRuns;
    return query;
}

// What fetchRun fetches for a cached run: its artifact_url, else its
// workflow run URL (GitHub keeps artifacts by run; sync::fetchRunArtifacts).
ArtifactCandidate candidateOf(const CheckRun& run, CheckRunRow checkRunRow)
{
    ArtifactCandidate candidate;
    candidate.checkRunRow = checkRunRow;
    candidate.downstreamRepo = run.downstreamRepo;
    candidate.runId = run.runId;
    candidate.runAttempt = run.runAttempt;
    candidate.checkRunId = run.checkRunId;
    candidate.artifactUrl = run.reported.artifactUrl;
    candidate.runUrl = run.reported.runUrl;
    candidate.conclusion = run.reported.conclusion;
    candidate.startedAt = run.reported.startedAt.value_or(0);
    return candidate;
}

// "artifact sync cancelled: left 37 runs' test results unfetched; the next
// sync reads them". The job logs are counted only when their step began.
std::string cancelledMessage(const ArtifactSyncReport& report)
{
    std::string left;
    if (report.runsLeft > 0)
        left = std::to_string(report.runsLeft) + " runs' test results unfetched";
    if (report.jobLogsLeft > 0)
        left += (left.empty() ? "" : " and ") + std::to_string(report.jobLogsLeft)
                + " failed jobs' logs unread";
    return "artifact sync cancelled"
           + (left.empty() ? std::string() : ": left " + left + "; the next sync reads them");
}

// What a pass has done so far, and where it reports.
struct Pass {
    Database& cache;
    ArtifactFetcher& fetcher;
    const ArtifactSettings& settings;
    ArtifactSyncReport& report;
    ProblemLog problems;
    ArtifactSyncProgress step;
    const ArtifactSync::ProgressFn& progress;
};

// One page of the queue: fetched in parallel, stored by this thread.
Result<void> fetchPage(Pass& pass, std::vector<ArtifactCandidate> page,
                       const ArtifactSyncOptions& options, const std::atomic<bool>* cancel)
{
    sync::FetchPool pool(
        std::move(page), options.maxParallel,
        [&](const ArtifactCandidate& c) {
            return sync::fetchRunArtifacts(pass.fetcher, pass.settings, c, cancel);
        },
        cancel);
    while (auto fetched = pool.next()) {
        auto stored =
            sync::storeRunArtifacts(pass.cache, pass.fetcher.contentCache(), *fetched, cancel);
        if (!stored) {
            pool.stop();
            return makeError("could not store test results: " + stored.message());
        }
        if (!stored->recorded)
            continue; // cancelled: the run stays in the queue
        count(pass.report, *stored);
        if (stored->problem)
            pass.problems.add(stored->message);
        pass.step.done += 1;
        pass.step.current = fetched->candidate.downstreamRepo + " run " + fetched->candidate.runId;
        if (pass.progress)
            pass.progress(pass.step);
    }
    return {};
}

} // namespace

ArtifactSync::ArtifactSync(Database& cache, ArtifactFetcher& fetcher, ArtifactSettings settings)
    : m_cache(cache), m_fetcher(fetcher), m_settings(std::move(settings))
{
}

Result<ArtifactSyncReport> ArtifactSync::run(const ArtifactSyncOptions& options,
                                             const ProgressFn& progress,
                                             const std::atomic<bool>* cancel)
{
    ArtifactSyncReport report;
    if (options.policy == ArtifactPolicy::OnDemand)
        return report;
    // Its times fixed for the whole pass: a run fetched (or failed) during it
    // is not back in the queue before the pass ends.
    ArtifactQueueQuery query = queueQuery(options);
    auto queued = TestResultStore(m_cache).artifactQueueSize(query);
    if (!queued)
        return makeError("could not read the artifact queue: " + queued.message());
    Pass pass{m_cache,    m_fetcher,
              m_settings, report,
              {},         {0, static_cast<int>(sync::runsToAsk(*queued, options.maxRuns)), {}},
              progress};
    sync::AskedRuns asked(options);
    while (const std::int64_t limit = asked.nextLimit(cancel)) {
        query.limit = limit;
        auto page = TestResultStore(m_cache).artifactQueue(query);
        if (!page)
            return makeError("could not read the artifact queue: " + page.message());
        std::erase_if(*page, [&](const ArtifactCandidate& c) { return !asked.add(c.checkRunRow); });
        if (page->empty())
            break;
        if (auto fetched = fetchPage(pass, std::move(*page), options, cancel); !fetched)
            return fetched.error();
    }
    query.limit = 0;
    auto left = TestResultStore(m_cache).artifactQueueSize(query);
    if (!left)
        return makeError("could not read the artifact queue: " + left.message());
    report.runsLeft = *left;
    if (options.jobLines && !cancelled(cancel)) {
        std::vector<std::string> lineProblems;
        if (auto lines =
                sync::syncJobLines(m_cache, m_fetcher, options, report, lineProblems, cancel);
            !lines)
            return lines.error();
        ProblemLog lineLog;
        for (const std::string& problem : lineProblems)
            lineLog.add(problem);
        report.jobLineErrors = lineLog.lines();
    }
    report.errors = pass.problems.lines();
    if (cancelled(cancel))
        return makeError(cancelledMessage(report));
    return report;
}

Result<TestRunInfo> ArtifactSync::fetchRun(CheckRunRow checkRunRow, const std::atomic<bool>* cancel)
{
    auto existing = TestResultStore(m_cache).testRunForCheckRun(checkRunRow);
    if (!existing)
        return existing.error();
    if (*existing && sync::isFinalState((*existing)->state))
        return std::move(**existing);
    auto run = RunStore(m_cache).checkRun(checkRunRow);
    if (!run)
        return run.error();
    const ArtifactCandidate candidate = candidateOf(*run, checkRunRow);
    if (candidate.artifactUrl.empty() && candidate.runUrl.empty())
        return makeError("run " + run->runId
                         + " reported neither an artifact_url nor a workflow run URL");
    const auto fetched = sync::fetchRunArtifacts(m_fetcher, m_settings, candidate, cancel);
    auto stored = sync::storeRunArtifacts(m_cache, m_fetcher.contentCache(), fetched, cancel);
    if (!stored)
        return stored.error();
    if (!stored->recorded)
        return makeError("cancelled");
    return TestResultStore(m_cache).testRun(stored->testRunId);
}

} // namespace relayhud
