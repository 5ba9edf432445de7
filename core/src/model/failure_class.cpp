#include "relayhud/model/failure_class.h"

#include <algorithm>
#include <array>
#include <string>

namespace relayhud::triage {

namespace {

struct ClassName {
    FailureClass value;
    std::string_view name;
};

constexpr std::array kNames{
    ClassName{FailureClass::Unset, ""},
    ClassName{FailureClass::Regression, "regression"},
    ClassName{FailureClass::PreExisting, "pre-existing"},
    ClassName{FailureClass::Flaky, "flaky"},
    ClassName{FailureClass::Infra, "infra"},
    ClassName{FailureClass::BackendBug, "backend bug"},
    ClassName{FailureClass::TestOrConfig, "test or config"},
    ClassName{FailureClass::Expected, "expected"},
    ClassName{FailureClass::UnexpectedPass, "unexpected pass"},
    ClassName{FailureClass::Untriaged, "untriaged"},
};

// Lower case, with '-' and '_' read as spaces.
std::string normalised(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c == '-' || c == '_')
            out.push_back(' ');
        else if (c >= 'A' && c <= 'Z')
            out.push_back(static_cast<char>(c - 'A' + 'a'));
        else
            out.push_back(c);
    }
    return out;
}

} // namespace

std::string_view failureClassName(FailureClass value)
{
    for (const auto& entry : kNames) {
        if (entry.value == value)
            return entry.name;
    }
    return "";
}

std::string failureClassSlug(FailureClass value)
{
    std::string out(failureClassName(value));
    std::replace(out.begin(), out.end(), ' ', '-');
    return out;
}

std::optional<FailureClass> parseRuleClass(std::string_view text)
{
    const std::string name = normalised(text);
    for (const FailureClass allowed :
         {FailureClass::Infra, FailureClass::BackendBug, FailureClass::TestOrConfig}) {
        if (name == failureClassName(allowed))
            return allowed;
    }
    return std::nullopt;
}

} // namespace relayhud::triage
