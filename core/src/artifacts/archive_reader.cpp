#include "relayhud/artifacts/archive_reader.h"

#include "artifacts/archive_source.h"
#include "artifacts/archive_walker.h"
#include "artifacts/file_tree_sink.h"
#include "relayhud/util/ascii.h"
#include "relayhud/util/file_ops.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include <sys/stat.h>

namespace relayhud {

namespace fs = std::filesystem;
using artifacts::ArchiveWalker;

namespace {

class MemorySink final : public EntrySink {
public:
    Result<void> beginFile(const ArchiveEntryInfo& entry) override
    {
        m_files.push_back({entry.path, {}});
        return {};
    }
    Result<void> write(std::string_view chunk) override
    {
        m_files.back().bytes.append(chunk);
        return {};
    }
    Result<void> endFile() override { return {}; }
    std::vector<ExtractedFile> take() { return std::move(m_files); }

private:
    std::vector<ExtractedFile> m_files;
};

// A destination that does not exist or is an empty folder; anything else
// would be silently mixed with (or lost under) the extracted tree.
Result<void> checkDestination(const fs::path& destination)
{
    std::error_code ec;
    const auto status = fs::symlink_status(destination, ec);
    if (!fs::exists(status))
        return {};
    if (fs::is_directory(status) && fs::is_empty(destination, ec) && !ec)
        return {};
    return makeError("cannot extract into " + destination.string()
                     + ": it exists and is not an empty folder");
}

// A fresh sibling of the destination, so the final rename stays on one file system.
Result<fs::path> makeStagingFolder(const fs::path& destination)
{
    std::error_code ec;
    const fs::path parent = destination.has_parent_path() ? destination.parent_path() : ".";
    fs::create_directories(parent, ec);
    std::string pattern = (parent / (std::string(artifacts::kTempPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        return makeError("cannot create a folder in " + parent.string() + ": "
                         + artifacts::errnoText(errno));
    // mkdtemp makes it private (0700); the extracted tree is ordinary data.
    ::chmod(pattern.c_str(), 0755);
    return fs::path(pattern);
}

Result<void> moveIntoPlace(const fs::path& staging, const fs::path& destination)
{
    std::error_code ec;
    fs::rename(staging, destination, ec);
    if (ec)
        return makeError("cannot move the extracted files to " + destination.string() + ": "
                         + ec.message());
    return {};
}

} // namespace

EntryFilter suffixFilter(std::vector<std::string> suffixes)
{
    for (auto& suffix : suffixes)
        suffix = lowerAscii(std::move(suffix));
    return [suffixes = std::move(suffixes)](const std::string& path) {
        const std::string lower = lowerAscii(path);
        return std::any_of(suffixes.begin(), suffixes.end(),
                           [&](const std::string& s) { return lower.ends_with(s); });
    };
}

ArchiveReader::ArchiveReader(std::string path, std::shared_ptr<const std::string> bytes,
                             std::string name, ArchiveLimits limits)
    : m_path(std::move(path)), m_bytes(std::move(bytes)), m_name(std::move(name)), m_limits(limits)
{
}

ArchiveReader ArchiveReader::fromFile(std::string path, ArchiveLimits limits)
{
    std::string name = path;
    return ArchiveReader(std::move(path), nullptr, std::move(name), limits);
}

ArchiveReader ArchiveReader::fromMemory(std::string bytes, std::string name, ArchiveLimits limits)
{
    return ArchiveReader({}, std::make_shared<const std::string>(std::move(bytes)), std::move(name),
                         limits);
}

Result<std::vector<ArchiveEntryInfo>> ArchiveReader::list(const EntryFilter& filter) const
{
    auto opened = artifacts::openArchive({m_path, m_bytes.get(), m_name});
    if (!opened)
        return opened.error();
    return ArchiveWalker(*opened, m_limits, m_name).list(filter);
}

Result<ExtractReport> ArchiveReader::stream(EntrySink& sink, const EntryFilter& filter) const
{
    auto opened = artifacts::openArchive({m_path, m_bytes.get(), m_name});
    if (!opened)
        return opened.error();
    return ArchiveWalker(*opened, m_limits, m_name).extract(sink, filter);
}

Result<std::vector<ExtractedFile>> ArchiveReader::extractToMemory(const EntryFilter& filter) const
{
    MemorySink sink;
    if (auto report = stream(sink, filter); !report)
        return report.error();
    return sink.take();
}

Result<ExtractReport> ArchiveReader::extractTo(const std::string& destination,
                                               const EntryFilter& filter) const
{
    const fs::path target(destination);
    if (auto r = checkDestination(target); !r)
        return r.error();
    auto staging = makeStagingFolder(target);
    if (!staging)
        return staging.error();
    auto report = [&]() -> Result<ExtractReport> {
        auto sink = artifacts::FileTreeSink::open(staging->string());
        if (!sink)
            return sink.error();
        return stream(*sink, filter);
    }();
    if (report) {
        if (auto moved = moveIntoPlace(*staging, target); !moved)
            report = moved.error();
    }
    std::error_code ec;
    if (!report)
        fs::remove_all(*staging, ec); // we made it; it holds only files and folders
    return report;
}

} // namespace relayhud
