#include "relayhud/ui/common/cache_reader.h"

#include "relayhud/store/database.h"

#include <filesystem>
#include <system_error>

namespace relayhud::ui {

// On a worker. The folder is made here, not on the GUI thread: a cache on a
// network share can take seconds to answer.
Error CacheReader::withCache(const std::string& path,
                             const std::function<void(const Database&)>& use)
{
    if (path.empty())
        return makeError("no cache is set");
    std::error_code ec;
    const auto folder = std::filesystem::path(path).parent_path();
    if (!folder.empty())
        std::filesystem::create_directories(folder, ec);
    if (ec)
        return makeError("cannot make the cache's folder " + folder.string() + ": " + ec.message());
    auto cache = Database::open(path);
    if (!cache)
        return cache.error();
    use(**cache);
    return {};
}

} // namespace relayhud::ui
