#pragma once
#include <string>

namespace relayhud {

// The XDG cache directory for RelayHUD: $XDG_CACHE_HOME/relayhud, else
// $HOME/.cache/relayhud. Created on demand by the caller.
std::string defaultCacheDir();
// defaultCacheDir() + "/relayhud.sqlite": the cache the GUI and CLI share.
std::string defaultCachePath();

} // namespace relayhud
