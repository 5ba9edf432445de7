// Reviewing config suggestions (issue 36): one move per method however many
// jobs argue for it, grouped under the entry that decides it; and whether a
// test about to be promoted ever passed in its recent runs.
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/pass_record.h"
#include "relayhud/config/suggestion_groups.h"

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::config;

namespace {

const char* kConfig = "test_suite_config:\n"
                      "  files:\n"
                      "    - path: test/test_ops.py\n"
                      "      unlisted_test_mode: xfail\n"
                      "      tests:\n"
                      "        - names:\n"
                      "            - TestOps::test_a\n"
                      "            - TestOps::test_b\n"
                      "          mode: xfail\n"
                      "        - names:\n"
                      "            - TestOps::test_c\n";

Suggestion move(EditKind kind, const std::string& method, std::optional<std::size_t> entry,
                const std::string& job)
{
    Suggestion s;
    s.kind = kind;
    s.test = "test/test_ops.py::TestOps::" + method;
    s.baseName = method;
    s.from = kind == EditKind::Promote ? Mode::Xfail : Mode::MandatorySuccess;
    s.to = kind == EditKind::Promote ? Mode::MandatorySuccess : Mode::Xfail;
    s.entryIndex = entry;
    s.job = job;
    s.evidence = "passed 10/10 runs of " + job;
    return s;
}

} // namespace

TEST(SuggestionGroups, OneMovePerMethodUnderTheEntryThatDecidesIt)
{
    auto parsed = parseOutcomeConfig(kConfig);
    ASSERT_TRUE(parsed) << parsed.message();
    // As suggestModeChanges orders them: by method, then job.
    const std::vector<Suggestion> all{
        move(EditKind::Promote, "test_a", 0, "j1"), move(EditKind::Promote, "test_a", 0, "j2"),
        move(EditKind::Promote, "test_a", 0, "j3"), move(EditKind::Promote, "test_b", 0, "j1"),
        move(EditKind::Demote, "test_c", 1, "j1"),  move(EditKind::Promote, "test_z", {}, "j1")};
    const std::vector<SuggestionGroup> groups = groupSuggestions(parsed->config, all);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0].entryIndex, 0u);
    EXPECT_EQ(groups[0].line, 6u);
    EXPECT_EQ(groups[0].mode, Mode::Xfail);
    ASSERT_EQ(groups[0].moves.size(), 2u);
    EXPECT_EQ(groups[0].moves[0].baseName, "test_a");
    EXPECT_EQ(groups[0].jobs[0], 3);
    EXPECT_EQ(groups[0].moves[0].evidence, "passed 10/10 runs of j1; 2 more jobs agree");
    EXPECT_EQ(groups[0].moves[1].evidence, "passed 10/10 runs of j1");
    EXPECT_EQ(groups[1].entryIndex, 1u);
    EXPECT_EQ(groups[1].line, 10u);
    EXPECT_FALSE(groups[2].entryIndex) << "unlisted last";
    EXPECT_EQ(groups[2].line, 0u);
    const std::vector<Suggestion> moves = groupedMoves(groups);
    ASSERT_EQ(moves.size(), 4u);
    EXPECT_EQ(moves[2].baseName, "test_c");
}

TEST(PassRecord, NeverPassedNamesTheRunsAndJobs)
{
    RecentResults recent;
    recent.tests = {{1, "f::TestOps::test_a_spyre_float16", "f", "TestOps::test_a", ""},
                    {2, "f::TestOps::test_a_spyre_int8", "f", "TestOps::test_a", ""},
                    {3, "f::TestOps::test_b_spyre", "f", "TestOps::test_b", ""}};
    using O = std::optional<TestOutcome>;
    RecentJob one{"org/repo", "CI", "test (1)", std::vector<RecentRun>(3), {}};
    one.tests = {{0, {O(TestOutcome::XFailed), O(TestOutcome::XFailed), std::nullopt}},
                 {1, {O(TestOutcome::Failed), std::nullopt, O(TestOutcome::XFailed)}},
                 {2, {O(TestOutcome::Passed), O(TestOutcome::Passed), O(TestOutcome::Passed)}}};
    RecentJob two{"org/repo", "CI", "test (2)", std::vector<RecentRun>(2), {}};
    two.tests = {{0, {O(TestOutcome::XFailed), std::nullopt}}};
    recent.jobs = {one, two};

    const PassRecord a = passRecord(recent, {0, 1});
    EXPECT_EQ(a.runs, 4) << "a run counts once whatever its variants";
    EXPECT_EQ(a.passed, 0);
    EXPECT_EQ(a.jobs, 2);
    EXPECT_EQ(neverPassedWarning(a), "never passed in its last 4 runs, in 2 jobs");
    EXPECT_EQ(neverPassedWarning(passRecord(recent, {0})),
              "never passed in its last 3 runs, in 2 jobs");
    EXPECT_FALSE(neverPassedWarning(passRecord(recent, {2}))) << "passed";
    EXPECT_FALSE(neverPassedWarning(passRecord(recent, {}))) << "no runs: nothing to go on";

    // An XPASS(strict) is a green run: the test passes, the mark is wrong.
    recent.jobs[1].tests[0].outcomes[1] = TestOutcome::XPassStrict;
    EXPECT_FALSE(neverPassedWarning(passRecord(recent, {0})));
}
