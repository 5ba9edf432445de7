#include "sync/job_line_sync.h"

#include "relayhud/triage/job_line.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <thread>

namespace relayhud::sync {
namespace {

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// The defaults, then the user's files in order. A file that cannot be read,
// or a rule in it that does not load, is a problem; the rest still work.
triage::RuleSet loadRules(const std::vector<std::string>& files, std::vector<std::string>& problems)
{
    triage::RuleSet rules = triage::defaultRuleSet();
    for (const std::string& file : files)
        if (auto added = rules.addFile(file); !added)
            problems.push_back("rule file " + file + ": " + added.message());
    for (const triage::RuleProblem& problem : rules.problems())
        if (!problem.ruleKept)
            problems.push_back("rule left out: " + problem.describe());
    return rules;
}

// Whether the log's last line is the runner's last (kRunnerLastLine).
bool endsWithTheRunnersLastLine(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
    const std::streamoff tail = std::min<std::streamoff>(size, 512);
    std::string end(static_cast<std::size_t>(tail), '\0');
    in.seekg(size - tail);
    if (!in.read(end.data(), tail))
        return false;
    while (!end.empty() && (end.back() == '\n' || end.back() == '\r' || end.back() == ' '))
        end.pop_back();
    return end.ends_with(kRunnerLastLine);
}

// Fetches and classifies one log. Thread-safe: no Cache. nullopt when
// cancelled before it finished.
std::optional<JobFailureLine> pickLine(ArtifactFetcher& fetcher,
                                       const triage::Classifier& classifier,
                                       std::uint64_t rulesHash, const JobLineCandidate& run,
                                       const std::atomic<bool>* cancel)
{
    JobFailureLine line;
    line.checkRunRow = run.checkRunRow;
    line.rulesHash = rulesHash;
    line.pickedAt = nowSeconds();
    const auto slash = run.downstreamRepo.find('/');
    if (slash == std::string::npos) {
        line.state = JobLineState::NoLog;
        line.message = "repository '" + run.downstreamRepo + "' names no GitHub owner";
        return line;
    }
    auto fetched =
        fetcher.fetchJobLog(run.downstreamRepo.substr(0, slash),
                            run.downstreamRepo.substr(slash + 1), run.checkRunId.value, cancel);
    if (cancelled(cancel))
        return std::nullopt;
    if (!fetched) {
        line.state = JobLineState::FetchFailed;
        line.message = "job log of " + run.downstreamRepo + " job " + run.checkRunId.value + ": "
                       + fetched.message();
        return line;
    }
    switch (fetched->status) {
    case FetchStatus::Fetched: break;
    case FetchStatus::Unauthorized:
        line.state = JobLineState::FetchFailed;
        line.message = fetched->message;
        return line;
    case FetchStatus::Expired:
    case FetchStatus::Empty:
        line.state = JobLineState::NoLog;
        line.message = fetched->message.empty() ? "the job log is gone" : fetched->message;
        return line;
    }
    const bool whole = endsWithTheRunnersLastLine(fetched->file.path);
    if (!whole && !run.brokeOffBefore) {
        fetcher.contentCache().remove(fetched->file.hash); // the next pass downloads it whole
        line.state = JobLineState::FetchFailed;
        line.message = std::string(kLogBrokeOffMessage) + " before the runner's last line (\""
                       + std::string(kRunnerLastLine) + "\"); asked again on the next pass";
        return line;
    }
    auto picked =
        triage::pickJobLine(classifier, run.checkRunRow, fetched->file.path, fetched->file.hash);
    if (!whole) { // read as it is, and asked again (whole) after the retry delay
        fetcher.contentCache().remove(fetched->file.hash);
        if (picked) {
            picked->logHash.clear(); // not kept: a whole one is asked for
            picked->message =
                std::string(kLogBrokeOffMessage) + " twice; read as it is ("
                + (picked->message.empty() ? "line picked from what arrived" : picked->message)
                + ")";
        }
    }
    if (!picked) {
        // An evicted blob or a read error: worth another try later.
        line.state = JobLineState::FetchFailed;
        line.message = "job log of " + run.downstreamRepo + " job " + run.checkRunId.value + ": "
                       + picked.message();
        return line;
    }
    return std::move(*picked);
}

void count(ArtifactSyncReport& report, const JobFailureLine& line)
{
    ++report.jobLogs;
    switch (line.state) {
    case JobLineState::Matched: ++report.jobLinesPicked; break;
    case JobLineState::NoMatch: ++report.jobLinesNoMatch; break;
    case JobLineState::NoLog: ++report.jobLogsMissing; break;
    case JobLineState::FetchFailed: ++report.jobLogsFailed; break;
    }
}

} // namespace

Result<void> syncJobLines(Cache& cache, ArtifactFetcher& fetcher,
                          const ArtifactSyncOptions& options, ArtifactSyncReport& report,
                          std::vector<std::string>& problems, const std::atomic<bool>* cancel)
{
    triage::RuleSet rules = loadRules(options.ruleFiles, problems);
    const std::uint64_t rulesHash = triage::ruleSetHash(rules);
    auto classifier = triage::Classifier::create(std::move(rules));
    if (!classifier) {
        problems.push_back("job failure lines: " + classifier.message());
        return {};
    }
    const EpochSeconds now = nowSeconds();
    JobLineQueueQuery query;
    query.rulesHash = rulesHash;
    query.since = options.days > 0 ? now - static_cast<EpochSeconds>(options.days) * 86'400 : 0;
    query.retryFailedBefore = now - options.retryAfterSeconds;
    query.limit = options.maxRuns;
    auto queue = cache.jobLineQueue(query);
    if (!queue)
        return makeError("could not read the job log queue: " + queue.message());

    // Workers fetch and classify; this thread alone writes the cache.
    std::vector<std::optional<JobFailureLine>> lines(queue->size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < queue->size() && !cancelled(cancel); i = next++)
            lines[i] = pickLine(fetcher, *classifier, rulesHash, (*queue)[i], cancel);
    };
    {
        std::vector<std::jthread> workers;
        const auto parallel = std::min<std::size_t>(
            static_cast<std::size_t>(std::max(options.maxParallel, 1)), queue->size());
        for (std::size_t i = 0; i < parallel; ++i)
            workers.emplace_back(work);
    }
    for (const auto& line : lines) {
        if (!line)
            continue; // cancelled: the run stays in the queue
        if (auto stored = cache.putJobFailureLine(*line); !stored)
            return stored.error();
        count(report, *line);
        if (line->state == JobLineState::FetchFailed)
            problems.push_back(line->message);
    }
    return {};
}

} // namespace relayhud::sync
