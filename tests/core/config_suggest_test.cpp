// Config suggestions on a real cache with hand-made runs: promotions,
// demotions, and the histories that must not produce one (mixed, too few
// runs, another job's runs, a variant that disagrees); applying them; and
// the known-tests check of name patterns.
#include "outcome_letters.h"
#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_lint.h"
#include "relayhud/config/config_suggest.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/test_result_store.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

// Inside config's namespace rather than a using-directive at file scope: a
// unity batch would carry that directive into other test files, where
// config's Suggestion and triage's would meet.
namespace relayhud::config {

using namespace relayhud::testing;

namespace {

using namespace relayhud::test::outcome_letters;

constexpr const char* kSuggestConfig = R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_ops.py
      unlisted_test_mode: skip
      tests:
        - names:
            - TestOps::test_strict  # RuntimeError on spyre
          mode: xfail_strict
        - names:
            - TestOps::test_must
            - TestOps::test_other
          mode: mandatory_success
        - names:
            - TestOps::test_gone_.*
          mode: xfail
  global:
    supported_dtypes:
      - name: float16
      - name: float32
)";

// A test by its base name: "test_strict" or a variant "test_strict:float16"
// (instantiated TestOpsPRIVATEUSE1::test_strict_spyre_float16).
TestCaseResult variant(const std::string& spec, TestOutcome outcome)
{
    const std::size_t colon = spec.find(':');
    const std::string base = spec.substr(0, colon);
    if (colon == std::string::npos)
        return makeCase("TestOps", base, outcome);
    const std::string dtype = spec.substr(colon + 1);
    TestCaseResult c = makeCase("TestOpsPRIVATEUSE1", base + "_spyre_" + dtype, outcome);
    c.baseName = "TestOps::" + base;
    c.marks.items.push_back({MarkKind::Dtype, dtype});
    return c;
}

class SuggestCache : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_cache = openCacheOk(":memory:");
        auto parsed = parseOutcomeConfig(kSuggestConfig);
        ASSERT_TRUE(parsed && !parsed->hasErrors());
        m_config = parsed->config;
    }

    // One run of `job` on a SHA of 40 hex digits made from `n` (commit time
    // 100 * n) with the given results.
    CheckRunRow run(int n, const std::string& job,
                    const std::vector<std::pair<std::string, TestOutcome>>& tests, int attempt = 1)
    {
        const std::string sha =
            std::string(39, 'a' + static_cast<char>(n % 6)) + std::to_string(n % 10);
        const EpochSeconds time = 100 * n;
        const auto row =
            addRun(*m_cache, completedRun(sha, job, attempt, Conclusion::Failure, time), time);
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        EXPECT_TRUE(writer);
        for (const auto& [spec, outcome] : tests)
            EXPECT_TRUE((*writer)->add(variant(spec, outcome)));
        EXPECT_TRUE((*writer)->commit({}));
        return row;
    }

    std::vector<Suggestion> suggest(int runs)
    {
        auto recent = EvidenceStore(*m_cache).recentResults({runs, ""});
        EXPECT_TRUE(recent) << (recent ? "" : recent.message());
        SuggestOptions options;
        options.runs = runs;
        return recent ? suggestModeChanges(m_config, *recent, options) : std::vector<Suggestion>{};
    }

    relayhud::testing::TestCache m_cache;
    OutcomeConfig m_config;
};

} // namespace

TEST_F(SuggestCache, PromotesAStrictXfailThatPassedInEachOfTheLastRuns)
{
    run(1, "test (default)", {{"test_strict", F}}); // older than the window
    run(2, "test (default)", {{"test_strict", X}});
    run(3, "test (default)", {{"test_strict", P}});
    run(4, "test (default)", {{"test_strict", X}});
    const auto s = suggest(3);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].kind, EditKind::Promote);
    EXPECT_EQ(s[0].test, "test/test_ops.py::TestOps::test_strict");
    EXPECT_EQ(s[0].from, Mode::XfailStrict);
    EXPECT_EQ(s[0].to, Mode::MandatorySuccess);
    EXPECT_EQ(s[0].entryIndex, std::optional<std::size_t>(0));
    EXPECT_EQ(s[0].repo, "torch-spyre/torch-spyre");
    EXPECT_EQ(s[0].job, "test (default)");
    ASSERT_EQ(s[0].runs.size(), 3u);
    EXPECT_EQ(s[0].runs.front().commitTime, 200);
    EXPECT_EQ(s[0].runs.back().commitTime, 400);
    EXPECT_EQ(s[0].evidence, "passed 3/3 runs of torch-spyre/torch-spyre test (default) since "
                                 + s[0].runs.front().sha.shortSha());
}

