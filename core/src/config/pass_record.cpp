// Did a test pass in its recent runs (config/pass_record.h).
#include "relayhud/config/pass_record.h"

#include <algorithm>

namespace relayhud::config {

namespace {

bool ranGreen(TestOutcome outcome)
{
    return outcome == TestOutcome::Passed || outcome == TestOutcome::XPassStrict;
}

} // namespace

PassRecord passRecord(const RecentResults& recent, const std::vector<std::size_t>& tests)
{
    PassRecord out;
    for (const RecentJob& job : recent.jobs) {
        std::vector<int> seen(job.runs.size(), 0); // 0 none, 1 reported, 2 passed
        for (const RecentTestOutcomes& test : job.tests) {
            if (std::find(tests.begin(), tests.end(), test.test) == tests.end())
                continue;
            for (std::size_t run = 0; run < test.outcomes.size() && run < seen.size(); ++run)
                if (const auto& outcome = test.outcomes[run])
                    seen[run] = std::max(seen[run], ranGreen(*outcome) ? 2 : 1);
        }
        const auto reported = std::count_if(seen.begin(), seen.end(), [](int s) { return s > 0; });
        if (reported == 0)
            continue;
        ++out.jobs;
        out.runs += static_cast<int>(reported);
        out.passed += static_cast<int>(std::count(seen.begin(), seen.end(), 2));
    }
    return out;
}

std::optional<std::string> neverPassedWarning(const PassRecord& record)
{
    if (record.runs == 0 || record.passed > 0)
        return std::nullopt;
    std::string text = "never passed in its last " + std::to_string(record.runs)
                       + (record.runs == 1 ? " run" : " runs");
    if (record.jobs > 1)
        text += ", in " + std::to_string(record.jobs) + " jobs";
    return text;
}

} // namespace relayhud::config
