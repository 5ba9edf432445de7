#pragma once
// Helpers shared by the outcome-config tests: corpus files, temporary copies.
#include "test_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace relayhud::config::test {

using relayhud::test::TempDir;

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
