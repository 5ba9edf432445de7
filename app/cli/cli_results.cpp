// relayhud-cli import and tests: JUnit reports into the cache, and the
// stored results of a check run or an import back out.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/results/report_import.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/terminal_text.h"

#include <cstdio>
#include <filesystem>

namespace relayhud::cli {
namespace {

std::string figures(const JunitTotals& t)
{
    return "tests " + std::to_string(t.tests) + ", failures " + std::to_string(t.failures)
           + ", errors " + std::to_string(t.errors) + ", skipped " + std::to_string(t.skipped);
}

// The counted figures (what the report holds); the declared ones beside them
// only when the report's own attributes say otherwise.
void printReport(const ImportedReport& report, std::ostream& out)
{
    out << report.name << ": " << figures(report.counted);
    if (report.declared != report.counted)
        out << " (the report declares " << figures(report.declared) << ")";
    out << '\n';
}

void printTotal(const ImportSummary& summary, TestRunId testRunId, std::ostream& out)
{
    const TestRunTotals& t = summary.totals;
    out << "imported " << t.reports << (t.reports == 1 ? " report, " : " reports, ") << t.cases()
        << " test cases as test run " << testRunId.value << " (";
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i)
        out << (i ? ", " : "") << outcomeName(static_cast<TestOutcome>(i)) << ' ' << t.outcomes[i];
    out << ")\n";
}

TestRunOrigin importOrigin(const std::vector<std::string>& paths)
{
    std::error_code ec;
    std::string location = std::filesystem::absolute(paths.front(), ec).lexically_normal().string();
    std::string label = std::filesystem::path(paths.front()).lexically_normal().filename().string();
    if (label.empty())
        label = location;
    if (paths.size() > 1) {
        label += " and " + std::to_string(paths.size() - 1) + " more";
        location += " (+" + std::to_string(paths.size() - 1) + ")";
    }
    return TestRunOrigin{std::nullopt, TestRunSource::Import, label, location};
}

std::optional<TestOutcome> outcomeFromName(const std::string& name)
{
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i)
        if (name == outcomeName(static_cast<TestOutcome>(i)))
            return static_cast<TestOutcome>(i);
    return std::nullopt;
}

std::string firstLine(const std::string& text)
{
    return text.substr(0, text.find_first_of("\r\n"));
}

void printResult(const StoredTestResult& r, std::ostream& out)
{
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.3fs", r.durationSeconds);
    std::string outcome = outcomeName(r.outcome);
    outcome.resize(std::max<std::size_t>(outcome.size(), 12), ' ');
    out << outcome << "  " << oneLine(r.identity) << "  " << duration;
    if (!r.message.empty())
        out << "  " << oneLine(firstLine(r.message));
    out << '\n';
}

// The test run that --check-run or --test-run names, or why there is none.
Result<TestRunInfo> chosenTestRun(Database& cache, const Flags& flags)
{
    if (flags.has("test-run")) {
        std::int64_t id = 0;
        if (!parseInt64(flags.get("test-run"), id))
            return makeError("--test-run must be a test run id (a number)");
        return TestResultStore(cache).testRun(TestRunId{id});
    }
    const CheckRunId checkRun{flags.get("check-run")};
    auto row = RunStore(cache).checkRunRowFor(checkRun);
    if (!row)
        return row.error();
    if (!*row)
        return makeError("no check run with id " + checkRun.value + " in the cache (sync first?)");
    auto info = TestResultStore(cache).testRunForCheckRun(**row);
    if (!info)
        return info.error();
    if (!*info)
        return makeError(
            "check run " + checkRun.value
            + " has no test results in the cache yet (its artifacts were not fetched)");
    if ((*info)->state != TestRunState::Stored)
        return makeError("check run " + checkRun.value
                         + " has no test results: " + testRunStateName((*info)->state)
                         + ((*info)->message.empty() ? "" : " (" + (*info)->message + ")"));
    return std::move(**info);
}

Result<TestResultFilter> resultFilter(const Flags& flags)
{
    TestResultFilter filter;
    for (const std::string& name : flags.all("outcome")) {
        auto outcome = outcomeFromName(name);
        if (!outcome)
            return makeError("--outcome must be one of passed, failed, error, skipped, xfailed, "
                             "xpass-strict (not '"
                             + name + "')");
        filter.outcomes.push_back(*outcome);
    }
    if (flags.has("limit") && (!parseInt64(flags.get("limit"), filter.limit) || filter.limit < 1))
        return makeError("--limit must be a positive integer");
    return filter;
}

} // namespace

int runImport(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err)
{
    if (args.empty())
        return fail(err, "import: give one or more JUnit reports, archives or folders", 2);
    for (const std::string& a : args)
        if (a.starts_with("--"))
            return fail(err, "import: unknown option '" + a + "'", 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto blobs = ContentCache::open(blobRootFor((*cache)->path()));
    if (!blobs)
        return fail(err, "import: " + blobs.message());
    auto writer = TestResultStore(**cache).beginTestRun(importOrigin(args), &*blobs);
    if (!writer)
        return fail(err, "import: " + writer.message());
    auto summary = importReports(args, **writer);
    if (!summary)
        return fail(err, "import: " + summary.message());
    auto id = (*writer)->commit(summary->totals);
    if (!id)
        return fail(err, "import: " + id.message());
    for (const std::string& w : summary->warnings)
        err << "warning: " << w << '\n';
    for (const ImportedReport& report : summary->reports)
        printReport(report, out);
    printTotal(*summary, *id, out);
    return 0;
}

int runTests(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err)
{
    const Flags flags = parseFlags(args, {"--check-run", "--test-run", "--outcome", "--limit"});
    if (!flags.error.empty())
        return fail(err, "tests: " + flags.error, 2);
    if (flags.has("check-run") == flags.has("test-run"))
        return fail(err, "tests: give either --check-run ID or --test-run N", 2);
    auto filter = resultFilter(flags);
    if (!filter)
        return fail(err, "tests: " + filter.message(), 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto testRun = chosenTestRun(**cache, flags);
    if (!testRun)
        return fail(err, "tests: " + testRun.message());
    auto results = TestResultStore(**cache).testResults(testRun->id, *filter);
    if (!results)
        return fail(err, "tests: " + results.message());
    for (const StoredTestResult& r : *results)
        printResult(r, out);
    return 0;
}

} // namespace relayhud::cli
