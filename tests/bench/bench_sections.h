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
// beside grep -c -E -f of the same patterns.
void benchClassify(Report& report);
// The outcome-config engine: load and validate a 400-name config; one edit
// with its verifying re-parse; beside yaml-cpp's bare Load.
void benchConfig(Report& report);

} // namespace relayhud::bench
