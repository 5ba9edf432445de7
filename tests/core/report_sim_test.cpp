// The report against the simulator's seeded stories: its rows go into a real
// cache with the test results of the JUnit reports its CI writes (through
// the real reader). The broken-trunk culprit's first failing head lists the
// test under "caused by this PR" with the PR's files; a PR it broke lists it
// under "already broken upstream", first seen on the culprit; no compare link
// joins two different PRs' heads. The flaky story's test, failed on attempt 1
// and passed on the rerun, must be under flaky.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/store/cache.h"
#include "relayhud/verdict/report.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

namespace relayhud::verdict {
namespace {

using triage::FailureClass;

// A fixed "now": which attempts of the flaky job have results moves with
// the hour of SimConfig{}'s default.
constexpr EpochSeconds kAnchor = 1796126400; // 2026-12-01 12:00 UTC

bool isJob(const CheckRun& run, const std::string& repo, const std::string& workflow,
           const std::string& job)
{
    return run.downstreamRepo == repo && run.workflow == workflow && run.jobName == job;
}

// The text of one "### " section of a Markdown report ("" when absent).
std::string sectionText(const std::string& md, const std::string& title)
{
    const std::size_t start = md.find("### " + title + " (");
    if (start == std::string::npos)
        return {};
    const std::size_t end = md.find("\n### ", start + 1);
    return md.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

class ReportSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        sim::SimConfig config;
        config.now = kAnchor;
        s_data = new sim::SimDataset(sim::buildDataset(config));
        s_truth = new sim::SimArtifacts(*s_data);
        s_cache = relayhud::testing::openCacheOk(":memory:").release();
        ASSERT_TRUE(s_cache->apply(SyncBatch{s_data->backends, s_data->commits, {}, {}}));
        for (const sim::SimRow& row : s_data->rows)
            if (isRegressionJob(row.run) || isFlakyJob(row.run) || isHiddenFailureJob(row.run))
                store(row);
    }
    static void TearDownTestSuite()
    {
        delete s_cache;
        delete s_truth;
        delete s_data;
    }

    static const sim::SimStories& stories() { return s_data->stories; }
    static bool isRegressionJob(const CheckRun& r)
    {
        const sim::SimStories& s = stories();
        return isJob(r, s.regressionBackend, s.regressionWorkflow, s.regressionJob);
    }
    static bool isFlakyJob(const CheckRun& r)
    {
        const sim::SimStories& s = stories();
        return isJob(r, s.flakyBackend, s.flakyWorkflow, s.flakyJob);
    }

    static bool isHiddenFailureJob(const CheckRun& r)
    {
        const sim::SimStories& s = stories();
        return isJob(r, s.hiddenFailureBackend, s.hiddenFailureWorkflow, s.hiddenFailureJob);
    }

    // The row, and the test results of its reports when it has any.
    static void store(const sim::SimRow& row)
    {
        ASSERT_TRUE(s_cache->apply(SyncBatch{{}, {}, {row.run}, {}}));
        const std::vector<sim::SimReport> reports = s_truth->reports(row);
        if (reports.empty())
            return;
        auto id = s_cache->checkRunRowFor(row.run.checkRunId);
        ASSERT_TRUE(id && *id) << row.run.checkRunId.value;
        auto writer = s_cache->beginTestRun({**id, TestRunSource::Artifacts, "sim", ""});
        ASSERT_TRUE(writer) << writer.message();
        TestRunTotals totals;
        for (const sim::SimReport& report : reports) {
            auto junit = readJunitBuffer(report.xml);
            ASSERT_TRUE(junit) << junit.message();
            ++totals.reports;
            for (const TestCaseResult& c : junit->cases) {
                ASSERT_TRUE((*writer)->add(c));
                ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
            }
        }
        ASSERT_TRUE((*writer)->commit(totals));
    }

    static EpochSeconds commitTime(const Sha& sha)
    {
        for (const UpstreamCommit& c : s_data->commits)
            if (c.sha == sha)
                return c.time;
        ADD_FAILURE() << "no commit " << sha.value;
        return 0;
    }

