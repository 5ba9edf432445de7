#pragma once
// Finding reports on disk for importReports: what a file name says it holds,
// and the importable files of a folder tree. Internal to results/.
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::results {

enum class PathKind { File, Folder };

std::string fileName(const std::string& path);

// A file or a folder (symlinks named here are followed: the user chose
// them); an Error a user can act on for anything else or a missing path.
Result<PathKind> classifyPath(const std::string& path);

struct FoundFile {
    std::string path;
    std::string name; // "<folder name>/<path below it>"
};

struct FolderListing {
    std::vector<FoundFile> files; // sorted by path
    std::vector<std::string> warnings;
};

// Importable files below `folder`, at any depth. Symlinks are not followed
// (a link out of the folder would import whatever it points at) and are
// reported; unreadable subfolders are reported and skipped.
FolderListing listReportFiles(const std::string& folder);

} // namespace relayhud::results
