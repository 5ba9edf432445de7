#pragma once
// The preprocessing pytorch's log classifier does to each raw line before any
// rule sees it (see classifier.h): cleaning, boilerplate, the sccache log.
#include <optional>
#include <string>
#include <string_view>

namespace relayhud::triage {

// True for CI-wrapper lines that never explain a failure (on cleaned text).
bool isBoilerplate(std::string_view cleaned);

class LineFilter {
public:
    // The cleaned line, or nullopt when it takes no part in matching. The
    // view lives until the next call.
    std::optional<std::string_view> accept(std::string_view raw);

private:
    std::string_view clean(std::string_view raw);
    bool skipSccacheLog(std::string_view cleaned);

    bool m_inSccacheLog = false;
    std::string m_scratch;
};

} // namespace relayhud::triage
