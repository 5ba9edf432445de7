// Verdicts and reports (issue 7), each beside the plain SQLite read of the
// same results (TestResultStore::testResults), the floor under any verdict:
//   verdict + coverage of a 30,000-case run        <= 100 ms
//   a Markdown report across 10 backends           <= 200 ms
//   the matrix's verdict marks, first pass         <= 2x reading the results
//   the matrix's verdict marks, remembered         <= 16 ms (one frame)
// The cache is built at bench time in a temp folder. The verdict run has
// 3,000 base names over 30 ops and 4 dtypes against a 400-name config with
// patterns, force_xfail and supported lists; the report SHA has one job per
// backend (3,000 cases, 30 failing) and a previous SHA for the history.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/sync/verdict_marks.h"
#include "relayhud/verdict/report.h"
#include "relayhud/verdict/verdict.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace relayhud::bench {
namespace {

namespace fs = std::filesystem;
constexpr int kRounds = 11;
constexpr int kOps = 30;
constexpr const char* kDtypes[] = {"float16", "float32", "bfloat16", "int64"};
const std::string kRepo = "torch-spyre/torch-spyre";

std::string opName(int i) { return "op" + std::to_string(i); }

// 400 names in 8 entries of alternating modes, 2 regexes, supported lists
// missing one op and one dtype, force_xfail on one op.
std::string benchConfig()
{
    std::string text = "test_suite_config:\n  files:\n    - path: ${TORCH_ROOT}/test/test_ops.py\n"
                       "      unlisted_test_mode: xfail\n      tests:\n";
    const char* modes[] = {"mandatory_success", "xfail", "mandatory_success", "xfail_strict"};
    for (int e = 0; e < 8; ++e) {
        text += "        - names:\n";
        for (int n = 0; n < 50; ++n)
            text += "            - TestOps::test_case_" + std::to_string(e * 50 + n) + "\n";
        text += std::string("          mode: ") + modes[e % 4] + "\n";
    }
    // Regex names, as torch-spyre's configs write them.
    text += "        - names:\n            - TestOps::test_case_2.0.*\n          mode: xfail\n";
    text += "        - names:\n            - TestOps::test_pattern_.*\n";
    text += "  global:\n    supported_dtypes:\n";
    for (int d = 0; d < 3; ++d)
        text += std::string("      - name: ") + kDtypes[d] + "\n";
    text += "    supported_ops:\n";
    for (int o = 0; o < kOps - 1; ++o)
        text += "      - name: " + opName(o) + (o == 3 ? "\n        force_xfail: true\n" : "\n");
    return text;
}

TestCaseResult benchCase(int base, int variant, TestOutcome outcome)
{
    TestCaseResult c;
    const std::string op = opName((base + variant) % kOps);
    const std::string dtype = kDtypes[variant % 4];
    c.file = "test/test_ops.py";
    c.className = "TestOpsPRIVATEUSE1";
    const std::string method = "test_case_" + std::to_string(base);
    c.name = method + "_" + op + "_spyre_" + dtype + "_v" + std::to_string(variant);
    c.identity = c.file + "::" + c.className + "::" + c.name;
    c.baseName = "TestOps::" + method;
    c.marks.items = {{MarkKind::Op, op}, {MarkKind::Dtype, dtype}};
    c.outcome = outcome;
    if (outcome == TestOutcome::Failed)
        c.message.text = "AssertionError: Tensor-likes are not close! case " + c.name;
    return c;
}

// Stores one completed green run of `repo` at `sha` with `bases` x 10 cases,
// `failing` of them failed; returns its row.
std::int64_t storeRun(Database& cache, const std::string& repo, int sha, int bases, int failing)
{
    char text[41];
    std::snprintf(text, sizeof text, "%040x", 0xbe00 + sha);
    CheckRun run;
    run.downstreamRepo = repo;
    run.upstreamSha = Sha{text};
    run.workflow = "CI";
    run.jobName = "test (default)";
    run.runId = std::to_string(1000 + sha);
    run.checkRunId = CheckRunId{repo + "-" + std::to_string(sha)};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = failing ? Conclusion::Failure : Conclusion::Success;
    run.reported.runUrl = "https://github.com/" + repo + "/actions/runs/" + run.runId;
    UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, 1'700'000'000 + sha, "", ""};
    if (!RunStore(cache).apply(SyncBatch{{}, {commit}, {run}, {}}))
        return 0;
    auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
    auto writer =
        TestResultStore(cache).beginTestRun({**row, TestRunSource::Artifacts, "default.xml", ""});
    TestRunTotals totals;
    totals.reports = 1;
    int failed = 0;
    for (int b = 0; b < bases; ++b)
        for (int v = 0; v < 10; ++v) {
            TestOutcome o = b % 4 == 1 ? TestOutcome::XFailed : TestOutcome::Passed;
            if (v == 3 && failed < failing && b % 7 == 0) {
                o = TestOutcome::Failed;
                ++failed;
            }
            ++totals.outcomes[static_cast<std::size_t>(o)];
            (void)(*writer)->add(benchCase(b, v, o));
        }
    (void)(*writer)->commit(totals);
    return **row;
}

struct Scratch {
    fs::path dir = fs::temp_directory_path() / "relayhud-bench-verdict";
    Scratch()
    {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
};

} // namespace

void benchVerdict(Report& report)
{
    Scratch scratch;
    const std::string configPath = (scratch.dir / "ops.yaml").string();
    std::ofstream(configPath) << benchConfig();
    auto cache = Database::open((scratch.dir / "cache.sqlite").string());
    if (!cache) {
        std::printf("  verdict: %s\n", cache.message().c_str());
        return;
    }
    storeRun(**cache, kRepo, 1, 3000, 0);
    const std::int64_t row = storeRun(**cache, kRepo, 2, 3000, 0);
    auto info = TestResultStore(**cache).testRunForCheckRun(row);
    const std::int64_t testRunId = (*info)->id;
    verdict::VerdictSources sources;
    sources.configByRepo[kRepo] = configPath;

    (void)verdict::verdictForRun(**cache, row, sources); // warm the page cache first
    std::size_t cases = 0;
    const double read =
        medianMs(kRounds, [&] { cases = TestResultStore(**cache).testResults(testRunId)->size(); });
    verdict::Verdict outcome = verdict::Verdict::Pending;
    const double whole = medianMs(kRounds, [&] {
        auto v = verdict::verdictForRun(**cache, row, sources);
        outcome = v ? v->verdict : verdict::Verdict::Pending;
    });
    // The computation alone, on results and config already in memory.
    verdict::VerdictInput in;
    in.run = *RunStore(**cache).checkRun(row);
    in.testRun = **info;
    in.config = verdict::loadRunConfig(configPath);
    in.config.memo.reset(); // every round resolves every case, as a first judgement does
    const std::vector<StoredTestResult> results = *TestResultStore(**cache).testResults(testRunId);
    const double compute = medianMs(kRounds, [&] { (void)verdict::computeVerdict(in, results); });
    std::printf("  %zu cases, verdict '%s'\n", cases, verdict::verdictName(outcome));
    const bool ok = cases == 30000 && in.config.config;
    report.add({"verdict+coverage, 30,000 cases (with read)", ok ? whole : 1e9, "ms", 100,
                "TestResultStore::testResults read", read});
    report.add({"verdict+coverage, results in memory", ok ? compute : 1e9, "ms", 100,
                "TestResultStore::testResults read", read});
}

void benchReport(Report& report)
{
    Scratch scratch;
    auto cache = Database::open((scratch.dir / "cache.sqlite").string());
    if (!cache) {
        std::printf("  report: %s\n", cache.message().c_str());
        return;
    }
    verdict::VerdictSources sources;
    const std::string configPath = (scratch.dir / "ops.yaml").string();
    std::ofstream(configPath) << benchConfig();
    std::vector<std::int64_t> testRuns;
    for (int b = 0; b < 10; ++b) {
        const std::string repo = "backend" + std::to_string(b) + "/pytorch";
        sources.configByRepo[repo] = configPath;
        storeRun(**cache, repo, 1, 300, b % 2 ? 0 : 10);
        const std::int64_t row = storeRun(**cache, repo, 2, 300, b % 2 ? 30 : 0);
        testRuns.push_back((*TestResultStore(**cache).testRunForCheckRun(row))->id);
    }
    char sha[41];
    std::snprintf(sha, sizeof sha, "%040x", 0xbe00 + 2);
    std::size_t cases = 0;
    const double read = medianMs(kRounds, [&] {
        cases = 0;
        for (std::int64_t id : testRuns)
            cases += TestResultStore(**cache).testResults(id)->size();
    });
    std::size_t bytes = 0;
    std::size_t failures = 0;
    const double md = medianMs(kRounds, [&] {
        auto input = verdict::loadReportInput(**cache, Sha{sha}, std::nullopt, sources);
        if (!input)
            return;
        for (const verdict::RunVerdict& job : input->jobs)
            if (auto f = verdict::failuresFromResults(**cache, job))
                input->failures.insert(input->failures.end(), f->begin(), f->end());
        failures = input->failures.size();
        bytes = verdict::markdownReport(*input).size();
    });
    std::printf("  %zu cases in 10 jobs, %zu failures listed, %zu bytes of Markdown\n", cases,
                failures, bytes);
    report.add({"report across 10 backends (Markdown)", bytes > 0 ? md : 1e9, "ms", 200,
                "TestResultStore::testResults of the 10 runs", read});
}

// The matrix's verdict marks (ui/sync/verdict_marks.h) for 200 greens with
// results (20 SHAs x 10 backends, 1,000 cases each): the first pass judges
// every run (beside reading their results), later snapshot loads only look
// up the remembered verdicts (beside MatrixStore::loadMatrix of the same matrix).
void benchVerdictMarks(Report& report)
{
    Scratch scratch;
    auto cache = Database::open((scratch.dir / "cache.sqlite").string());
    if (!cache) {
        std::printf("  verdict marks: %s\n", cache.message().c_str());
        return;
    }
    const std::string configPath = (scratch.dir / "ops.yaml").string();
    std::ofstream(configPath) << benchConfig();
    verdict::VerdictSources sources;
    for (int b = 0; b < 10; ++b) {
        const std::string repo = "backend" + std::to_string(b) + "/pytorch";
        sources.configByRepo[repo] = configPath;
        for (int sha = 1; sha <= 20; ++sha)
            storeRun(**cache, repo, sha, 100, 0);
    }
    MatrixQuery query;
    MatrixSnapshot matrix;
    const double load =
        medianMs(kRounds, [&] { matrix = *MatrixStore(**cache).loadMatrix(query); });
    // The floor under judging: reading every green's results.
    std::vector<std::int64_t> testRuns;
    for (const MatrixCell& cell : matrix.cells)
        if (auto info = TestResultStore(**cache).testRunForCheckRun(cell.runRowId); info && *info)
            testRuns.push_back((**info).id);
    // Reading and judging take turns, five times each, so both meet the same
    // machine (its page cache, another process) and the medians compare.
    ui::VerdictMarker marker;
    std::vector<double> reads, cold;
    std::size_t judged = 0;
    for (int i = 0; i < 5; ++i) {
        auto start = Clock::now();
        for (std::int64_t id : testRuns)
            (void)TestResultStore(**cache).testResults(id);
        reads.push_back(msSince(start));
        marker.setSources(sources); // forgets every verdict
        MatrixSnapshot copy = matrix;
        start = Clock::now();
        (void)marker.mark(**cache, copy);
        cold.push_back(msSince(start));
        judged = marker.lastComputed();
    }
    const double read = median(reads);
    std::size_t marked = 0;
    const double warm = medianMs(kRounds, [&] {
        MatrixSnapshot copy = matrix;
        (void)marker.mark(**cache, copy);
        marked = 0;
        for (const MatrixCell& cell : copy.cells)
            if (cell.has(MatrixCell::GreenVerified) || cell.has(MatrixCell::GreenUnverified)
                || cell.has(MatrixCell::GreenDisputed))
                ++marked;
    });
    std::printf("  %zu cells, %zu greens judged on the first pass, %zu marked\n",
                matrix.cells.size(), judged, marked);
    const bool ok = judged == 200 && marked == 200 && marker.lastComputed() == 0;
    report.add({"verdict marks, 200 greens, first pass (worker)", ok ? median(cold) : 1e9, "ms", 0,
                "TestResultStore::testResults of the 200 runs", read, 2.0});
    report.add({"verdict marks, 200 greens, remembered", ok ? warm : 1e9, "ms", 16,
                "MatrixStore::loadMatrix", load});
}

} // namespace relayhud::bench
