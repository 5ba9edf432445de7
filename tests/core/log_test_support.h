#pragma once
// Helpers for the log engine's tests: temp files, a reference line splitter
// written independently of the engine, and opening a log to completion.
#include "relayhud/logs/log_file.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::testing {

using relayhud::test::TempDir;

inline std::string readWholeFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Lines as GitHub's viewer splits them: at "\n", "\r\n" and a lone "\r"; a
// last line without terminator counts when it is not empty.
inline std::vector<std::string> referenceLines(std::string_view text)
{
    std::vector<std::string> lines;
    std::string current;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c != '\n' && c != '\r') {
            current += c;
            continue;
        }
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
        lines.push_back(std::move(current));
        current.clear();
    }
    if (!current.empty())
        lines.push_back(std::move(current));
    return lines;
}

inline std::shared_ptr<LogFile> openIndexed(const std::string& path, LogOpenOptions options = {})
{
    auto log = LogFile::open(path, std::move(options));
    EXPECT_TRUE(log.ok()) << (log.ok() ? "" : log.message());
    if (!log.ok())
        return nullptr;
    (*log)->waitForIndex();
    return *log;
}

inline std::vector<std::string> allLines(const LogFile& log, std::size_t cap = 1 << 30)
{
    std::vector<std::string> out;
    auto lines = log.lines(LineNumber{0}, static_cast<std::size_t>(log.lineCount()), cap);
    EXPECT_TRUE(lines.ok()) << (lines.ok() ? "" : lines.message());
    if (lines.ok())
        for (auto& l : *lines)
            out.push_back(std::move(l.bytes));
    return out;
}

// A GitHub Actions style log: numbered lines with timestamps, groups every
// 50 lines, a coloured command line in each group, pytest lines.
inline std::string generatedLog(std::size_t lines)
{
    std::string text;
    text.reserve(lines * 110);
    for (std::size_t i = 0; i < lines; ++i) {
        char stamp[40];
        std::snprintf(stamp, sizeof stamp, "2026-07-29T23:%02zu:%02zu.%07zuZ ", (i / 60) % 60,
                      i % 60, (i * 7919) % 10000000);
        text += stamp;
        if (i % 50 == 0)
            text += "##[group]Run step " + std::to_string(i / 50);
        else if (i % 50 == 1)
            text += "\x1b[36;1mpython test/run_test.py --shard " + std::to_string(i) + "\x1b[0m";
        else if (i % 50 == 49)
            text += "##[endgroup]";
        else
            text += "test_ops.py::TestCommonCUDA::test_line_" + std::to_string(i)
                    + " PASSED [0.0123s] [ 42%]";
        text += '\n';
    }
    return text;
}

} // namespace relayhud::testing
