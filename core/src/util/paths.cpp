#include "relayhud/util/paths.h"

#include <cstdlib>

namespace relayhud {

std::string defaultCacheDir()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return std::string(xdg) + "/relayhud";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/relayhud";
    return "/tmp/relayhud";
}

std::string defaultCachePath() { return defaultCacheDir() + "/relayhud.sqlite"; }

} // namespace relayhud
