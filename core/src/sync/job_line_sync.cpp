#include "sync/job_line_sync.h"

#include "relayhud/logs/checkout_scan.h"
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/triage/job_line.h"
#include "relayhud/util/time.h"
#include "sync/cancel.h"
#include "sync/paging.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <thread>

namespace relayhud::sync {
namespace {

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

// The GitHub log of a run's job; nullopt when its repository names no owner.
std::optional<Result<JobLogFetch>> fetchLogOf(ArtifactFetcher& fetcher, const JobLineCandidate& run,
                                              const std::atomic<bool>* cancel)
{
    const auto slash = run.downstreamRepo.find('/');
    if (slash == std::string::npos)
        return std::nullopt;
    return fetcher.fetchJobLog(run.downstreamRepo.substr(0, slash),
                               run.downstreamRepo.substr(slash + 1), run.checkRunId.value, cancel);
}

std::string noOwner(const JobLineCandidate& run)
{
    return "repository '" + run.downstreamRepo + "' names no GitHub owner";
}

// What one log gave: its failure line, and what its checkouts checked out
// (nullopt: not known from this fetch).
struct Picked {
    JobFailureLine line;
    std::optional<std::vector<LogCheckout>> checkouts;
};

// The checkouts of a fetched log. What arrived of a log that broke off
// counts only when it reaches a checkout (they come first in a job).
std::optional<std::vector<LogCheckout>> checkoutsIn(const std::string& path, bool whole)
{
    auto found = logs::scanCheckouts(path);
    if (!found || (!whole && found->empty()))
        return std::nullopt;
    return std::move(*found);
}

// Fetches and classifies one log. Thread-safe: no Database. nullopt when
// cancelled before it finished.
std::optional<Picked> pickLine(ArtifactFetcher& fetcher, const triage::Classifier& classifier,
                               std::uint64_t rulesHash, const JobLineCandidate& run,
                               const std::atomic<bool>* cancel)
{
    Picked out;
    JobFailureLine& line = out.line;
    line.checkRunRow = run.checkRunRow;
    line.rulesHash = rulesHash;
    line.pickedAt = nowSeconds();
    auto log = fetchLogOf(fetcher, run, cancel);
    if (!log) {
        line.state = JobLineState::NoLog;
        line.message = noOwner(run);
        return out;
    }
    auto& fetched = *log;
    if (cancelled(cancel))
        return std::nullopt;
    if (!fetched) {
        line.state = JobLineState::FetchFailed;
        line.message = "job log of " + run.downstreamRepo + " job " + run.checkRunId.value + ": "
                       + fetched.message();
        return out;
    }
    switch (fetched->status) {
    case FetchStatus::Fetched: break;
    case FetchStatus::Unauthorized:
        line.state = JobLineState::FetchFailed;
        line.message = fetched->message;
        return out;
    case FetchStatus::Expired:
    case FetchStatus::Empty:
        line.state = JobLineState::NoLog;
        line.message = fetched->message.empty() ? "the job log is gone" : fetched->message;
        return out;
    }
    const bool whole = endsWithTheRunnersLastLine(fetched->file.path);
    out.checkouts = checkoutsIn(fetched->file.path, whole);
    if (!whole && !run.brokeOffBefore) {
        fetcher.contentCache().remove(fetched->file.hash); // the next pass downloads it whole
        line.state = JobLineState::FetchFailed;
        line.message = std::string(kLogBrokeOffMessage) + " before the runner's last line (\""
                       + std::string(kRunnerLastLine) + "\"); asked again on the next pass";
        return out;
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
        return out;
    }
    line = std::move(*picked);
    return out;
}

// What reading one green's log for its checkouts gave: its checkouts, or
// why it could not be read (`checkouts` nullopt).
struct CheckoutRead {
    std::optional<std::vector<LogCheckout>> checkouts;
    std::string problem; // "" for a gone log: no error, never asked again
};

// Fetches one log and reads its checkouts. Thread-safe: no Database. nullopt
// when cancelled before it finished.
std::optional<CheckoutRead> readCheckouts(ArtifactFetcher& fetcher, const JobLineCandidate& run,
                                          const std::atomic<bool>* cancel)
{
    CheckoutRead out;
    const std::string what = "job log of " + run.downstreamRepo + " job " + run.checkRunId.value;
    auto log = fetchLogOf(fetcher, run, cancel);
    if (!log) {
        out.problem = noOwner(run);
        return out;
    }
    auto& fetched = *log;
    if (cancelled(cancel))
        return std::nullopt;
    if (!fetched) {
        out.problem = what + ": " + fetched.message();
        return out;
    }
    if (fetched->status == FetchStatus::Unauthorized) {
        out.problem = what + ": " + fetched->message;
        return out;
    }
    if (fetched->status != FetchStatus::Fetched)
        return out; // expired or empty
    const bool whole = endsWithTheRunnersLastLine(fetched->file.path);
    out.checkouts = checkoutsIn(fetched->file.path, whole);
    if (!whole) // a cut blob is never kept
        fetcher.contentCache().remove(fetched->file.hash);
    if (!out.checkouts)
        out.problem = what + ": " + std::string(kLogBrokeOffMessage) + " before any checkout";
    return out;
}

// Runs fn over every item of `queue` on at most maxParallel threads; a
// result is nullopt where it was cancelled.
template <class Item, class Fn>
auto inParallel(const std::vector<Item>& queue, int maxParallel, const std::atomic<bool>* cancel,
                Fn fn)
{
    std::vector<decltype(fn(queue.front()))> results(queue.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < queue.size() && !cancelled(cancel); i = next++)
            results[i] = fn(queue[i]);
    };
    std::vector<std::jthread> workers;
    const auto parallel =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(maxParallel, 1)), queue.size());
    for (std::size_t i = 0; i < parallel; ++i)
        workers.emplace_back(work);
    workers.clear(); // joins
    return results;
}

