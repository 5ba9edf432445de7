#pragma once
// The shape of a Markdown report as a reader meets it (issue 17): what is
// shown before the first fold, and the first line that is not a heading,
// blank, or a table's header.
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace relayhud::verdict::test {

inline std::vector<std::string> markdownLines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// Everything before the first "<details>" (the whole report when none).
inline std::string bodyBeforeDetails(const std::string& md)
{
    return md.substr(0, md.find("<details>"));
}

// The report as it reads with every <details> closed: its opening line,
// with the summary, stays; what it folds, up to its "</details>", goes.
inline std::string withoutDetails(const std::string& md)
{
    std::string out;
    int depth = 0;
    for (const std::string& line : markdownLines(md)) {
        if (depth == 0)
            out += line + "\n";
        if (line.starts_with("<details>"))
            ++depth;
        if (line.find("</details>") != std::string::npos && depth > 0)
            --depth;
    }
    return out;
}

// The first line with content: not blank, not a heading, not a table's
// header or separator row.
inline std::string firstContentLine(const std::string& md)
{
    const std::vector<std::string> lines = markdownLines(md);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.empty() || line.starts_with("#") || line.starts_with("|---"))
            continue;
        if (line.starts_with("|") && i + 1 < lines.size() && lines[i + 1].starts_with("|---"))
            continue; // a header row
        return line;
    }
    return {};
}

} // namespace relayhud::verdict::test
