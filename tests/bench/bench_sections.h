#pragma once
#include "bench_report.h"

#include <string>

namespace relayhud::bench {

void benchSync(Report& report);
// Needs a QApplication.
void benchMatrix(Report& report);
void benchColdStart(Report& report, const std::string& binDir);

} // namespace relayhud::bench
