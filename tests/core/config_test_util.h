#pragma once
// Helpers shared by the outcome-config tests: corpus files, temporary copies.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace relayhud::config::test {

inline std::filesystem::path corpusConfigs()
{
    return std::filesystem::path(RELAYHUD_CORPUS_DIR) / "configs";
}

inline std::vector<std::filesystem::path> corpusConfigFiles()
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(corpusConfigs()))
        if (entry.path().extension() == ".yaml")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

inline std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A fresh folder under the system temp dir, removed with the object.
class TempDir {
public:
    TempDir()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "relayhud-config-XXXXXX").string();
        m_path = ::mkdtemp(pattern.data());
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

inline std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t nl = text.find('\n', start);
        const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
        lines.push_back(text.substr(start, end - start));
        start = end;
    }
    return lines;
}

// 1-based line of the first line holding `needle` as a whole word (followed
// by the line's end, a space or a comment), 0 when none.
inline std::size_t lineOf(const std::string& text, const std::string& needle)
{
    const std::vector<std::string> lines = linesOf(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t at = lines[i].find(needle);
        if (at == std::string::npos)
            continue;
        const std::size_t after = at + needle.size();
        if (after == lines[i].size()
            || std::string(" \r\n#").find(lines[i][after]) != std::string::npos)
            return i + 1;
    }
    return 0;
}

} // namespace relayhud::config::test
