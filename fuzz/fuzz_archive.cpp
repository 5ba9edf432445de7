// Archives as artifact stores hand them over (artifacts/archive_reader.h):
// zip, tar (plain, gzip, bzip2, xz, zstd) and single .gz files, read from
// memory under small limits. Any bytes give entries or an Error; listing and
// extracting agree on the regular files; nothing is written to disk.
#include "fuzz_check.h"
#include "relayhud/artifacts/archive_reader.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

relayhud::ArchiveLimits smallLimits()
{
    relayhud::ArchiveLimits limits;
    limits.maxEntryBytes = 4u << 20;
    limits.maxTotalBytes = 16u << 20;
    limits.maxEntries = 2000;
    return limits;
}

class CountingSink : public relayhud::EntrySink {
public:
    relayhud::Result<void> beginFile(const relayhud::ArchiveEntryInfo&) override
    {
        FUZZ_CHECK(!m_open, "beginFile follows endFile");
        m_open = true;
        return {};
    }
    relayhud::Result<void> write(std::string_view chunk) override
    {
        FUZZ_CHECK(m_open, "write comes between beginFile and endFile");
        bytes += chunk.size();
        return {};
    }
    relayhud::Result<void> endFile() override
    {
        FUZZ_CHECK(m_open, "endFile follows beginFile");
        m_open = false;
        ++files;
        return {};
    }

    std::size_t files = 0;
    std::uint64_t bytes = 0;

private:
    bool m_open = false;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    std::string bytes(reinterpret_cast<const char*>(data), size);
    for (const char* name : {"artifact.zip", "report.xml.gz"}) {
        const auto reader = ArchiveReader::fromMemory(bytes, name, smallLimits());
        (void)reader.list();
        const auto files = reader.extractToMemory(suffixFilter({".xml", ".xml.gz"}));
        CountingSink sink;
        const auto streamed = reader.stream(sink, suffixFilter({".xml", ".xml.gz"}));
        FUZZ_CHECK(files.ok() == streamed.ok(), "extracting and streaming agree on errors");
        if (files) {
            FUZZ_CHECK(files->size() == sink.files, "extracting and streaming agree on files");
            FUZZ_CHECK(streamed->bytes == sink.bytes, "the report counts what it streamed");
        }
    }
    return 0;
}
