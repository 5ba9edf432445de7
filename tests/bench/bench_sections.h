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

} // namespace relayhud::bench
