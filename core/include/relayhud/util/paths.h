#pragma once
#include <string>

namespace relayhud {

// The XDG cache directory for RelayHUD: $XDG_CACHE_HOME/relayhud, else
// $HOME/.cache/relayhud. Created on demand by the caller.
std::string defaultCacheDir();
// defaultCacheDir() + "/relayhud.sqlite": the cache the GUI and CLI share.
std::string defaultCachePath();
// Where the downloaded artifacts of a cache file live: "blobs" beside it, so
// a demo's or a test's temporary cache keeps its blobs with it, and the
// default cache's are ContentCache::defaultRoot(). ":memory:" and a bare
// file name give "blobs" in the current folder's terms ("./blobs").
std::string blobRootFor(const std::string& cachePath);

} // namespace relayhud
