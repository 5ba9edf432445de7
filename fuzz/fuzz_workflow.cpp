// GitHub workflows as the integration doctor reads them (doctor/workflow_lint.h):
// any bytes give findings or an Error, never an exception, and every finding
// names a line of the text, a known check and a fix. Lines are YAML's, as
// libyaml counts them (its IS_BREAK): "\r\n", "\r", "\n", NEL, LS and PS each
// end one; a file with old Mac line ends has as many lines as an editor shows.
// The text after a flow sequence 100,000 deep is refused at once (issue 35).
#include "fuzz_check.h"
#include "relayhud/doctor/workflow_lint.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

std::size_t yamlLines(std::string_view text)
{
    std::size_t lines = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("\r\n")) {
            ++lines;
            ++i;
        } else if (rest[0] == '\r' || rest[0] == '\n') {
            ++lines;
        } else if (rest.starts_with("\xC2\x85")) {
            ++lines;
            ++i;
        } else if (rest.starts_with("\xE2\x80\xA8") || rest.starts_with("\xE2\x80\xA9")) {
            ++lines;
            i += 2;
        }
    }
    return lines;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud::doctor;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    FUZZ_CHECK(!lintWorkflow("jobs: " + std::string(100'000, '[') + std::string(text)),
               "a workflow nested 100,000 deep is refused");
    const auto lint = lintWorkflow(text);
    if (!lint)
        return 0;
    const std::size_t lines = yamlLines(text);
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
