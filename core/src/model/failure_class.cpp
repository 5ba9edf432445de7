#include "relayhud/model/failure_class.h"

#include <algorithm>
#include <array>
#include <string>

namespace relayhud::triage {

namespace {

using FC = FailureClass;
using RS = ReportSection;

// The one table (see the header). Rows in enum order, one per value.
// clang-format off
constexpr std::array kFailureClasses{
    //               value               name               tag    rule   report section
    FailureClassInfo{FC::Unset,          "",                false, false, RS::Other},
    FailureClassInfo{FC::Regression,     "regression",      true,  false, RS::Regression},
    FailureClassInfo{FC::PreExisting,    "pre-existing",    true,  false, RS::Broken},
    FailureClassInfo{FC::Flaky,          "flaky",           true,  false, RS::Flaky},
    FailureClassInfo{FC::Infra,          "infra",           true,  true,  RS::Infra},
    FailureClassInfo{FC::BackendBug,     "backend bug",     true,  true,  RS::Backend},
    FailureClassInfo{FC::TestOrConfig,   "test or config",  true,  true,  RS::Other},
    FailureClassInfo{FC::Expected,       "expected",        true,  false, RS::Other},
    FailureClassInfo{FC::UnexpectedPass, "unexpected pass", true,  false, RS::Other},
    FailureClassInfo{FC::Untriaged,      "untriaged",       false, false, RS::Other},
};
// clang-format on

constexpr bool rowsInEnumOrder()
{
    for (std::size_t i = 0; i < kFailureClasses.size(); ++i)
        if (static_cast<std::size_t>(kFailureClasses[i].value) != i)
            return false;
    return true;
}
static_assert(rowsInEnumOrder(), "kFailureClasses: one row per FailureClass, in enum order");

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

bool tagMayCarry(const FailureClassInfo& info)
{
    return info.taggable || info.value == FailureClass::Untriaged;
}

template <typename Accept>
std::optional<FailureClass> parseName(std::string_view text, Accept accept)
{
    const std::string name = normalised(text);
    for (const FailureClassInfo& info : kFailureClasses)
        if (!info.name.empty() && accept(info) && name == normalised(info.name))
            return info.value;
    return std::nullopt;
}

} // namespace

std::span<const FailureClassInfo> failureClasses() { return kFailureClasses; }

const FailureClassInfo& failureClassInfo(FailureClass value)
{
    const auto index = static_cast<std::size_t>(value);
    return index < kFailureClasses.size() ? kFailureClasses[index] : kFailureClasses.front();
}

std::vector<FailureClass> taggableClasses()
{
    std::vector<FailureClass> out;
    for (const FailureClassInfo& info : kFailureClasses)
        if (info.taggable)
            out.push_back(info.value);
    return out;
}

FailureClass classFromStored(std::int64_t stored)
{
    if (stored < 0 || stored >= static_cast<std::int64_t>(kFailureClasses.size()))
        return FailureClass::Unset;
    return kFailureClasses[static_cast<std::size_t>(stored)].value;
}

bool isKnownClass(FailureClass value)
{
    return static_cast<std::size_t>(value) < kFailureClasses.size();
}

std::string_view failureClassName(FailureClass value) { return failureClassInfo(value).name; }

std::string failureClassSlug(FailureClass value)
{
    std::string out(failureClassName(value));
    std::replace(out.begin(), out.end(), ' ', '-');
    return out;
}

std::string tagClassNames(bool quoted)
{
    std::string list;
    for (const FailureClassInfo& info : kFailureClasses) {
        if (!tagMayCarry(info))
            continue;
        if (!list.empty())
            list += ", ";
        list += quoted ? "\"" + std::string(info.name) + "\"" : std::string(info.name);
    }
    return list;
}

std::optional<FailureClass> parseTagClass(std::string_view text)
{
    return parseName(text, tagMayCarry);
}

std::optional<FailureClass> parseRuleClass(std::string_view text)
{
    return parseName(text, [](const FailureClassInfo& info) { return info.ruleMayImply; });
}

} // namespace relayhud::triage
