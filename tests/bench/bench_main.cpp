// relayhud-bench: the speed targets of RelayHUD, each measured beside a
// reference in the same run. Not part of the test suite (run it by hand or
// in a perf job): `relayhud-bench [sync|matrix|tests|start|results|history|logs]...`.
#include "bench_sections.h"

#include <QApplication>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    QApplication app(argc, argv);
    std::set<std::string> only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::printf(
                "usage: relayhud-bench [sync] [matrix] [tests] [start] [results] [history] [logs]"
                " [logview]"
                "   (default: all)\n"
                "  RELAYHUD_BENCH_CASES=N          cases in the parse/store report (100000)\n"
                "  RELAYHUD_BENCH_HISTORY_RUNS=N   SHAs in the history cache (1000)\n"
                "  RELAYHUD_BENCH_HISTORY_TESTS=N  tests per run there (30000)\n"
                "  RELAYHUD_BENCH_LOG_MB=N         size of the generated job log (1024)\n");
            std::printf("  [classify]: RELAYHUD_BENCH_CLASSIFY_MB=N size of the log to classify"
                        " (100)\n");
            std::printf("  [config]: a generated 400-name outcome config\n");
            std::printf("  [resolve]: a generated 1.5 MB model_ops config; 100,000 variants and"
                        " a 30,000-case coverage against 400 names with 30 regexes\n");
            std::printf("  [clusters]: 100,000 failing tests in a 200 x 60 cache built at bench"
                        " time\n");
            std::printf("  [verdict] [report]: verdicts and reports on a generated cache\n");
            std::printf("  [marks]: the matrix's verdict marks for 200 greens\n");
            std::printf("  [attribution]: RELAYHUD_BENCH_ATTRIBUTION_HEADS=N (500: 60 million"
                        " results, ~15 min), RELAYHUD_BENCH_ATTRIBUTION_TESTS=N\n");
            std::printf("  [suggest]: RELAYHUD_BENCH_SUGGEST_SHAS=N, RELAYHUD_BENCH_SUGGEST_TESTS=N"
                        " (40 SHAs x 5 jobs x 1000 tests)\n");
            std::printf("  [charts]: a 1,000-point pass-rate chart into a QImage\n");
            std::printf("  [team]: RELAYHUD_BENCH_TEAM_TAGS=N tags pushed and pulled through a"
                        " throwaway PostgreSQL (10000)\n");
            return 0;
        }
        only.insert(a);
    }
    const auto wanted = [&](const char* name) { return only.empty() || only.count(name) > 0; };

    relayhud::bench::Report report;
    if (wanted("sync")) {
        std::printf("sync\n");
        relayhud::bench::benchSync(report);
    }
    if (wanted("matrix")) {
        std::printf("matrix\n");
        relayhud::bench::benchMatrix(report);
    }
    if (wanted("tests")) {
        std::printf("tests table\n");
        relayhud::bench::benchTestsTable(report);
    }
    if (wanted("start")) {
        std::printf("cold start\n");
        relayhud::bench::benchColdStart(report, RELAYHUD_APP_DIR);
    }
    if (wanted("results")) {
        std::printf("test results: parse and store\n");
        relayhud::bench::benchTestResults(report);
    }
    if (wanted("history")) {
        std::printf("test history\n");
        relayhud::bench::benchTestHistory(report);
    }
    if (wanted("team")) {
        std::printf("team: tags through a shared PostgreSQL\n");
        relayhud::bench::benchTeam(report);
    }
    if (wanted("logs")) {
        std::printf("logs: index and search a job log\n");
        relayhud::bench::benchLogs(report);
    }
    if (wanted("logview")) {
        std::printf("log view: open, scroll and jump in a job log\n");
        relayhud::bench::benchLogView(report);
    }
    if (wanted("classify")) {
        std::printf("classify: the failure line of a job log\n");
        relayhud::bench::benchClassify(report);
    }
    if (wanted("config")) {
        std::printf("config: load, validate and edit an outcome config\n");
        relayhud::bench::benchConfig(report);
    }
    if (wanted("resolve")) {
        std::printf("resolve: the outcome-config resolver on large and regex configs\n");
        relayhud::bench::benchConfigResolve(report);
    }
    // Verdicts and reports (issue 7).
    if (wanted("verdict")) {
        std::printf("verdict: verdict and coverage of a run\n");
        relayhud::bench::benchVerdict(report);
    }
    if (wanted("report")) {
        std::printf("report: Markdown across backends\n");
        relayhud::bench::benchReport(report);
    }
    if (wanted("marks")) {
        std::printf("marks: the matrix's verdict marks\n");
        relayhud::bench::benchVerdictMarks(report);
    }
    if (wanted("clusters")) {
        std::printf("clusters: failure clusters and triage marks\n");
        relayhud::bench::benchClusters(report);
    }
    // Automatic failure classes (issue 5).
    if (wanted("suggest")) {
        std::printf("suggest: failure classes with evidence after a sync\n");
        relayhud::bench::benchSuggest(report);
    }
    // Attribution (issue 15).
    if (wanted("attribution")) {
        std::printf("attribution: this PR's, broken upstream, backend, flaky over 30 days\n");
        relayhud::bench::benchAttribution(report);
    }
    // Trend charts (issue 7).
    if (wanted("charts")) {
        std::printf("charts: a 1,000-point chart rendered offscreen\n");
        relayhud::bench::benchCharts(report);
    }
    return report.print() == 0 ? 0 : 1;
}
