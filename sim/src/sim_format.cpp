#include "sim_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace relayhud::sim {
namespace {

std::tm utc(EpochSeconds t)
{
    const auto seconds = static_cast<std::time_t>(t);
    std::tm out{};
    gmtime_r(&seconds, &out);
    return out;
}

} // namespace

std::string clickhouseIso(EpochSeconds t, int micros)
{
    const std::tm tm = utc(t);
    char buf[128];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06d000Z", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  std::clamp(micros, 0, 999999));
    return buf;
}

std::string isoDate(EpochSeconds t)
{
    const std::tm tm = utc(t);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    return buf;
}

nlohmann::ordered_json float64(double value)
{
    const double whole = std::trunc(value);
    if (whole == value && std::fabs(value) < 9.0e15)
        return static_cast<std::int64_t>(whole);
    return value;
}

std::string_view wireStatus(RunStatus status)
{
    switch (status) {
    case RunStatus::Queued: return "queued";
    case RunStatus::InProgress: return "in_progress";
    case RunStatus::Completed: return "completed";
    case RunStatus::Unknown: break;
    }
    return "";
}

std::string_view wireConclusion(Conclusion conclusion)
{
    switch (conclusion) {
    case Conclusion::Success: return "success";
    case Conclusion::Failure: return "failure";
    case Conclusion::Cancelled: return "cancelled";
    case Conclusion::TimedOut: return "timed_out";
    case Conclusion::Skipped: return "skipped";
    case Conclusion::Neutral: return "neutral";
    case Conclusion::None: break;
    }
    return "";
}

std::string_view wireEventType(EventType type)
{
    switch (type) {
    case EventType::PullRequest: return "pull_request";
    case EventType::Push: return "push";
    case EventType::Nightly: return "nightly";
    case EventType::Periodic: return "periodic";
    }
    return "";
}

std::string_view wireLevel(Level level)
{
    switch (level) {
    case Level::L1: return "L1";
    case Level::L2: return "L2";
    case Level::L3: return "L3";
    case Level::L4: return "L4";
    case Level::Unknown: break;
    }
    return "";
}

} // namespace relayhud::sim