// The greens' sample: the newest successful runs of each backend whose log
// was never read get their checkouts read (the doctor's tested-SHA check).
Result<void> sampleCheckouts(Database& cache, ArtifactFetcher& fetcher,
                             const ArtifactSyncOptions& options, EpochSeconds now,
                             ArtifactSyncReport& report, std::vector<std::string>& problems,
                             const std::atomic<bool>* cancel)
{
    CheckoutSampleQuery query;
    query.since = options.days > 0 ? now - static_cast<EpochSeconds>(options.days) * 86'400 : 0;
    query.perBackend = options.checkoutSample;
    query.retryUnreadBefore = now - options.retryAfterSeconds;
    auto queue = CheckoutStore(cache).checkoutSampleQueue(query);
    if (!queue)
        return makeError("could not read the checkout sample queue: " + queue.message());
    const auto reads =
        inParallel(*queue, options.maxParallel, cancel, [&](const JobLineCandidate& run) {
            return readCheckouts(fetcher, run, cancel);
        });
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const auto& read = reads[i];
        if (!read)
            continue; // cancelled: asked on the next pass
        const CheckRunRow row = (*queue)[i].checkRunRow;
        auto stored =
            read->checkouts
                ? CheckoutStore(cache).putLogCheckouts(row, *read->checkouts, nowSeconds())
                : CheckoutStore(cache).putLogUnread(row, nowSeconds(), read->problem.empty());
        if (!stored)
            return stored.error();
        ++report.checkoutLogs;
        if (!read->checkouts)
            ++report.checkoutLogsUnread;
        if (!read->problem.empty())
            problems.push_back(read->problem);
    }
    return {};
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

// One page of the queue: workers fetch and classify; this thread alone
// writes the cache.
Result<void> readPage(Database& cache, ArtifactFetcher& fetcher,
                      const triage::Classifier& classifier, std::uint64_t rulesHash,
                      const std::vector<JobLineCandidate>& page, const ArtifactSyncOptions& options,
                      ArtifactSyncReport& report, std::vector<std::string>& problems,
                      const std::atomic<bool>* cancel)
{
    const auto picks =
        inParallel(page, options.maxParallel, cancel, [&](const JobLineCandidate& run) {
            return pickLine(fetcher, classifier, rulesHash, run, cancel);
        });
    for (const auto& pick : picks) {
        if (!pick)
            continue; // cancelled: the run stays in the queue
        const JobFailureLine& line = pick->line;
        if (auto stored = EvidenceStore(cache).putJobFailureLine(line); !stored)
            return stored.error();
        if (pick->checkouts)
            if (auto stored = CheckoutStore(cache).putLogCheckouts(line.checkRunRow,
                                                                   *pick->checkouts, nowSeconds());
                !stored)
                return stored.error();
        count(report, line);
        if (line.state == JobLineState::FetchFailed)
            problems.push_back(line.message);
    }
    return {};
}

} // namespace

Result<void> syncJobLines(Database& cache, ArtifactFetcher& fetcher,
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
    // Its times fixed for the whole pass (see artifact_sync.cpp).
    JobLineQueueQuery query;
    query.rulesHash = rulesHash;
    query.since = options.days > 0 ? now - static_cast<EpochSeconds>(options.days) * 86'400 : 0;
    query.retryFailedBefore = now - options.retryAfterSeconds;
    AskedRuns asked(options);
    while (const std::int64_t limit = asked.nextLimit(cancel)) {
        query.limit = limit;
        auto page = EvidenceStore(cache).jobLineQueue(query);
        if (!page)
            return makeError("could not read the job log queue: " + page.message());
        std::erase_if(*page, [&](const JobLineCandidate& c) { return !asked.add(c.checkRunRow); });
        if (page->empty())
            break;
        if (auto read = readPage(cache, fetcher, *classifier, rulesHash, *page, options, report,
                                 problems, cancel);
            !read)
            return read;
    }
    query.limit = 0;
    auto left = EvidenceStore(cache).jobLineQueueSize(query);
    if (!left)
        return makeError("could not read the job log queue: " + left.message());
    report.jobLogsLeft = *left;
    if (options.checkoutSample > 0 && !cancelled(cancel))
        return sampleCheckouts(cache, fetcher, options, now, report, problems, cancel);
    return {};
}

} // namespace relayhud::sync
