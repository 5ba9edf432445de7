#include "relayhud/util/json_guard.h"

#include "relayhud/util/read_file.h"

#include <algorithm>

namespace relayhud {

std::size_t jsonNestingDepth(std::string_view text, std::size_t stopAbove)
{
    std::size_t depth = 0;
    std::size_t deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character, a quote included, never ends the string
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > stopAbove)
                return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

Result<void> checkJsonBounds(std::string_view text, const JsonLimits& limits)
{
    if (limits.maxBytes > 0 && text.size() > limits.maxBytes)
        return makeError("JSON of " + byteSizeText(text.size()) + " is over the limit of "
                         + byteSizeText(limits.maxBytes));
    if (jsonNestingDepth(text, limits.maxDepth) > limits.maxDepth)
        return makeError("JSON nested deeper than " + std::to_string(limits.maxDepth)
                         + " levels (refused before parsing)");
    return {};
}

nlohmann::json parseJsonOrDiscarded(std::string_view text, const JsonLimits& limits)
{
    if (!checkJsonBounds(text, limits))
        return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

Result<nlohmann::json> parseBoundedJson(std::string_view text, const JsonLimits& limits)
{
    if (auto bounded = checkJsonBounds(text, limits); !bounded)
        return bounded.error();
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        return makeError(std::string("invalid JSON: ") + e.what());
    }
}

} // namespace relayhud
