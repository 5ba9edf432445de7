#pragma once
// The hand-made PR worlds of the suggestion tests (triage_suggest_test.cpp,
// triage_attribution_test.cpp): PR heads with authors, nightlies and pushes in
// a real SQLite cache, their results and job failure lines.
#include "relayhud/store/job_failure_line.h"
#include "relayhud/triage/job_line.h"
#include "relayhud/triage/suggest.h"

#include "outcome_letters.h"
#include "test_results_fixtures.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <optional>
#include <utility>

namespace relayhud::test::suggest_fixture {

using namespace relayhud;
using namespace relayhud::testing;
using namespace relayhud::triage;

using namespace relayhud::test::outcome_letters;
using relayhud::test::kSpyre;

// A 40-hex SHA whose short form is "c0000<n>" for n < 100.
inline std::string sha(int n)
{
    std::string s = "c0000" + std::to_string(n / 10) + std::to_string(n % 10);
    return s + std::string(40 - s.size(), 'e');
}

using Tests = std::vector<std::pair<std::string, TestOutcome>>;

// Who dispatched a run: a PR (number, author) or, with number 0, a nightly,
// whose SHA is a main commit titled as main's are (real-backends.md section 2).
struct Source {
    std::int64_t pr = 0;
    std::string author;
};
inline Source pr(std::int64_t number, std::string author = {})
{
    return {number, author.empty() ? "author" + std::to_string(number) : author};
}
inline const Source kNightly{};

class SuggestTest : public ::testing::Test {
protected:
    SuggestTest();
    ~SuggestTest() override; // where the cache's type is whole
    void SetUp() override;

    // A finished run of `job` on SHA n (commit time 1000 n) with these
    // results (none stored when `tests` is empty and `store` is false),
    // dispatched by a push (no PR: a linear history like nightlies').
    CheckRunRow run(int n, const Tests& tests, int attempt = 1,
                    Conclusion conclusion = Conclusion::Failure, const std::string& job = "test",
                    const std::string& repo = kSpyre, bool store = true)
    {
        const EpochSeconds time = 1'000'000 + 1000 * n;
        CheckRun r = completedRun(sha(n), job, attempt, conclusion, time);
        r.downstreamRepo = repo;
        r.checkRunId = CheckRunId{repo + "-" + r.checkRunId.value};
        return finish(addRun(*m_cache, r, time), tests, store);
    }

    // The same for a PR head or a nightly, `hoursIn` hours into the world.
    CheckRunRow head(int n, const Source& source, double hoursIn, const Tests& tests,
                     int attempt = 1, Conclusion conclusion = Conclusion::Failure,
                     const std::string& job = "test", bool store = true,
                     const std::string& nightlyId = {});

    // A PR head's failed run with no results, whose job log's failure line
    // names `test` (pytest's "FAILED file::Class::name - ..."), the last of
    // `tests` its short summary names when there are more.
    CheckRunRow loggedHead(int n, const Source& source, double hoursIn, const std::string& test,
                           const std::vector<std::string>& tests = {});

    CheckRunRow finish(CheckRunRow row, const Tests& tests, bool store);

    // test_busy errs at setup because the device is busy.
    static std::string message(const std::string& name, TestOutcome outcome)
    {
        if (name == "test_busy" && outcome == E)
            return "RuntimeError: spyre device 0 is not available: device or resource busy";
        return outcome == F ? "AssertionError: Tensor-likes are not close!" : "";
    }

    void line(CheckRunRow row, const std::string& rule, FailureClass cls,
              JobLineState state = JobLineState::Matched);

    std::vector<Suggestion> suggest(CheckRunRow row, const SuggestOptions& options = {})
    {
        auto s = suggestForRun(*m_cache, row, options);
        EXPECT_TRUE(s) << (s ? "" : s.message());
        return s ? std::move(*s) : std::vector<Suggestion>{};
    }

    // By value: the callers pass the vector suggest() just returned.
    static Suggestion only(std::vector<Suggestion> all)
    {
        EXPECT_EQ(all.size(), 1u);
        return all.empty() ? Suggestion{} : std::move(all.front());
    }

    static const Evidence* find(const Suggestion& s, EvidenceKind kind)
    {
        for (const auto& e : s.evidence)
            if (e.kind == kind)
                return &e;
        return nullptr;
    }

    // The next head() reports these counts of its own (none by default).
    void nextCounts(TestCounts counts) { m_counts = counts; }

    relayhud::testing::TestCache m_cache;
    std::optional<TestCounts> m_counts;
};

} // namespace relayhud::test::suggest_fixture
