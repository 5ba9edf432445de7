#include "line_filter.h"

#include "relayhud/logs/line_decoder.h"

namespace relayhud::triage {

namespace {

constexpr std::string_view kErrorMarker = "##[error]";
constexpr std::string_view kExitCode = "##[error]Process completed with exit code ";
constexpr std::string_view kCustomContainer =
    "##[error]Executing the custom container implementation failed";
constexpr std::string_view kJobPod =
    "##[error]TypeError: Cannot read properties of null (reading 'jobPod')";
constexpr std::string_view kOsdcExited = "[OSDC] Step script exited";
constexpr std::string_view kOsdcCancelled = "[OSDC] Step cancelled by GitHub Actions";
constexpr std::string_view kSccacheStart =
    "=================== sccache compilation log ===================";
constexpr std::string_view kSccacheStop = "=========== If your build fails, please take a look at "
                                          "the log above for possible reasons ===========";

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// "##[error]Process completed with exit code 1." (the period optional).
bool isExitCodeLine(std::string_view line)
{
    if (!line.starts_with(kExitCode))
        return false;
    line.remove_prefix(kExitCode.size());
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9')
        ++digits;
    const std::string_view rest = line.substr(digits);
    return digits > 0 && (rest.empty() || rest == ".");
}

} // namespace

bool isBoilerplate(std::string_view cleaned)
{
    if (cleaned.starts_with(kErrorMarker)
        && (isExitCodeLine(cleaned) || cleaned.starts_with(kCustomContainer)
            || cleaned.starts_with(kJobPod)))
        return true;
    return contains(cleaned, "[OSDC]")
           && (contains(cleaned, kOsdcExited) || contains(cleaned, kOsdcCancelled));
}

std::string_view LineFilter::clean(std::string_view raw)
{
    // Only a prefix followed by its space, as the runner writes it.
    if (const auto ts = timestampPrefixLength(raw); ts > 0 && raw[ts - 1] == ' ')
        raw.remove_prefix(ts);
    if (raw.find('\x1b') == std::string_view::npos)
        return raw;
    stripEscapes(raw, m_scratch);
    return m_scratch;
}

// The banners are matched anywhere in the line, so the shell's "+ echo '==='"
// trace of a banner opens and closes the region just as the banner does.
bool LineFilter::skipSccacheLog(std::string_view cleaned)
{
    if (m_inSccacheLog) {
        if (contains(cleaned, kSccacheStop))
            m_inSccacheLog = false;
        return true;
    }
    m_inSccacheLog = contains(cleaned, kSccacheStart);
    return m_inSccacheLog;
}

std::optional<std::string_view> LineFilter::accept(std::string_view raw)
{
    const std::string_view cleaned = clean(raw);
    if (isBoilerplate(cleaned) || skipSccacheLog(cleaned))
        return std::nullopt;
    return cleaned;
}

} // namespace relayhud::triage
