#include "artifacts/file_tree_sink.h"

#include "artifacts/entry_path.h"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relayhud::artifacts {

FileTreeSink::FileTreeSink(std::string root, UniqueFd rootFd)
    : m_root(std::move(root)), m_rootFd(std::move(rootFd))
{
}

Result<FileTreeSink> FileTreeSink::open(const std::string& root)
{
    auto fd = openDirectory(root);
    if (!fd)
        return fd.error();
    return FileTreeSink(root, std::move(*fd));
}

Result<UniqueFd> FileTreeSink::openFolders(const std::vector<std::string>& parts, std::size_t count)
{
    UniqueFd current(::dup(m_rootFd.get()));
    std::string sofar;
    for (std::size_t i = 0; i < count && current.valid(); ++i) {
        sofar += (sofar.empty() ? "" : "/") + parts[i];
        if (::mkdirat(current.get(), parts[i].c_str(), 0755) != 0 && errno != EEXIST)
            return makeError("cannot create " + m_root + "/" + sofar + ": " + errnoText(errno));
        // O_NOFOLLOW: a link (or a file) where a folder should be is refused.
        UniqueFd child(::openat(current.get(), parts[i].c_str(),
                                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!child.valid())
            return makeError("cannot open the folder " + m_root + "/" + sofar + ": "
                             + errnoText(errno));
        current = std::move(child);
    }
    if (!current.valid())
        return makeError("cannot open " + m_root + ": " + errnoText(errno));
    return current;
}

Result<void> FileTreeSink::beginFile(const ArchiveEntryInfo& entry)
{
    const auto parts = pathParts(entry.path);
    auto dir = openFolders(parts, parts.size() - 1);
    if (!dir)
        return dir.error();
    auto temp = createTempAt(dir->get(), m_root + "/" + entry.path);
    if (!temp)
        return temp.error();
    m_dirFd = std::move(*dir);
    m_temp = std::move(*temp);
    m_path = entry.path;
    return {};
}

Result<void> FileTreeSink::write(std::string_view chunk)
{
    return writeAll(m_temp.fd.get(), chunk, m_root + "/" + m_path);
}

Result<void> FileTreeSink::endFile()
{
    const auto parts = pathParts(m_path);
    auto r = commitTempAt(m_dirFd.get(), m_temp, parts.back(), m_root + "/" + m_path);
    m_dirFd.reset();
    return r;
}

Result<void> FileTreeSink::directory(const ArchiveEntryInfo& entry)
{
    const auto parts = pathParts(entry.path);
    auto dir = openFolders(parts, parts.size());
    if (!dir)
        return dir.error();
    return {};
}

} // namespace relayhud::artifacts