TEST_F(SuggestCache, DemotesAMandatoryTestThatFailedInEachOfTheLastRuns)
{
    for (int n = 1; n <= 3; ++n)
        run(n, "test (default)",
            {{"test_must", n == 2 ? TestOutcome::Error : F}, {"test_other", P}});
    const auto s = suggest(3);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].kind, EditKind::Demote);
    EXPECT_EQ(s[0].baseName, "test_must"); // the method, as the framework keys it
    EXPECT_EQ(s[0].to, Mode::Xfail);       // the project's workflow: demote to xfail
    EXPECT_EQ(s[0].evidence.rfind("failed 3/3 runs of torch-spyre/torch-spyre test (default)", 0),
              0u)
        << s[0].evidence;
}

TEST_F(SuggestCache, AMixedHistoryOrAMissingRunSuggestsNothing)
{
    run(1, "test", {{"test_strict", P}, {"test_must", F}});
    run(2, "test", {{"test_strict", F}, {"test_must", F}});
    run(3, "test", {{"test_strict", P}}); // test_must not collected here
    EXPECT_TRUE(suggest(3).empty());
}

TEST_F(SuggestCache, FewerThanNRunsSuggestNothing)
{
    run(1, "test", {{"test_strict", P}});
    run(2, "test", {{"test_strict", P}});
    EXPECT_TRUE(suggest(3).empty());
    EXPECT_EQ(suggest(2).size(), 1u);
}

TEST_F(SuggestCache, EachJobArguesOnItsOwnRuns)
{
    // Two runs of each job: together four, but no job has three.
    for (int n = 1; n <= 2; ++n) {
        run(n, "job-a", {{"test_strict", P}});
        run(n, "job-b", {{"test_strict", P}});
    }
    EXPECT_TRUE(suggest(3).empty());
    // A third run: job-a passes again, job-b fails; only job-a argues.
    run(3, "job-a", {{"test_strict", P}});
    run(3, "job-b", {{"test_strict", F}});
    const auto s = suggest(3);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].job, "job-a");
}

TEST_F(SuggestCache, TheNewestAttemptWithResultsStandsForItsSha)
{
    run(1, "test", {{"test_strict", F}}, 1);
    run(1, "test", {{"test_strict", P}}, 2); // the rerun passed
    run(2, "test", {{"test_strict", P}});
    const auto s = suggest(2);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].runs.front().runAttempt, 2);
    EXPECT_NE(s[0].evidence.find("; 1 was a rerun"), std::string::npos) << s[0].evidence;
}

TEST_F(SuggestCache, EveryVariantOfTheBaseNameMustAgree)
{
    for (int n = 1; n <= 2; ++n)
        run(n, "test", {{"test_strict:float16", P}, {"test_strict:float32", n == 2 ? F : P}});
    EXPECT_TRUE(suggest(2).empty());
    run(3, "test", {{"test_strict:float16", P}, {"test_strict:float32", P}});
    run(4, "test", {{"test_strict:float16", X}, {"test_strict:float32", P}});
    const auto s = suggest(2);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].variants, 2);
    EXPECT_NE(s[0].evidence.find("(2 variants each)"), std::string::npos) << s[0].evidence;
}

// JUnit shows a non-strict XPASS as a plain pass: the config's decision,
// applied to each case, is what makes it promotion evidence. A test of a
// file the config does not list argues for nothing.
TEST_F(SuggestCache, APassingXfailIsPromotedAndOtherFilesAreNot)
{
    for (int n = 1; n <= 2; ++n) {
        TestCaseResult other = makeCase("TestTorch", "test_strict", P);
        other.file = "test/test_torch.py";
        other.identity = "test/test_torch.py::TestTorch::test_strict";
        other.baseName = "TestOps::test_strict";
        const auto row =
            addRun(*m_cache,
                   completedRun("f" + std::to_string(n), "test", 1, Conclusion::Success, 100 * n),
                   100 * n);
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        ASSERT_TRUE(writer);
        ASSERT_TRUE((*writer)->add(other));
        ASSERT_TRUE((*writer)->add(variant("test_gone_x", P))); // xfail through the regex
        ASSERT_TRUE((*writer)->commit({}));
    }
    const auto s = suggest(2);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].baseName, "test_gone_x");
    EXPECT_EQ(s[0].from, Mode::Xfail);
    EXPECT_EQ(s[0].to, Mode::MandatorySuccess);
    // Applying it adds an exact listing, which beats the regex.
    auto edit = planModeEdit(kSuggestConfig, s[0].request("passes now"));
    ASSERT_TRUE(edit) << edit.message();
    auto after = parseOutcomeConfig(edit->text);
    ASSERT_TRUE(after && !after->hasErrors());
    auto ex = explainTest(after->config, parseTestQuery(s[0].test));
    ASSERT_TRUE(ex);
    EXPECT_EQ(ex->outcome, Outcome::MandatorySuccess);
    EXPECT_EQ(ex->decision, Decision::Exact);
}

