#pragma once
#include "bench_report.h"

#include <string>

namespace relayhud::bench {

void benchSync(Report& report);
// Needs a QApplication.
void benchMatrix(Report& report);
void benchColdStart(Report& report, const std::string& binDir);
// 100,000 rows in the tests panel: filter keystroke to repaint. Needs a QApplication.
void benchTestsTable(Report& report);
// Parse and store 100,000 test cases; history of one test in 30M results.
void benchTestResults(Report& report);
void benchTestHistory(Report& report);
// The log engine on a generated 1 GiB GitHub Actions log: index, first screen,
// literal and regex search, jumps, beside wc -l and grep on the same file.
void benchLogs(Report& report);
// The log view on the same kind of log: first screen after open, frame times
// of page-downs and random jumps, memory. Needs a QApplication.
void benchLogView(Report& report);
// The failure-line classifier: 150 rules over a generated 100 MB job log,
// beside grep -c -E -f of the same patterns; the doctor's checkout scan of
// such a log, beside grep -c -F of its marker.
void benchClassify(Report& report);
// The outcome-config engine: load and validate a 400-name config; one edit
// with its verifying re-parse; beside yaml-cpp's bare Load.
void benchConfig(Report& report);
// The resolver (issue 14): load + validate a generated 1.5 MB model_ops config
// (beside yaml-cpp's bare Load); 100,000 variants resolved and the coverage of
// a 30,000-case run against a 400-name config with 30 regex names (beside an
// unordered_map find plus an RE2::Set::Match of the base methods).
void benchConfigResolve(Report& report);

// Verdicts and reports (issue 7): verdict and coverage of a 30,000-case run;
// a Markdown report across 10 backends; beside the plain read of the results.
void benchVerdict(Report& report);
void benchReport(Report& report);
// The matrix's verdict marks for 200 greens: first pass and remembered.
void benchVerdictMarks(Report& report);

// Failure clusters over 100,000 failing tests (key + grouping, beside sort |
// uniq -c), their cache read (beside a bare SQLite read), and the matrix's
// triage marks for 200 x 60 cells.
void benchClusters(Report& report);

// Automatic failure classes (issue 5): suggestions for the 1,000 failed tests
// of one SHA's runs after a sync, beside the bare read of those results.
void benchSuggest(Report& report);

// Attribution (issue 15): every failure of 2,000 PR runs of 30,000 tests on a
// freshly opened cache, and of 50 new runs after a sync, each beside the bare
// read of the same failing results.
void benchAttribution(Report& report);

// Trend charts (issue 7): a 1,000-point chart built and rendered into a QImage,
// beside QPainter::drawLines of the same points. Needs a QApplication.
void benchCharts(Report& report);

// A team's shared triage (issue 21): 10,000 tags pushed and pulled through a
// throwaway PostgreSQL, beside a bare psql \copy of the same rows.
void benchTeam(Report& report);

} // namespace relayhud::bench
