// The suggest fixture's writes through the stores (triage_suggest_fixture.h).
#include "triage_suggest_fixture.h"

#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

namespace relayhud::test::suggest_fixture {

SuggestTest::SuggestTest() = default;
SuggestTest::~SuggestTest() = default;

void SuggestTest::SetUp() { m_cache = openCacheOk(":memory:"); }

CheckRunRow SuggestTest::head(int n, const Source& source, double hoursIn, const Tests& tests,
                              int attempt, Conclusion conclusion, const std::string& job,
                              bool store, const std::string& nightlyId)
{
    const EpochSeconds time = 1'000'000 + static_cast<EpochSeconds>(hoursIn * 3600);
    CheckRun r =
        completedRun(nightlyId.empty() ? sha(n) : nightlyId, job, attempt, conclusion, time);
    r.prNumber = PrNumber{source.pr};
    r.eventType = source.pr > 0 ? EventType::PullRequest : EventType::Nightly;
    r.reported.tests = std::exchange(m_counts, std::nullopt);
    const std::string title = source.pr > 0       ? "PR " + std::to_string(source.pr)
                              : nightlyId.empty() ? "Landed change " + std::to_string(n) + " (#157"
                                                        + std::to_string(n) + ")"
                                                  : "";
    UpstreamCommit commit{
        r.upstreamSha, source.pr, source.pr > 0 || !nightlyId.empty() ? "" : "main", r.eventType,
        time,          title,     source.pr > 0 ? source.author : "pytorchbot"};
    EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {commit}, {r}, {}}));
    auto row = RunStore(*m_cache).checkRunRowFor(r.checkRunId);
    EXPECT_TRUE(row && *row);
    return finish(row && *row ? **row : CheckRunRow{}, tests, store);
}

CheckRunRow SuggestTest::loggedHead(int n, const Source& source, double hoursIn,
                                    const std::string& test, const std::vector<std::string>& tests)
{
    const EpochSeconds time = 1'000'000 + static_cast<EpochSeconds>(hoursIn * 3600);
    CheckRun r = completedRun(sha(n), "test", 1, Conclusion::Failure, time);
    r.prNumber = PrNumber{source.pr};
    UpstreamCommit commit{r.upstreamSha, source.pr, "",           EventType::PullRequest,
                          time,          "PR",      source.author};
    EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {commit}, {r}, {}}));
    const auto row = **RunStore(*m_cache).checkRunRowFor(r.checkRunId);
    JobFailureLine l;
    l.checkRunRow = row;
    l.rulesHash = 42;
    l.state = JobLineState::Matched;
    l.rule = "pytest failed test";
    l.cls = FailureClass::BackendBug;
    l.line = 812;
    const std::string id = "test/test_ops.py::TestOps::" + test;
    l.text = "FAILED " + id + " - AssertionError: Tensor-likes are not close!";
    l.captures = {id};
    for (const std::string& named : tests)
        l.named.push_back("test/test_ops.py::TestOps::" + named);
    l.pickedAt = 5;
    EXPECT_TRUE(EvidenceStore(*m_cache).putJobFailureLine(l));
    return row;
}

CheckRunRow SuggestTest::finish(CheckRunRow row, const Tests& tests, bool store)
{
    if (!store)
        return row;
    auto writer = TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
    EXPECT_TRUE(writer);
    TestRunTotals totals;
    for (const auto& [name, outcome] : tests) {
        EXPECT_TRUE((*writer)->add(makeCase("TestOps", name, outcome, message(name, outcome))));
        ++totals.outcomes[static_cast<std::size_t>(outcome)];
    }
    EXPECT_TRUE((*writer)->commit(totals));
    return row;
}

void SuggestTest::line(CheckRunRow row, const std::string& rule, FailureClass cls,
                       JobLineState state)
{
    JobFailureLine l;
    l.checkRunRow = row;
    l.rulesHash = 42;
    l.state = state;
    l.rule = rule;
    l.cls = cls;
    l.line = 1234;
    l.text = "##[error]The operation was canceled.";
    l.captures = {"##[error]The operation was canceled."};
    l.logHash = "abc";
    l.message = state == JobLineState::Matched ? "" : "the job log is gone";
    l.pickedAt = 5;
    ASSERT_TRUE(EvidenceStore(*m_cache).putJobFailureLine(l));
}

} // namespace relayhud::test::suggest_fixture
