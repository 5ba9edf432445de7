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

std::string blobRootFor(const std::string& cachePath)
{
    const auto slash = cachePath.rfind('/');
    if (slash == std::string::npos)
        return "./blobs";
    return cachePath.substr(0, slash == 0 ? 1 : slash) + (slash == 0 ? "blobs" : "/blobs");
}

} // namespace relayhud
