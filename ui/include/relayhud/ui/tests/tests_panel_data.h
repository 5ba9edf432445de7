#pragma once
// What the tests panel shows for one run, loaded off the GUI thread (the
// panel never reads the cache itself) and handed over whole.
#include "relayhud/model/types.h"
#include "relayhud/store/test_results.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace relayhud::ui {

struct TestsPanelData {
    std::int64_t loadId = 0; // a load older than the panel's latest setLoading() is dropped
    TestRunInfo run;         // state, totals, warnings, message
    std::optional<TestCounts> selfReported; // the HUD row's counts: the backend's own claim
    std::vector<StoredTestResult> results;  // up to 100,000+
    std::vector<TestHistory> histories;     // for some tests (the failing ones), by testId
    QString jobTitle;                       // "torch-spyre / CI / test (default, 1, 3)"
};

} // namespace relayhud::ui
