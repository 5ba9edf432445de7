#include "relayhud/ui/charts/trends_loader.h"

#include "relayhud/store/database.h"
#include "relayhud/store/trend_store.h"
#include "relayhud/util/time.h"

#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>

namespace relayhud::ui {

namespace {

using verdict::JobKey;

// Without a chosen job, the suite-size chart follows the job with the most
// counted runs: the one whose trend says most.
std::optional<JobKey> busiestCountedJob(const std::vector<TrendRun>& runs)
{
    std::map<JobKey, int> counted;
    for (const TrendRun& r : runs)
        if (r.storedExecuted || (r.reportedTests && r.reportedTests->total > 0))
            ++counted[verdict::jobKeyOf(r)];
    const auto best =
        std::max_element(counted.begin(), counted.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    return best == counted.end() ? std::nullopt : std::optional<JobKey>(best->first);
}

Result<void> fill(const Database& cache, const std::vector<TrendRun>& all, TrendsData& out)
{
    const TrendsRequest& q = out.request;
    out.backends = verdict::backendsIn(all);
    const std::vector<TrendRun> ofBackend = verdict::selectRuns(all, q.backend, std::nullopt);
    out.jobs = verdict::jobsIn(ofBackend);
    const std::vector<TrendRun> runs = verdict::selectRuns(ofBackend, {}, q.job);
    switch (q.kind) {
    case ChartKind::PassRate: out.passRates = verdict::passRates(runs, q.backend); break;
    case ChartKind::FailureClasses: {
        // Days run through today, so a quiet end of the window shows as such.
        const EpochSeconds until = q.until != 0 ? q.until : nowSeconds() + 1;
        auto f = verdict::failuresByClass(cache, runs, q.since, until);
        if (!f)
            return f.error();
        out.failures = std::move(*f);
        break;
    }
    case ChartKind::QueueTimes: out.timings = verdict::timings(runs); break;
    case ChartKind::TestsExecuted:
        out.executedJob = q.job ? q.job : busiestCountedJob(runs);
        if (out.executedJob)
            out.executed = verdict::testsExecuted(runs, *out.executedJob);
        break;
    case ChartKind::Durations: out.durations = verdict::durationsByJob(runs); break;
    }
    return {};
}

} // namespace

TrendsData loadTrends(const std::string& cachePath, const TrendsRequest& request)
{
    TrendsData out;
    out.request = request;
    auto cache = Database::open(cachePath);
    if (!cache) {
        out.error = cache.message();
        return out;
    }
    auto runs = TrendStore(**cache).trendRuns({request.since, request.until, ""});
    if (!runs) {
        out.error = runs.message();
        return out;
    }
    if (auto filled = fill(**cache, *runs, out); !filled) {
        TrendsData failed;
        failed.request = request;
        failed.error = filled.message();
        return failed;
    }
    return out;
}

TrendsLoader::TrendsLoader(QObject* parent) : QObject(parent) {}

void TrendsLoader::request(const TrendsRequest& request)
{
    const std::uint64_t job = ++m_latestJob;
    QtConcurrent::run(loadTrends, m_cachePath, request)
        .then(this, [this, job](const TrendsData& data) {
            if (job != m_latestJob)
                return; // a newer request is on its way
            m_delivered = job;
            emit loaded(std::make_shared<const TrendsData>(data));
        });
}

} // namespace relayhud::ui
