#include "relayhud/model/test_result.h"

namespace relayhud {

const char* outcomeName(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Passed: return "passed";
    case TestOutcome::Failed: return "failed";
    case TestOutcome::Error: return "error";
    case TestOutcome::Skipped: return "skipped";
    case TestOutcome::XFailed: return "xfailed";
    case TestOutcome::XPassStrict: return "xpass-strict";
    }
    return "unknown";
}

std::vector<std::string_view> TestMarks::values(MarkKind kind) const&
{
    std::vector<std::string_view> out;
    for (const Mark& mark : items) {
        if (mark.kind == kind)
            out.push_back(mark.value);
    }
    return out;
}

bool TestMarks::has(MarkKind kind, std::string_view value) const
{
    for (const Mark& mark : items) {
        if (mark.kind == kind && mark.value == value)
            return true;
    }
    return false;
}

std::size_t JunitReport::count(TestOutcome outcome) const
{
    return outcomes[static_cast<std::size_t>(outcome)];
}

} // namespace relayhud
