#include "relayhud/ui/common/cache_reader.h"

#include <filesystem>
#include <system_error>

namespace relayhud::ui {

// On a worker. The folder is made here, not on the GUI thread: a cache on a
// network share can take seconds to answer.
Result<std::unique_ptr<Database>> CacheReader::open(const std::string& path)
{
    if (path.empty())
        return makeError("no cache is set");
    std::error_code ec;
    const auto folder = std::filesystem::path(path).parent_path();
    if (!folder.empty())
        std::filesystem::create_directories(folder, ec);
    if (ec)
        return makeError("cannot make the cache's folder " + folder.string() + ": " + ec.message());
    return Database::open(path);
}

} // namespace relayhud::ui
