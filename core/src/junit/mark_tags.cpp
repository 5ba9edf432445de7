#include "relayhud/junit/mark_tags.h"

namespace relayhud {

std::pair<MarkKind, std::string_view> splitMarkTag(std::string_view tag)
{
    static constexpr std::pair<std::string_view, MarkKind> kKinds[] = {
        {"op", MarkKind::Op},
        {"dtype", MarkKind::Dtype},
        {"module", MarkKind::Module},
        {"platform", MarkKind::Platform},
        {"testtype", MarkKind::TestType},
        {"model", MarkKind::Model},
    };
    const std::size_t sep = tag.find("__");
    const std::string_view kind = sep == std::string_view::npos ? "" : tag.substr(0, sep);
    for (const auto& [name, markKind] : kKinds)
        if (kind == name)
            return {markKind, tag.substr(sep + 2)};
    return {MarkKind::Other, tag};
}

TestMarks parseMarkTags(std::string_view commaSeparated)
{
    TestMarks marks;
    while (!commaSeparated.empty()) {
        const std::size_t comma = commaSeparated.find(',');
        const std::string_view tag = commaSeparated.substr(0, comma);
        commaSeparated =
            comma == std::string_view::npos ? std::string_view() : commaSeparated.substr(comma + 1);
        if (tag.empty())
            continue;
        const auto [kind, value] = splitMarkTag(tag);
        marks.items.push_back({kind, std::string(value)});
    }
    return marks;
}

} // namespace relayhud
