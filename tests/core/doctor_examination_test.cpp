// The integration doctor over a whole cache (doctor/examination.h): the
// simulator's backends read back from a real cache, offline. The relay's
// probe repository and the silent L1 backends are left out, every backend
// that reports is judged, the worst come first, and each report's counts and
// runs agree with its findings.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/doctor/examination.h"
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/net/http_client.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/run_store.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <set>

namespace {

using namespace relayhud;
using relayhud::doctor::BackendReport;
using relayhud::doctor::HealthFinding;
using relayhud::doctor::Severity;

TEST(DoctorExamination, EveryReportingBackendOfTheCacheIsJudgedWorstFirst)
{
    const sim::SimDataset data = sim::buildDataset(sim::SimConfig{});
    relayhud::testing::ScratchDir dir("doctor-examination");
    auto cache = relayhud::testing::openTestCache(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache) << cache.message();
    SyncBatch batch{data.backends, data.commits, {}, {}};
    for (const sim::SimRow& row : data.rows)
        batch.runs.push_back(row.run);
    ASSERT_TRUE(RunStore(**cache).apply(batch));
    auto blobs = ContentCache::open(dir.file("blobs"));
    ASSERT_TRUE(blobs) << blobs.message();
    HttpClient http;
    ArtifactFetcher fetcher(http, *blobs, ArtifactSettings{}, Credentials{});

    auto reports = doctor::examineBackends(**cache, fetcher, data.config.now, 30, false);
    ASSERT_TRUE(reports) << reports.message();

    std::set<std::string> reporting; // the backends with runs in the window
    for (const sim::SimRow& row : data.rows)
        reporting.insert(row.run.downstreamRepo);
    std::set<std::string> examined;
    for (const BackendReport& r : *reports) {
        examined.insert(r.repo);
        EXPECT_NE(r.repo, kProbeRepo) << "the relay's probes fail by design";
        EXPECT_EQ(r.workflowsNote, "offline: the workflows were never read") << r.repo;
        EXPECT_TRUE(r.workflows.empty()) << r.repo;
        std::size_t errors = 0;
        for (const HealthFinding& f : r.runtime.findings) {
            errors += f.severity == Severity::Error ? 1 : 0;
            for (CheckRunRow row : f.runs) {
                ASSERT_TRUE(r.runs.count(row)) << r.repo << " names run " << row.value;
                EXPECT_EQ(r.runs.at(row).checkRunRow, row) << "the run itself, read back";
            }
        }
        EXPECT_EQ(r.count(Severity::Error), errors) << r.repo;
    }
    for (const Backend& b : data.backends) {
        if (b.repo == kProbeRepo)
            continue;
        const bool reports_ = reporting.count(b.repo) > 0;
        if (b.level == Level::L1 && !reports_)
            EXPECT_FALSE(examined.count(b.repo)) << b.repo << ": dispatched to, never reports";
        else
            EXPECT_TRUE(examined.count(b.repo)) << b.repo;
    }
    ASSERT_GE(reports->size(), 2u);
    for (std::size_t i = 1; i < reports->size(); ++i) {
        const auto key = [](const BackendReport& r) {
            return std::make_pair(r.count(Severity::Error), r.count(Severity::Warning));
        };
        EXPECT_GE(key((*reports)[i - 1]), key((*reports)[i])) << "worst first, at " << i;
    }
    // The story's zombie makes its backend one of the worst.
    EXPECT_GT(reports->front().count(Severity::Error), 0u);
    bool zombieJudged = false;
    for (const BackendReport& r : *reports)
        zombieJudged =
            zombieJudged || (r.repo == data.stories.zombieBackend && r.count(Severity::Error) > 0);
    EXPECT_TRUE(zombieJudged) << data.stories.zombieBackend;
}

TEST(DoctorExamination, AnEmptyCacheHasNothingToJudge)
{
    relayhud::testing::ScratchDir dir("doctor-examination-empty");
    auto cache = relayhud::testing::openTestCache(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache) << cache.message();
    auto blobs = ContentCache::open(dir.file("blobs"));
    ASSERT_TRUE(blobs) << blobs.message();
    HttpClient http;
    ArtifactFetcher fetcher(http, *blobs, ArtifactSettings{}, Credentials{});
    auto none = doctor::examineBackends(**cache, fetcher, 1'780'000'000, 30, false);
    ASSERT_TRUE(none) << none.message();
    EXPECT_TRUE(none->empty());
}

} // namespace
