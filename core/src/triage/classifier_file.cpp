// Classifying a log file: read in large blocks, lines carried across block
// boundaries, never the whole file in memory. A line longer than a block
// (a minified bundle, a binary blob in a log) is matched by its first
// kMaxLineBytes; the rest of it is skipped, so memory stays one block.
#include "classifier_scan.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/read_file.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>

namespace relayhud::triage {

namespace {

constexpr std::size_t kFileBlockBytes = std::size_t{8} << 20;
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

} // namespace

Result<std::optional<FailureLine>> Classifier::classifyFile(const std::string& path) const
{
    auto opened = openRegularFile(path, "a log to classify");
    if (!opened)
        return opened.error();
    const FilePtr file(::fdopen(opened->fd.get(), "rb"));
    if (!file)
        return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
    opened->fd.release(); // the FILE closes it now
    Scan scan(*m_compiled);
    std::string buffer(kFileBlockBytes, '\0');
    std::size_t carried = 0; // bytes of an unfinished line at the buffer's start
    bool skipping = false;   // in the rest of a line too long to hold
    for (;;) {
        const std::size_t got =
            std::fread(buffer.data() + carried, 1, buffer.size() - carried, file.get());
        if (got == 0)
            break;
        std::string_view data(buffer.data(), carried + got);
        if (skipping) {
            const auto* nl = static_cast<const char*>(std::memchr(data.data(), '\n', data.size()));
            if (!nl) {
                carried = 0;
                continue;
            }
            data.remove_prefix(static_cast<std::size_t>(nl - data.data()) + 1);
            skipping = false;
        }
        const std::size_t used = scan.feedLines(data);
        carried = data.size() - used;
        if (carried == buffer.size()) { // no line end in a whole block
            scan.feedCutLine(data.substr(0, kMaxLineBytes));
            skipping = true;
            carried = 0;
            continue;
        }
        std::memmove(buffer.data(), data.data() + used, carried);
    }
    if (std::ferror(file.get()))
        return makeError("reading " + path + " failed");
    if (!skipping)
        scan.feedLast(std::string_view(buffer.data(), carried));
    else
        scan.feedLast({});
    return finish(scan);
}

} // namespace relayhud::triage
