// The report against the simulator's seeded stories: its rows go into a real
// cache with the test results of the JUnit reports its CI writes (through
// the real reader). The broken-trunk culprit's first failing head lists the
// test under "caused by this PR" with the PR's files; a PR it broke lists it
// under "already broken upstream", first seen on the culprit; no compare link
// joins two different PRs' heads. The flaky story's test, failed on attempt 1
// and passed on the rerun, must be under flaky. A PR head with every job
// that ran on it and a handful of failures reads in 40 lines (issue 17).
#include "relayhud/junit/junit_reader.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/verdict/report.h"

#include "report_shape.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

namespace relayhud::verdict {
namespace {

using test::bodyBeforeDetails;
using test::firstContentLine;
using test::markdownLines;
using test::withoutDetails;
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

// The heading of each section of the Markdown report.
std::string sectionTitle(ReportSection section)
{
    switch (section) {
    case ReportSection::Regression: return "Caused by this PR";
    case ReportSection::Broken: return "Already broken upstream";
    case ReportSection::Backend: return "Broken in the backend";
    case ReportSection::Flaky: return "Flaky";
    case ReportSection::Infra: return "Infra";
    case ReportSection::Other: return "Others";
    }
    return {};
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
        ASSERT_TRUE(RunStore(*s_cache).apply(SyncBatch{s_data->backends, s_data->commits, {}, {}}));
        for (const sim::SimRow& row : s_data->rows)
            if (isRegressionJob(row.run) || isFlakyJob(row.run) || isHiddenFailureJob(row.run))
                store(*s_cache, row);
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
    static void store(Database& cache, const sim::SimRow& row)
    {
        ASSERT_TRUE(RunStore(cache).apply(SyncBatch{{}, {}, {row.run}, {}}));
        const std::vector<sim::SimReport> reports = s_truth->reports(row);
        if (reports.empty())
            return;
        auto id = RunStore(cache).checkRunRowFor(row.run.checkRunId);
        ASSERT_TRUE(id && *id) << row.run.checkRunId.value;
        auto writer =
            TestResultStore(cache).beginTestRun({**id, TestRunSource::Artifacts, "sim", ""});
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

    // The first PR head, by commit time, whose runs fail a handful of tests
    // (2 to 8 by the simulator's truth, which leaves out xfails that failed
    // as expected) on at least 5 backends.
    static Sha handfulSha()
    {
        std::map<Sha, std::vector<const sim::SimRow*>> rowsOf;
        for (const sim::SimRow& row : s_data->rows)
            if (row.run.eventType == EventType::PullRequest)
                rowsOf[row.run.upstreamSha].push_back(&row);
        std::vector<UpstreamCommit> commits = s_data->commits;
        std::sort(commits.begin(), commits.end(),
                  [](const UpstreamCommit& a, const UpstreamCommit& b) { return a.time < b.time; });
        for (const UpstreamCommit& c : commits) {
            std::set<std::string> backends;
            std::size_t failing = 0;
            for (const sim::SimRow* row : rowsOf[c.sha]) {
                backends.insert(row->run.downstreamRepo);
                failing += s_truth->failingTests(*row).size();
            }
            if (failing >= 2 && failing <= 8 && backends.size() >= 5)
                return c.sha;
        }
        return {};
    }

    // The report input with every job's failures, as the CLI builds it.
    static ReportInput report(const Sha& sha) { return report(*s_cache, sha); }
    static ReportInput report(const Database& cache, const Sha& sha)
    {
        auto input = loadReportInput(cache, sha, std::nullopt, {});
        EXPECT_TRUE(input) << input.message();
        if (!input)
            return {};
        for (const RunVerdict& job : input->jobs) {
            auto failures = failuresFromResults(cache, job);
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
    static inline Database* s_cache = nullptr;
};

TEST_F(ReportSimTest, TheCulpritCausedItAndThePrsItBrokeSayAlreadyBrokenUpstream)
{
    const sim::SimStories& s = stories();
    ASSERT_FALSE(s.brokenTrunk.empty());
    const sim::SimBrokenTrunk& story = s.brokenTrunk.front();
    std::map<Sha, PrNumber> prOf;
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
    const std::string files = "https://github.com/pytorch/pytorch/pull/"
                              + std::to_string(story.culpritPr.value) + "/files";
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
    EXPECT_NE(b->firstSeen.find("#" + std::to_string(story.culpritPr.value)), std::string::npos)
        << b->firstSeen;
    md = markdownReport(broken);
    EXPECT_LE(md.size(), kCommentLimit);
    const std::string section = sectionText(md, "Already broken upstream");
    ASSERT_FALSE(section.empty()) << md.substr(0, 4000);
    EXPECT_NE(
        section.find("likely [#" + std::to_string(story.culpritPr.value) + "](<" + files + ">)"),
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

// Issue 17: a report that fits a PR comment. A PR's head with every job
// that ran on it, as a sync and an artifact fetch leave them: most are
// greens that no config verifies, a handful of tests fail, and thousands of
// xfails fail as expected. The summary and the jobs that failed lead (the
// expected xfails only counted, issue 36); each backend's greens are one
// line with counts; every job's row is still there inside <details>; and
// before the first fold, as with every fold closed, the report is 40 lines
// at most.
TEST_F(ReportSimTest, AShaWithAHandfulOfFailuresLeadsWithThemInFortyLines)
{
    const Sha sha = handfulSha();
    ASSERT_FALSE(sha.empty()) << "the dataset has no PR head with a handful of failures";
    relayhud::testing::TestCache cache = relayhud::testing::openCacheOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{s_data->backends, s_data->commits, {}, {}}));
    for (const sim::SimRow& row : s_data->rows)
        if (row.run.upstreamSha == sha)
            store(*cache, row);
    const ReportInput in = report(*cache, sha);
    std::map<std::string, std::size_t> greens; // by backend
    for (const RunVerdict& job : in.jobs)
        greens[job.run.downstreamRepo] +=
            job.verdict == Verdict::VerifiedGreen || isUnverifiedGreen(job.verdict);
    auto isExpected = [](const ClassifiedFailure& f) { return f.cls == FailureClass::Expected; };
    const auto expected =
        static_cast<std::size_t>(std::count_if(in.failures.begin(), in.failures.end(), isExpected));
    // A typical SHA: a score of jobs over several backends, a handful failing.
    ASSERT_GE(in.jobs.size(), 15u);
    ASSERT_GE(greens.size(), 4u);
    ASSERT_GE(in.failures.size() - expected, 2u);
    ASSERT_LE(in.failures.size() - expected, 8u);

    const std::string md = markdownReport(in);
    const std::string body = bodyBeforeDetails(md);
    const std::string closed = withoutDetails(md);
    const std::vector<std::string> lines = markdownLines(closed);
    std::cout << "[ measured ] " << in.jobs.size() << " jobs on " << greens.size() << " backends, "
              << in.failures.size() - expected << " failures and " << expected
              << " expected xfails: " << markdownLines(body).size() << " lines before <details>, "
              << lines.size() << " with the folds closed, " << markdownLines(md).size()
              << " in all\n";
    EXPECT_LE(markdownLines(body).size(), 40u) << body;
    EXPECT_LE(lines.size(), 40u) << closed;
    EXPECT_LT(md.size(), kReportBytes);

    // The summary comes first, then the jobs that failed: the first of them
    // has a failure of the worst section there is (issue 36).
    const ClassifiedFailure* first = nullptr;
    for (int s = 0; s <= static_cast<int>(ReportSection::Other) && !first; ++s)
        for (const ClassifiedFailure& f : in.failures)
            if (sectionOf(f) == static_cast<ReportSection>(s) && !isExpected(f)) {
                first = &f;
                break;
            }
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(firstContentLine(md).starts_with(std::to_string(in.jobs.size()) + " jobs · "))
        << body;
    const std::size_t listed = body.find("### Jobs that failed (");
    ASSERT_NE(listed, std::string::npos) << body;
    const std::string lead = body.substr(body.find("\n- ", listed) + 1, 600);
    EXPECT_NE(lead.substr(0, lead.find('\n')).find(triage::failureClassName(first->cls)),
              std::string::npos)
        << lead;
    // Every failure but the expected is shown under its section.
    std::map<ReportSection, std::size_t> bySection;
    for (const ClassifiedFailure& f : in.failures) {
        ++bySection[sectionOf(f)];
        if (!isExpected(f) && !f.test.empty()) {
            EXPECT_NE(sectionText(md, sectionTitle(sectionOf(f))).find(markdownCode(f.test)),
                      std::string::npos)
                << f.test << "\n"
                << body;
        }
    }
    for (const auto& [section, n] : bySection)
        std::cout << "[ measured ] " << reportSectionName(section) << ": " << n << "\n";
    if (expected > 0) {
        EXPECT_NE(closed.find("<details><summary>" + std::to_string(expected)
                              + " expected failures (xfail), by job</summary>"),
                  std::string::npos)
            << closed;
        EXPECT_EQ(md.find("| expected ("), std::string::npos) << "an xfail listed";
    }

    // Each backend's greens: one line with the count, which the counts by
    // verdict and reason add up to; no job row in the body.
    for (const auto& [backend, n] : greens) {
        const std::string head = "- **" + escapeMarkdown(backend) + "**: ";
        std::vector<std::string> found;
        for (const std::string& line : lines) {
            EXPECT_FALSE(line.starts_with("| " + escapeMarkdown(backend) + " |")) << line;
            if (line.starts_with(head))
                found.push_back(line.substr(head.size()));
        }
        ASSERT_EQ(found.size(), 1u) << backend << "\n" << closed;
        const std::string& line = found.front();
        if (n == 0) {
            EXPECT_TRUE(line.starts_with("no green")) << line;
            continue;
        }
        ASSERT_TRUE(line.starts_with(std::to_string(n) + " green (")) << line;
        // "(9 unverifiable: no outcome config; 3 verified)": its closing
        // parenthesis, past any inside a reason ("no test results (expired)").
        const std::size_t open = line.find('(');
        std::size_t close = open;
        for (int depth = 0; close < line.size(); ++close)
            if (line[close] == '(')
                ++depth;
            else if (line[close] == ')' && --depth == 0)
                break;
        // Each group counts its jobs; an unverified one says why.
        std::size_t sum = 0;
        for (std::size_t at = open + 1; at < close;) {
            const std::size_t next = std::min(line.find("; ", at), close);
            const std::string group = line.substr(at, next - at);
            sum += std::stoul(group);
            if (group.find(" verified") == std::string::npos) {
                EXPECT_NE(group.find(": "), std::string::npos) << line;
            }
            at = next < close ? next + 2 : close;
        }
        EXPECT_EQ(sum, n) << line;
    }

    // The per-job table, inside <details>: each job a row, as many as the
    // 20 KB hold (the greens' reasons are long), the rest counted.
    const std::size_t at =
        md.find("<details><summary>All " + std::to_string(in.jobs.size()) + " jobs: ");
    ASSERT_NE(at, std::string::npos) << closed;
    const std::string table = md.substr(at, md.find("</details>", at) - at);
    EXPECT_NE(table.find("| Backend | Job | Verdict | Reasons | Tests | Links |"),
              std::string::npos);
    std::size_t rows = 0;
    for (const std::string& line : markdownLines(table))
        rows += line.starts_with("| ") && !line.starts_with("| Backend |");
    ASSERT_GT(rows, 0u);
    for (std::size_t i = 0; i < rows; ++i) {
        const RunVerdict& job = in.jobs[i];
        EXPECT_NE(table.find("| " + escapeMarkdown(job.run.downstreamRepo) + " | "
                             + escapeMarkdown(job.run.workflow + " / " + job.run.jobName)),
                  std::string::npos)
            << job.run.jobName;
    }
    if (rows < in.jobs.size()) {
        EXPECT_NE(table.find("… " + std::to_string(in.jobs.size() - rows)
                             + " more not shown; full list: `relayhud-cli report --format csv"),
                  std::string::npos)
            << table;
    }
}

} // namespace
} // namespace relayhud::verdict
