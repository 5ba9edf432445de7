#pragma once
// Writes extracted entries under a root folder without ever following a
// link: every folder is opened with O_NOFOLLOW relative to its parent's
// descriptor, and each file is written to a temp name, fsynced and renamed.
#include "relayhud/artifacts/archive_reader.h"
#include "relayhud/util/file_ops.h"

#include <string>

namespace relayhud::artifacts {

class FileTreeSink final : public EntrySink {
public:
    // `root` must exist; it is opened once, here.
    static Result<FileTreeSink> open(const std::string& root);

    Result<void> beginFile(const ArchiveEntryInfo& entry) override;
    Result<void> write(std::string_view chunk) override;
    Result<void> endFile() override;
    Result<void> directory(const ArchiveEntryInfo& entry) override;

private:
    FileTreeSink(std::string root, UniqueFd rootFd);
    // Opens (creating where missing) the folders of `parts`, from the root.
    Result<UniqueFd> openFolders(const std::vector<std::string>& parts, std::size_t count);

    std::string m_root;
    UniqueFd m_rootFd;
    UniqueFd m_dirFd; // folder of the file being written
    TempFile m_temp;
    std::string m_path; // cleaned entry path of the file being written
};

} // namespace relayhud::artifacts