    // The report input with every job's failures, as the CLI builds it.
    static ReportInput report(const Sha& sha)
    {
        auto input = loadReportInput(*s_cache, sha, std::nullopt, {});
        EXPECT_TRUE(input) << input.message();
        if (!input)
            return {};
        for (const RunVerdict& job : input->jobs) {
            auto failures = failuresFromResults(*s_cache, job);
            EXPECT_TRUE(failures) << failures.message();
            if (failures)
                input->failures.insert(input->failures.end(), failures->begin(), failures->end());
        }
        return std::move(*input);
    }

    static const ClassifiedFailure* find(const ReportInput& in, const std::string& test)
    {
        for (const ClassifiedFailure& f : in.failures)
            if (f.test == test)
                return &f;
        return nullptr;
    }

    static inline sim::SimDataset* s_data = nullptr;
    static inline sim::SimArtifacts* s_truth = nullptr;
    static inline Cache* s_cache = nullptr;
};

TEST_F(ReportSimTest, TheCulpritCausedItAndThePrsItBrokeSayAlreadyBrokenUpstream)
{
    const sim::SimStories& s = stories();
    ASSERT_FALSE(s.brokenTrunk.empty());
    const sim::SimBrokenTrunk& story = s.brokenTrunk.front();
    std::map<Sha, std::int64_t> prOf;
    for (const UpstreamCommit& c : s_data->commits)
        prOf[c.sha] = c.prNumber;
    // Every compare link joins two heads of one PR.
    auto expectNoCrossPrCompare = [&](const std::string& md) {
        const std::string marker = "https://github.com/pytorch/pytorch/compare/";
        for (std::size_t at = md.find(marker); at != std::string::npos;
             at = md.find(marker, at + 1)) {
            const Sha a{md.substr(at + marker.size(), 40)};
            const Sha b{md.substr(at + marker.size() + 43, 40)};
            EXPECT_EQ(prOf[a], prOf[b]) << md.substr(at, 130);
        }
    };

    // The culprit's first failing head: caused by this PR.
    const ReportInput first = report(s.regressionFirstBadSha);
    const ClassifiedFailure* f = find(first, story.test);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->cls, FailureClass::Regression) << f->why;
    EXPECT_EQ(sectionOf(*f), ReportSection::Regression);
    const std::string files =
        "https://github.com/pytorch/pytorch/pull/" + std::to_string(story.culpritPr) + "/files";
    EXPECT_EQ(f->changeUrl, files);
    std::string md = markdownReport(first);
    EXPECT_NE(sectionText(md, "Caused by this PR").find("(<" + files + ">)"), std::string::npos)
        << md.substr(0, 4000);
    expectNoCrossPrCompare(md);

    // A later PR's head, after the merge: already broken upstream.
    Sha later;
    for (const sim::SimRow& row : s_data->rows) {
        // Only PR rows carry an upstream commit's SHA (a push row has the
        // delivery GUID, a nightly may have free text).
        if (row.run.eventType != EventType::PullRequest)
            continue;
        const EpochSeconds t = commitTime(row.run.upstreamSha);
        if (isRegressionJob(row.run) && row.run.prNumber != story.culpritPr
            && t > story.mergedAt + 6 * 3600 && t < story.fixedAt && !s_truth->reports(row).empty()
            && std::find(s_truth->failingTests(row).begin(), s_truth->failingTests(row).end(),
                         story.test)
                   != s_truth->failingTests(row).end())
            later = row.run.upstreamSha;
    }
    ASSERT_FALSE(later.empty()) << "no PR after the merge ran the job with artifacts";
    const ReportInput broken = report(later);
    const ClassifiedFailure* b = find(broken, story.test);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->cls, FailureClass::PreExisting) << b->why;
    EXPECT_EQ(sectionOf(*b), ReportSection::Broken);
    EXPECT_EQ(b->culpritPr, story.culpritPr) << b->why;
    EXPECT_NE(b->firstSeen.find("#" + std::to_string(story.culpritPr)), std::string::npos)
        << b->firstSeen;
    md = markdownReport(broken);
    EXPECT_LE(md.size(), kCommentLimit);
    const std::string section = sectionText(md, "Already broken upstream");
    ASSERT_FALSE(section.empty()) << md.substr(0, 4000);
    EXPECT_NE(section.find("likely [#" + std::to_string(story.culpritPr) + "](<" + files + ">)"),
              std::string::npos)
        << section;
    EXPECT_NE(section.find(markdownCode(story.test)), std::string::npos);
    expectNoCrossPrCompare(md);
    std::cout << "[ measured ] " << broken.jobs.size() << " jobs, " << broken.failures.size()
              << " failures, " << md.size() << " bytes of Markdown\n";

    const std::string csv = csvReport(broken);
    EXPECT_NE(csv.find(",pre-existing,broken upstream,"), std::string::npos);
}