TEST_F(SuggestCache, ApplyingAllIsALoopOfPlanModeEditThatSkipsRepeats)
{
    for (int n = 1; n <= 2; ++n) {
        run(n, "job-a", {{"test_strict", P}, {"test_must", F}});
        run(n, "job-b", {{"test_strict", P}});
    }
    const auto s = suggest(2);
    ASSERT_EQ(s.size(), 3u); // test_must once, test_strict per job
    const AppliedSuggestions applied = applySuggestions(kSuggestConfig, s, "evidence says so");
    EXPECT_EQ(applied.applied.size(), 2u);
    ASSERT_EQ(applied.skipped.size(), 1u);
    EXPECT_NE(applied.skipped[0].find("cannot promote a test that is mandatory_success"),
              std::string::npos)
        << applied.skipped[0];
    // The first edit alone is exactly planModeEdit's.
    auto one = planModeEdit(kSuggestConfig, s[0].request("evidence says so"));
    ASSERT_TRUE(one) << one.message();
    EXPECT_NE(one->text.find(s[0].evidence), std::string::npos);
    // And the result resolves both tests to their new modes.
    auto after = parseOutcomeConfig(applied.text);
    ASSERT_TRUE(after && !after->hasErrors());
    for (const Suggestion& each : s) {
        auto ex = explainTest(after->config, parseTestQuery(each.test));
        ASSERT_TRUE(ex);
        EXPECT_EQ(ex->configMode, each.to) << each.test;
    }
}

TEST_F(SuggestCache, RecentResultsRefusesAnEmptyWindow)
{
    auto none = EvidenceStore(*m_cache).recentResults({0, ""});
    ASSERT_FALSE(none);
    EXPECT_NE(none.message().find("at least 1"), std::string::npos);
}

TEST_F(SuggestCache, RecentResultsFiltersByRepository)
{
    run(1, "test", {{"test_strict", P}});
    auto mine = EvidenceStore(*m_cache).recentResults({5, "torch-spyre/torch-spyre"});
    auto other = EvidenceStore(*m_cache).recentResults({5, "other/repo"});
    ASSERT_TRUE(mine && other);
    EXPECT_EQ(mine->jobs.size(), 1u);
    ASSERT_EQ(mine->tests.size(), 1u);
    EXPECT_EQ(mine->tests[0].identity, "test/test_ops.py::TestOps::test_strict");
    EXPECT_TRUE(other->jobs.empty());
}

TEST_F(SuggestCache, PatternsThatMatchNoKnownTestAreWarnedWithTheirPosition)
{
    // Nothing known about test_ops.py yet: no warning.
    auto known = EvidenceStore(*m_cache).knownTests();
    ASSERT_TRUE(known);
    EXPECT_TRUE(lintConfig(m_config, *known).empty());
    run(1, "test", {{"test_strict", P}, {"test_must", P}});
    known = EvidenceStore(*m_cache).knownTests();
    ASSERT_TRUE(known);
    ASSERT_EQ(known->size(), 2u);
    auto findings = lintConfig(m_config, *known);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].severity, Severity::Warning);
    EXPECT_EQ(findings[0].pos.line, 14u);
    EXPECT_NE(findings[0].message.find("regex 'test_gone_.*' fullmatches none of the 2 base"),
              std::string::npos)
        << findings[0].message;
    run(2, "test", {{"test_gone_away", P}});
    known = EvidenceStore(*m_cache).knownTests();
    ASSERT_TRUE(known);
    EXPECT_TRUE(lintConfig(m_config, *known).empty());
}

} // namespace relayhud::config
