#include "results/report_files.h"

#include "relayhud/artifacts/report_names.h"

#include <algorithm>
#include <filesystem>

namespace relayhud::results {

namespace fs = std::filesystem;

namespace {

std::string folderName(const fs::path& folder)
{
    const fs::path clean = folder.lexically_normal();
    std::string name = (clean.has_filename() ? clean : clean.parent_path()).filename().string();
    return name.empty() || name == "." ? fs::absolute(folder).lexically_normal().string() : name;
}

} // namespace

std::string fileName(const std::string& path)
{
    std::string name = fs::path(path).filename().string();
    return name.empty() ? path : name;
}

Result<PathKind> classifyPath(const std::string& path)
{
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec)
        return makeError("cannot read " + path + ": " + ec.message());
    if (fs::is_directory(status))
        return PathKind::Folder;
    if (fs::is_regular_file(status))
        return PathKind::File;
    return makeError(path + " is neither a file nor a folder");
}

FolderListing listReportFiles(const std::string& folder)
{
    FolderListing listing;
    const std::string prefix = folderName(folder) + "/";
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        const std::string relative = entry.path().lexically_relative(folder).generic_string();
        std::error_code statError;
        if (entry.is_symlink(statError)) {
            listing.warnings.push_back(prefix + relative + ": a symlink; not followed");
            continue;
        }
        if (entry.is_regular_file(statError) && isImportableName(relative))
            listing.files.push_back({entry.path().string(), prefix + relative});
    }
    if (ec)
        listing.warnings.push_back("cannot read all of " + folder + ": " + ec.message());
    std::sort(listing.files.begin(), listing.files.end(),
              [](const FoundFile& a, const FoundFile& b) { return a.path < b.path; });
    return listing;
}

} // namespace relayhud::results
