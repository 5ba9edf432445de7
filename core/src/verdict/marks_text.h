#pragma once
// The op and dtype marks of a stored result ("op__add,dtype__float16,...",
// StoredTestResult::marks), visited without allocating: the coverage reads
// them for every one of 30,000 cases.
#include "relayhud/junit/mark_tags.h"

#include <string>
#include <string_view>

namespace relayhud::verdict {

// Calls visit(kind, value) for each op and dtype mark, in order.
template <class Visit>
void forEachOpDtypeMark(std::string_view marks, Visit&& visit)
{
    while (!marks.empty()) {
        const std::size_t comma = marks.find(',');
        const auto [kind, value] = splitMarkTag(marks.substr(0, comma));
        if (kind == MarkKind::Op || kind == MarkKind::Dtype)
            visit(kind, value);
        if (comma == std::string_view::npos)
            break;
        marks.remove_prefix(comma + 1);
    }
}

// The op and dtype marks as a lookup key.
inline void appendOpDtypeKey(std::string_view marks, std::string& key)
{
    forEachOpDtypeMark(marks, [&](MarkKind kind, std::string_view value) {
        key += kind == MarkKind::Op ? "o:" : "d:";
        key += value;
        key += ',';
    });
}

} // namespace relayhud::verdict
