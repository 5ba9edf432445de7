// The HTTP header and error-body readers (net/http_client.h, net/body_summary.h,
// artifacts/listings.h): Retry-After (delta-seconds or an HTTP date), GitHub's
// Link header, and the one-line summary of an error body (HTML title, JSON
// "message", or the text) that reaches the UI.
#include "fuzz_check.h"
#include "relayhud/artifacts/listings.h"
#include "relayhud/net/body_summary.h"
#include "relayhud/net/http_client.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (const auto wait = HttpClient::parseRetryAfter(text))
        FUZZ_CHECK(*wait >= std::chrono::milliseconds(0)
                       && *wait <= std::chrono::seconds(1000000000),
                   "Retry-After waits between now and its cap");
    (void)github::nextLink(text);
    for (const char* type : {"text/html", "application/json", "text/plain", ""}) {
        const std::string summary = net::summarizeBody(text, type, 200);
        FUZZ_CHECK(summary.size() <= 200, "a summary stays within its length");
        for (const char c : summary)
            FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f,
                       "a summary has no control characters");
    }
    return 0;
}
