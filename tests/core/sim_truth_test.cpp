// The simulator's ground truth (sim_truth.h): every failing test of a served
// row's JUnit, as RelayHUD's own JUnit reader names it, has exactly one line
// with its cause, and the stories behind the causes hold in the rows.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_truth.h"
#include "sim_world.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace relayhud::sim {
namespace {

using relayhud::test::kNow;
using relayhud::test::seedOneArtifacts;
using relayhud::test::seedOneWorld;

SimDataset build(std::uint64_t seed)
{
    SimConfig config;
    config.seed = seed;
    config.now = kNow;
    return buildDataset(config);
}

// The rows the simulator's HUD API serves: PR heads and nightlies. Push rows
// (pr_number 0, the delivery GUID as SHA) no row query returns, and the
// probe repo's rows fail on purpose.
// The HUD's nightly query keeps only the highest attempt of each (run_id,
// job_name) (specs/hud-read-api.md R4): an earlier nightly attempt is no row
// anyone sees, and has no truth line.
bool latestNightlyAttempt(const SimRow& row)
{
    static const auto highest = [] {
        std::map<std::pair<std::string, std::string>, int> out;
        for (const SimRow& r : seedOneWorld().rows)
            if (r.run.eventType == EventType::Nightly) {
                int& best = out[{r.run.runId, r.run.jobName}];
                best = std::max(best, r.run.runAttempt);
            }
        return out;
    }();
    const auto it = highest.find({row.run.runId, row.run.jobName});
    return it == highest.end() || it->second == row.run.runAttempt;
}

bool served(const SimRow& row)
{
    return (row.run.eventType == EventType::PullRequest
            || (row.run.eventType == EventType::Nightly && latestNightlyAttempt(row)))
           && row.run.downstreamRepo != "pytorch/crcr-test";
}

bool finished(const SimRow& row) { return row.run.reported.status == RunStatus::Completed; }

std::map<std::string, std::vector<const SimTruthLine*>> linesByRow(const SimDataset& d)
{
    std::map<std::string, std::vector<const SimTruthLine*>> out;
    for (const SimTruthLine& line : groundTruth(d))
        out[line.checkRunId.value].push_back(&line);
    return out;
}

std::map<std::string, const SimRow*> rowsById(const SimDataset& d)
{
    std::map<std::string, const SimRow*> out;
    for (const SimRow& row : d.rows)
        out[row.run.checkRunId.value] = &row;
    return out;
}

bool isFailing(TestOutcome o)
{
    return o == TestOutcome::Failed || o == TestOutcome::Error || o == TestOutcome::XPassStrict;
}

// The failing cases of the row's JUnit, read by the app's reader: identity -> case.
std::map<std::string, TestCaseResult> failingInJunit(const SimRow& row)
{
    std::map<std::string, TestCaseResult> out;
    for (const SimReport& report : seedOneArtifacts().reports(row)) {
        auto parsed = readJunitBuffer(report.xml);
        EXPECT_TRUE(parsed) << parsed.message();
        if (!parsed)
            continue;
        for (const TestCaseResult& c : parsed->cases)
            if (isFailing(c.outcome))
                out.emplace(c.identity, c);
    }
    return out;
}

TEST(SimTruth, EveryLineIsAFailingCaseOfTheServedJunitAndEveryFailingCaseHasOne)
{
    const auto byRow = linesByRow(seedOneWorld());
    const auto rows = rowsById(seedOneWorld());
    int checked = 0;
    for (const auto& [id, lines] : byRow) {
        const SimRow& row = *rows.at(id);
        ASSERT_TRUE(served(row) && finished(row)) << id;
        EXPECT_NE(row.run.reported.conclusion, Conclusion::Cancelled) << id;
        const bool jobLine = lines.size() == 1 && lines.front()->test.empty();
        if (jobLine) {
            // The job failed and its artifact (if any, and not expired)
            // shows no failing test.
            EXPECT_TRUE(row.run.reported.artifactUrl.empty()
                        || seedOneArtifacts().artifactExpired(row) || failingInJunit(row).empty())
                << id;
            continue;
        }
        // torch-spyre's reports are in its run without an artifact_url
        // (real-backends.md 1.5, 7).
        ASSERT_TRUE(!row.run.reported.artifactUrl.empty() || row.evidence.suites > 0) << id;
        EXPECT_FALSE(seedOneArtifacts().artifactExpired(row)) << id;
        const auto failing = failingInJunit(row);
        std::set<std::string> named;
        for (const SimTruthLine* line : lines) {
            ASSERT_FALSE(line->test.empty()) << id;
            EXPECT_TRUE(named.insert(line->test).second) << "two lines for " << line->test;
            EXPECT_TRUE(failing.count(line->test)) << id << " " << line->test;
        }
        for (const auto& [test, c] : failing)
            EXPECT_TRUE(named.count(test)) << id << ": no truth line for " << test;
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

TEST(SimTruth, ServedRowsThatFailedWithoutALineAreCancelledAndGreensHideNothing)
{
    const auto byRow = linesByRow(seedOneWorld());
    for (const SimRow& row : seedOneWorld().rows) {
        if (!served(row) || !finished(row) || byRow.count(row.run.checkRunId.value))
            continue;
        const Conclusion c = row.run.reported.conclusion;
        EXPECT_TRUE(c == Conclusion::Success || c == Conclusion::Cancelled)
            << row.run.checkRunId.value << " " << toString(c);
        // A green with an artifact fails no test in it (the hidden-failures story has lines).
        if (!row.run.reported.artifactUrl.empty()) {
            EXPECT_TRUE(seedOneArtifacts().failingTests(row).empty()) << row.run.checkRunId.value;
        }
    }
    for (const SimTruthLine& line : groundTruth(seedOneWorld()))
        EXPECT_NE(line.checkRunId.value, "") << line.test;
}

TEST(SimTruth, EveryCauseOccursOnEachSeed)
{
    for (std::uint64_t seed : {1U, 2U, 3U}) {
        const SimDataset d = build(seed);
        std::map<SimCause, int> causes;
        for (const SimTruthLine& line : groundTruth(d)) {
            ++causes[line.cause];
            const bool culprit =
                line.cause == SimCause::ThisPr || line.cause == SimCause::BrokenTrunk;
            EXPECT_EQ(line.culpritPr.value != 0, culprit) << truthJsonLine(line);
        }
        for (SimCause c : {SimCause::ThisPr, SimCause::BrokenTrunk, SimCause::Backend,
                           SimCause::Flaky, SimCause::Infra, SimCause::UnexpectedPass})
            EXPECT_GT(causes[c], 0) << "seed " << seed << ": " << simCauseName(c);
    }
}

TEST(SimTruth, SameSeedSameTruth)
{
    const SimDataset again = build(1);
    ASSERT_EQ(groundTruth(again).size(), groundTruth(seedOneWorld()).size());
    for (std::size_t i = 0; i < groundTruth(again).size(); ++i)
        EXPECT_EQ(truthJsonLine(groundTruth(again)[i]),
                  truthJsonLine(groundTruth(seedOneWorld())[i]));
}

TEST(SimTruth, LinesAreJsonWithTheFourFields)
{
    const SimTruthLine line{CheckRunId{"41000000001"}, "test_ops.py::TestX::test_y",
                            SimCause::BrokenTrunk, 161346};
    EXPECT_EQ(
        truthJsonLine(line),
        R"({"check_run_id":"41000000001","test":"test_ops.py::TestX::test_y","cause":"broken_trunk","culprit_pr":161346})");
    const SimTruthLine job{CheckRunId{"7"}, "", SimCause::Infra, 0};
    EXPECT_EQ(truthJsonLine(job),
              R"({"check_run_id":"7","test":"","cause":"infra","culprit_pr":null})");
}

const SimPullRequest* pull(PrNumber number)
{
    for (const SimPullRequest& p : seedOneWorld().pulls)
        if (p.number == number)
            return &p;
    return nullptr;
}

// The culprit's own heads fail T (this PR's); after its merge, main-based PR
// heads and nightlies of other PRs fail T until the fix (broken trunk).
TEST(SimTruth, BrokenTrunkCulpritThenLaterPrsUntilTheFix)
{
    const SimStories& s = seedOneWorld().stories;
    ASSERT_FALSE(s.brokenTrunk.empty());
    const auto rows = rowsById(seedOneWorld());
    std::map<std::string, EpochSeconds> times;
    std::map<std::string, std::string> base;
    for (const UpstreamCommit& c : seedOneWorld().commits) {
        times[c.sha.value] = c.time;
        base[c.sha.value] = c.branch;
    }
    for (const SimBrokenTrunk& b : s.brokenTrunk) {
        const SimPullRequest* culprit = pull(b.culpritPr);
        ASSERT_NE(culprit, nullptr);
        EXPECT_EQ(culprit->mergedAt, b.mergedAt);
        EXPECT_EQ(culprit->mergeCommitSha.value.size(), 40U);
        EXPECT_GT(b.mergedAt, culprit->heads.back().time);
        EXPECT_GE(b.fixedAt - b.mergedAt, 86400);
        if (b.fixPr.value != 0) {
            EXPECT_EQ(pull(b.fixPr)->mergedAt, b.fixedAt);
        }
        int own = 0, later = 0, nightlies = 0;
        for (const SimTruthLine& line : groundTruth(seedOneWorld())) {
            if (line.test != b.test)
                continue;
            const SimRow& row = *rows.at(line.checkRunId.value);
            EXPECT_EQ(row.run.jobName, b.job);
            const EpochSeconds t = times.at(row.testedSha.value);
            if (line.cause == SimCause::ThisPr) {
                EXPECT_EQ(row.run.prNumber, b.culpritPr);
                EXPECT_EQ(line.culpritPr, b.culpritPr);
                EXPECT_LT(t, b.mergedAt);
                ++own;
                continue;
            }
            ASSERT_EQ(line.cause, SimCause::BrokenTrunk);
            EXPECT_EQ(line.culpritPr, b.culpritPr);
            EXPECT_GE(t, b.mergedAt);
            EXPECT_LT(t, b.fixedAt);
            EXPECT_NE(row.run.prNumber, b.culpritPr);
            if (row.run.eventType == EventType::Nightly)
                ++nightlies;
            else
                EXPECT_EQ(base.at(row.testedSha.value), "main");
            ++later;
        }
        EXPECT_GE(own, 1) << b.culpritPr.value;
        EXPECT_GE(later, 3) << b.culpritPr.value;
        EXPECT_GE(nightlies, 1) << b.culpritPr.value;
    }
    EXPECT_EQ(s.culpritPr, s.brokenTrunk.front().culpritPr);
    EXPECT_EQ(s.regressionTests, std::vector<std::string>{s.brokenTrunk.front().test});
}

TEST(SimTruth, DeviceBusyHourErrorsTestsAtSetupWithTheBackendsDevice)
{
    const SimStories& s = seedOneWorld().stories;
    ASSERT_FALSE(s.deviceBusyBackend.empty());
    EXPECT_EQ(s.deviceBusyUntil - s.deviceBusyFrom, 3600);
    const auto rows = rowsById(seedOneWorld());
    std::set<PrNumber> prs;
    int tests = 0;
    for (const SimTruthLine& line : groundTruth(seedOneWorld())) {
        const SimRow& row = *rows.at(line.checkRunId.value);
        if (line.cause != SimCause::Infra || line.test.empty())
            continue;
        EXPECT_EQ(row.run.downstreamRepo, s.deviceBusyBackend);
        EXPECT_GE(*row.run.reported.startedAt, s.deviceBusyFrom);
        EXPECT_LT(*row.run.reported.startedAt, s.deviceBusyUntil);
        const auto failing = failingInJunit(row);
        ASSERT_TRUE(failing.count(line.test)) << line.test;
        const TestCaseResult& c = failing.at(line.test);
        EXPECT_EQ(c.outcome, TestOutcome::Error);
        EXPECT_NE(c.message.text.find(" device 0 is not available: device or resource busy"),
                  std::string::npos)
            << c.message.text;
        prs.insert(row.run.prNumber);
        ++tests;
    }
    EXPECT_GE(tests, 2);
    EXPECT_GE(prs.size(), 1U);
}

TEST(SimTruth, ANewTestExistsOnlyInItsPrsRunsAndFailsThere)
{
    const SimPrBreak* story = nullptr;
    for (const SimPrBreak& b : seedOneWorld().stories.prBreaks)
        if (b.newTest)
            story = &b;
    ASSERT_NE(story, nullptr);
    ASSERT_EQ(story->tests.size(), 1U);
    const std::string& test = story->tests.front();
    int inPr = 0;
    for (const SimRow& row : seedOneWorld().rows) {
        if (row.run.downstreamRepo != story->backend || row.run.jobName != story->job
            || row.run.reported.artifactUrl.empty())
            continue;
        const bool ours =
            row.run.prNumber == story->pr && row.run.eventType == EventType::PullRequest;
        const auto failing = seedOneArtifacts().failingTests(row);
        const bool fails = std::find(failing.begin(), failing.end(), test) != failing.end();
        EXPECT_EQ(fails, ours) << row.run.checkRunId.value;
        if (ours) {
            ++inPr;
            std::int64_t cases = 0;
            for (const SimReport& r : seedOneArtifacts().reports(row))
                cases += r.tests;
            EXPECT_EQ(cases, row.run.reported.tests->total) << "the new test is counted";
        }
    }
    EXPECT_GE(inPr, 1);
    const SimPullRequest* pr = pull(story->pr);
    ASSERT_NE(pr, nullptr);
    EXPECT_FALSE(pr->merged());
}

// A backend whose workflow checks out pytorch's default branch, not the PR
// head (the doctor's wrong-SHA story), tests main: a PR's own change never
// fails its runs, so no truth line of its PR rows blames the PR.
TEST(SimTruth, APrsRunOnABackendThatTestsMainCarriesNoChangeOfThePr)
{
    int lines = 0;
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
        const SimDataset d = build(seed);
        ASSERT_FALSE(d.stories.wrongShaBackend.empty());
        const auto rows = rowsById(d);
        for (const SimTruthLine& line : groundTruth(d)) {
            const SimRow& row = *rows.at(line.checkRunId.value);
            if (row.run.downstreamRepo != d.stories.wrongShaBackend
                || row.run.eventType != EventType::PullRequest)
                continue;
            ++lines;
            EXPECT_NE(line.cause, SimCause::ThisPr)
                << "seed " << seed << ", " << row.run.checkRunId.value << " of #"
                << row.run.prNumber.value;
        }
    }
    EXPECT_GE(lines, 10);
}

TEST(SimTruth, PullRequestsHaveFatesAndHeads)
{
    int merged = 0;
    for (const SimPullRequest& p : seedOneWorld().pulls) {
        EXPECT_FALSE(p.title.empty());
        EXPECT_FALSE(p.author.empty());
        EXPECT_EQ(p.baseSha.value.size(), 40U);
        EXPECT_LE(p.createdAt, p.heads.empty() ? p.createdAt : p.heads.front().time);
        EXPECT_TRUE(std::is_sorted(p.heads.begin(), p.heads.end(),
                                   [](const auto& a, const auto& b) { return a.time < b.time; }));
        if (!p.merged())
            continue;
        ++merged;
        EXPECT_EQ(p.closedAt, p.mergedAt);
        EXPECT_LT(p.mergedAt, kNow);
        if (!p.heads.empty()) {
            EXPECT_GT(p.mergedAt, p.heads.back().time) << p.number.value;
        }
    }
    const auto share =
        static_cast<double>(merged) / static_cast<double>(seedOneWorld().pulls.size());
    EXPECT_GT(share, 0.2);
    EXPECT_LT(share, 0.5);
}

} // namespace
} // namespace relayhud::sim
