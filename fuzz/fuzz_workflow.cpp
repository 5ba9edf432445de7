// GitHub workflows as the integration doctor reads them (doctor/workflow_lint.h):
// any bytes give findings or an Error, never an exception, and every finding
// names a line of the text, a known check and a fix.
#include "fuzz_check.h"
#include "relayhud/doctor/workflow_lint.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud::doctor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto lint = lintWorkflow(text);
    if (!lint)
        return 0;
    const std::size_t lines =
        static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    const auto& checks = workflowChecks();
    for (const Finding& finding : lint->findings) {
        FUZZ_CHECK(finding.line <= lines, "a finding names a line of the workflow");
        FUZZ_CHECK(!finding.message.empty() && !finding.fix.empty(), "a finding says what and how");
        FUZZ_CHECK(std::any_of(checks.begin(), checks.end(),
                               [&](const CheckInfo& c) { return c.name == finding.check; }),
                   "a finding names a known check");
    }
    return 0;
}
