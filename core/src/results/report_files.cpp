#include "results/report_files.h"

#include <algorithm>
#include <filesystem>

namespace relayhud::results {

namespace fs = std::filesystem;

namespace {

bool endsWithNoCase(const std::string& text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<long>(suffix.size()),
                      [](char a, char b) {
                          const auto lower = [](char c) {
                              return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
                          };
                          return lower(a) == lower(b);
                      });
}

std::string folderName(const fs::path& folder)
{
    const fs::path clean = folder.lexically_normal();
    std::string name = (clean.has_filename() ? clean : clean.parent_path()).filename().string();
    return name.empty() || name == "." ? fs::absolute(folder).lexically_normal().string() : name;
}

} // namespace

FileKind kindOf(const std::string& path)
{
    if (endsWithNoCase(path, ".xml"))
        return FileKind::Report;
    if (endsWithNoCase(path, ".xml.gz"))
        return FileKind::GzipReport;
    for (std::string_view suffix : {".zip", ".tar", ".tar.gz", ".tgz"})
        if (endsWithNoCase(path, suffix))
            return FileKind::Archive;
    return FileKind::Other;
}

bool isGzipReportName(const std::string& path) { return endsWithNoCase(path, ".xml.gz"); }

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
        if (entry.is_regular_file(statError) && kindOf(relative) != FileKind::Other)
            listing.files.push_back({entry.path().string(), prefix + relative});
    }
    if (ec)
        listing.warnings.push_back("cannot read all of " + folder + ": " + ec.message());
    std::sort(listing.files.begin(), listing.files.end(),
              [](const FoundFile& a, const FoundFile& b) { return a.path < b.path; });
    return listing;
}

} // namespace relayhud::results
