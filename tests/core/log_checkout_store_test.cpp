// The tested-SHA evidence in the cache (schema 6): what a run's log says it
// checked out, the unread logs asked again, and the greens' sample queue.
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/health_store.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

namespace relayhud {
namespace {

using testing::addRun;
using testing::completedRun;
using testing::openCacheOk;
using testing::ScratchDir;

constexpr EpochSeconds kDay = 86'400;
constexpr EpochSeconds kNow = 1'780'000'000;

std::string sha(char c) { return std::string(40, c); }

std::vector<CheckRunRow> queuedRows(const Database& cache, const CheckoutSampleQuery& query)
{
    auto queue = CheckoutStore(cache).checkoutSampleQueue(query);
    EXPECT_TRUE(queue) << queue.message();
    std::vector<CheckRunRow> rows;
    for (const JobLineCandidate& c : queue ? *queue : std::vector<JobLineCandidate>{})
        rows.push_back(c.checkRunRow);
    return rows;
}

TEST(LogCheckoutStore, ChecksOutsRoundTripAndAReadReplacesThem)
{
    ScratchDir dir("checkouts");
    auto cache = openCacheOk(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache);
    const CheckRunRow row =
        addRun(*cache, completedRun(sha('a'), "test", 1, Conclusion::Success, kNow), kNow);
    auto none = CheckoutStore(*cache).logCheckouts(row);
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value()) << "never read";

    const std::vector<LogCheckout> two = {{"torch-spyre/torch-spyre", sha('1'), 40},
                                          {"pytorch/pytorch", sha('a'), 97}};
    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(row, two, kNow));
    auto read = CheckoutStore(*cache).logCheckouts(row);
    ASSERT_TRUE(read && read->has_value());
    EXPECT_EQ(**read, two);

    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(row, {}, kNow + 1)); // read again: shows none
    read = CheckoutStore(*cache).logCheckouts(row);
    ASSERT_TRUE(read && read->has_value());
    EXPECT_TRUE((*read)->empty());

    ASSERT_TRUE(
        CheckoutStore(*cache).putLogUnread(row, kNow + 2)); // an unread log is not a read one
    read = CheckoutStore(*cache).logCheckouts(row);
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->has_value());
}

TEST(LogCheckoutStore, TheSampleTakesTheNewestGreensOfEachBackendNotYetRead)
{
    ScratchDir dir("checkouts");
    auto cache = openCacheOk(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache);
    std::vector<CheckRunRow> spyre;
    for (int i = 0; i < 4; ++i)
        spyre.push_back(addRun(*cache,
                               completedRun(sha(static_cast<char>('a' + i)), "test", 1,
                                            Conclusion::Success, kNow - i * kDay),
                               kNow - i * kDay));
    CheckRun other = completedRun(sha('e'), "test", 1, Conclusion::Success, kNow);
    other.downstreamRepo = "Ascend/pytorch";
    other.checkRunId = CheckRunId{"cr-ascend"};
    const CheckRunRow ascend = addRun(*cache, other, kNow);
    const CheckRunRow failed =
        addRun(*cache, completedRun(sha('f'), "test", 1, Conclusion::Failure, kNow), kNow);
    CheckRun nightly = completedRun(sha('9'), "nightly", 1, Conclusion::Success, kNow);
    nightly.eventType = EventType::Nightly;
    addRun(*cache, nightly, kNow);
    CheckRun old = completedRun(sha('8'), "test", 1, Conclusion::Success, kNow - 30 * kDay);
    addRun(*cache, old, kNow - 30 * kDay);

    CheckoutSampleQuery query;
    query.since = kNow - 14 * kDay;
    query.perBackend = 2;
    query.retryUnreadBefore = kNow;
    std::vector<CheckRunRow> rows = queuedRows(*cache, query);
    // Each backend's newest first (then each backend's second newest, ...;
    // the newer row first within a rank); failures (the job-line pass reads
    // those), nightlies and commits past the window are not sampled.
    EXPECT_EQ(rows, (std::vector<CheckRunRow>{ascend, spyre[0], spyre[1]}));
    EXPECT_EQ(std::count(rows.begin(), rows.end(), failed), 0);

    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(spyre[0], {}, kNow));
    ASSERT_TRUE(CheckoutStore(*cache).putLogUnread(spyre[1], kNow - 10));
    rows = queuedRows(*cache, query);
    // The read one is done; the unread one, tried before retryUnreadBefore,
    // comes again after the next newest.
    EXPECT_EQ(rows, (std::vector<CheckRunRow>{ascend, spyre[1], spyre[2]}));
    query.retryUnreadBefore = kNow - 20;
    EXPECT_EQ(queuedRows(*cache, query), (std::vector<CheckRunRow>{ascend, spyre[2], spyre[3]}))
        << "the unread one was tried too recently";
    ASSERT_TRUE(CheckoutStore(*cache).putLogUnread(spyre[3], kNow - 1000, /*gone=*/true));
    query.retryUnreadBefore = kNow + 1000;
    EXPECT_EQ(queuedRows(*cache, query), (std::vector<CheckRunRow>{ascend, spyre[1], spyre[2]}))
        << "a gone log is never asked again";
}

TEST(LogCheckoutStore, HealthRunsCarryTheirReadLogsCheckouts)
{
    ScratchDir dir("checkouts");
    auto cache = openCacheOk(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache);
    const CheckRunRow read =
        addRun(*cache, completedRun(sha('a'), "test", 1, Conclusion::Success, kNow), kNow);
    const CheckRunRow empty =
        addRun(*cache, completedRun(sha('b'), "test", 1, Conclusion::Success, kNow), kNow);
    const CheckRunRow unread =
        addRun(*cache, completedRun(sha('c'), "test", 1, Conclusion::Success, kNow), kNow);
    const CheckRunRow never =
        addRun(*cache, completedRun(sha('d'), "test", 1, Conclusion::Success, kNow), kNow);
    ASSERT_TRUE(
        CheckoutStore(*cache).putLogCheckouts(read, {{"pytorch/pytorch", sha('a'), 12}}, kNow));
    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(empty, {}, kNow));
    ASSERT_TRUE(CheckoutStore(*cache).putLogUnread(unread, kNow));
    auto runs = HealthStore(*cache).healthRuns({"torch-spyre/torch-spyre", kNow - kDay});
    ASSERT_TRUE(runs) << runs.message();
    ASSERT_EQ(runs->size(), 4u);
    for (const HealthRun& run : *runs) {
        EXPECT_EQ(run.upstreamRepo, "pytorch/pytorch");
        if (run.checkRunRow == read) {
            ASSERT_TRUE(run.checkouts);
            EXPECT_EQ(*run.checkouts,
                      (std::vector<LogCheckout>{{"pytorch/pytorch", sha('a'), 12}}));
        } else if (run.checkRunRow == empty) {
            ASSERT_TRUE(run.checkouts);
            EXPECT_TRUE(run.checkouts->empty());
        } else {
            EXPECT_TRUE(run.checkRunRow == unread || run.checkRunRow == never);
            EXPECT_FALSE(run.checkouts) << "not read";
        }
    }
}

} // namespace
} // namespace relayhud
