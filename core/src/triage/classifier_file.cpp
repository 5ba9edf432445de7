// Classifying a log file: read in large blocks, lines carried across block
// boundaries, never the whole file in memory.
#include "classifier_scan.h"

#include <cstdio>
#include <cstring>
#include <memory>

namespace relayhud::triage {

namespace {

constexpr std::size_t kBlockBytes = std::size_t{8} << 20;

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

} // namespace

Result<std::optional<FailureLine>> Classifier::classifyFile(const std::string& path) const
{
    const FilePtr file(std::fopen(path.c_str(), "rb"));
    if (!file)
        return makeError("cannot open " + path + ": " + std::strerror(errno));
    Scan scan(*m_compiled);
    std::string buffer(kBlockBytes, '\0');
    std::size_t carried = 0; // bytes of an unfinished line at the buffer's start
    for (;;) {
        if (carried == buffer.size())
            buffer.resize(buffer.size() * 2); // a line longer than a block
        const std::size_t got =
            std::fread(buffer.data() + carried, 1, buffer.size() - carried, file.get());
        if (got == 0)
            break;
        const std::string_view data(buffer.data(), carried + got);
        const std::size_t used = scan.feedLines(data);
        carried = data.size() - used;
        std::memmove(buffer.data(), buffer.data() + used, carried);
    }
    if (std::ferror(file.get()))
        return makeError("reading " + path + " failed");
    scan.feedLast(std::string_view(buffer.data(), carried));
    return finish(scan);
}

} // namespace relayhud::triage
