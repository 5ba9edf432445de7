#include "relayhud/triage/accuracy.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace relayhud::triage {

namespace fs = std::filesystem;

bool AccuracyCase::agrees() const
{
    if (!expectedLine)
        return !verdict.has_value();
    return verdict && verdict->line == *expectedLine;
}

std::size_t AccuracyReport::agreeing() const
{
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](const auto& c) { return c.agrees(); }));
}

double AccuracyReport::percent() const
{
    if (cases.empty())
        return 0.0;
    return 100.0 * static_cast<double>(agreeing()) / static_cast<double>(cases.size());
}

namespace {

Result<std::vector<fs::path>> fixtureFiles(const std::string& dir)
{
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec))
            files.push_back(it->path());
    }
    if (ec)
        return makeError("cannot list " + dir + ": " + ec.message());
    if (files.empty())
        return makeError("no fixtures in " + dir);
    std::sort(files.begin(), files.end());
    return files;
}

Result<std::string> readAll(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        return makeError("cannot read " + path.string());
    return text.str();
}

} // namespace

Result<AccuracyReport> measureAccuracy(const Classifier& classifier, const std::string& dir)
{
    auto files = fixtureFiles(dir);
    if (!files)
        return files.error();
    AccuracyReport report;
    for (const auto& path : *files) {
        auto text = readAll(path);
        if (!text)
            return text.error();
        const MarkedLog log = parseMarkedLog(*text);
        report.cases.push_back(
            {path.filename().string(), log.expectedLine, classifier.classifyText(log.text)});
    }
    return report;
}

} // namespace relayhud::triage
