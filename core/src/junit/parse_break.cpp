#include "junit/parse_break.h"

#include <algorithm>
#include <string>

namespace relayhud::junit {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The position of the '>' ending the start tag whose name begins at `from`;
// quoted attribute values may contain '>'. npos when it is not in `source`.
std::size_t startTagEnd(std::string_view source, std::size_t from)
{
    char quote = 0;
    for (std::size_t i = from; i < source.size(); ++i) {
        const char c = source[i];
        if (quote != 0) {
            quote = c == quote ? 0 : quote;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            return i;
        }
    }
    return std::string_view::npos;
}

// The position just past "</name>" at or after `from`, or npos.
std::size_t endTagEnd(std::string_view source, std::string_view name, std::size_t from)
{
    const std::string open = "</" + std::string(name);
    for (std::size_t at = source.find(open, from); at != std::string_view::npos;
         at = source.find(open, at + 1)) {
        std::size_t i = at + open.size();
        while (i < source.size() && isSpace(source[i]))
            ++i;
        if (i < source.size() && source[i] == '>')
            return i + 1;
    }
    return std::string_view::npos;
}

} // namespace

bool elementClosedBefore(std::string_view source, pugi::xml_node element, std::size_t errorOffset)
{
    const std::ptrdiff_t start = element.offset_debug();
    if (start < 0)
        return false;
    // pugixml reports a document that simply stops as an error at its last
    // byte, which can be the '>' that closed the element; count that byte in.
    const std::string_view seen = source.substr(0, std::min(source.size(), errorOffset + 1));
    const std::size_t tagEnd = startTagEnd(seen, static_cast<std::size_t>(start));
    if (tagEnd == std::string_view::npos)
        return false;
    if (seen[tagEnd - 1] == '/')
        return true;
    return endTagEnd(seen, element.name(), tagEnd + 1) != std::string_view::npos;
}

ParseBreak describeBreak(std::string_view source, const pugi::xml_parse_result& result,
                         std::size_t keptCases)
{
    ParseBreak out;
    out.byteOffset = std::min(source.size(),
                              static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, result.offset)));
    // Truncation leaves no markup after the error; a malformed middle does.
    out.endsEarly = source.find('<', out.byteOffset + 1) == std::string_view::npos;
    const std::string kept = "kept the " + std::to_string(keptCases)
                             + (keptCases == 1 ? " test case" : " test cases") + " before it";
    const std::string at = " at byte " + std::to_string(out.byteOffset);
    out.message = out.endsEarly
                      ? "XML ends unexpectedly" + at + "; " + kept
                      : "XML is malformed" + at + " (" + result.description() + "); " + kept;
    return out;
}

} // namespace relayhud::junit