TEST_F(ReportSimTest, TheFlakyTestIsUnderFlakyWithItsPassingRerun)
{
    const sim::SimStories& s = stories();
    // SHAs where attempt 1 failed the flaky test and a later attempt passed
    // it, both with results.
    std::map<Sha, std::pair<bool, bool>> seen;
    for (const sim::SimRow& row : s_data->rows) {
        if (!isFlakyJob(row.run) || s_truth->reports(row).empty())
            continue;
        const auto failing = s_truth->failingTests(row);
        const bool fails = std::find(failing.begin(), failing.end(), s.flakyTest) != failing.end();
        if (row.run.runAttempt == 1 && fails)
            seen[row.run.upstreamSha].first = true;
        else if (row.run.runAttempt > 1 && !fails)
            seen[row.run.upstreamSha].second = true;
    }
    int checked = 0;
    for (const auto& [sha, flags] : seen) {
        if (!flags.first || !flags.second || checked == 2)
            continue;
        const ReportInput in = report(sha);
        const ClassifiedFailure* f = find(in, s.flakyTest);
        ASSERT_NE(f, nullptr) << sha.value;
        EXPECT_EQ(f->cls, FailureClass::Flaky) << f->why;
        EXPECT_EQ(sectionOf(*f), ReportSection::Flaky);
        EXPECT_EQ(f->attempt, 1);
        EXPECT_GT(f->rerunAttempt, 1);
        EXPECT_FALSE(f->rerunUrl.empty());
        const std::string md = markdownReport(in);
        const std::string flaky = sectionText(md, "Flaky");
        ASSERT_FALSE(flaky.empty()) << md.substr(0, 4000);
        EXPECT_NE(flaky.find(markdownCode(s.flakyTest)), std::string::npos) << flaky;
        EXPECT_NE(flaky.find("[attempt " + std::to_string(f->rerunAttempt) + "]"),
                  std::string::npos)
            << flaky;
        ++checked;
    }
    EXPECT_GT(checked, 0) << "the dataset seeds no rerun that passed";
}

TEST_F(ReportSimTest, ASelfReportedGreenDoesNotHideItsFailingTests)
{
    const sim::SimStories& s = stories();
    ASSERT_FALSE(s.hiddenFailureShas.empty());
    const ReportInput in = report(s.hiddenFailureShas.front());
    const auto job = std::find_if(in.jobs.begin(), in.jobs.end(),
                                  [](const RunVerdict& v) { return isHiddenFailureJob(v.run); });
    ASSERT_NE(job, in.jobs.end());
    EXPECT_EQ(job->verdict, Verdict::GreenDisputed);
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("❗ green, disputed"), std::string::npos);
    for (const std::string& test : s.hiddenFailureTests) {
        const ClassifiedFailure* f = find(in, test);
        ASSERT_NE(f, nullptr) << test;
        EXPECT_EQ(f->checkRunRow, job->checkRunRow);
        EXPECT_NE(md.find(markdownCode(test)), std::string::npos) << test;
        std::cout << "[ measured ] hidden failure " << test << ": "
                  << triage::failureClassName(f->cls) << ", " << reportSectionName(sectionOf(*f))
                  << "\n";
    }
}

} // namespace
} // namespace relayhud::verdict
