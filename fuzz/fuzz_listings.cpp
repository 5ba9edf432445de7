// The artifact stores' listings (artifacts/listings.h): GitHub's artifact
// page and its Link header, S3's ListObjectsV2 and error XML. Every reader
// gets every input (each gives up fast on the others' formats); a GitHub
// page nested 100,000 deep more is refused unread (issue 35).
#include "fuzz_check.h"
#include "relayhud/artifacts/listings.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    if (auto page = github::parseArtifactPage(
            body, "https://api.github.com/repos/o/r/actions/runs/1/artifacts");
        page)
        for (const auto& artifact : page->artifacts)
            FUZZ_CHECK(artifact.sizeInBytes >= 0, "no negative artifact size");
    const std::string deep =
        std::string(100'000, '[') + std::string(body) + std::string(100'000, ']');
    FUZZ_CHECK(!github::parseArtifactPage(deep, "https://api.github.com/x"),
               "a listing nested 100,000 deep is refused");
    const std::string next = github::nextLink(body);
    FUZZ_CHECK(next.size() <= body.size(), "the next link is part of the header");
    (void)artifacts::parseS3Listing(body, "s3://bucket/prefix");
    (void)artifacts::parseS3Error(body);
    return 0;
}
