// The triage exchange file (triage/triage_exchange.h): any JSON gives tags or
// an Error, never an exception, and what it reads survives an export and a
// second reading unchanged (the round trip teams rely on to share tags).
#include "fuzz_check.h"
#include "relayhud/triage/triage_exchange.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud::triage;
    const std::string_view json(reinterpret_cast<const char*>(data), size);
    if (const auto ms = parseTimeMs(json))
        FUZZ_CHECK(parseTimeMs(formatTimeMs(*ms)) == ms, "a time reads back as written");
    const auto tags = parseTriageJson(json);
    if (!tags)
        return 0;
    const std::string exported = exportTriageJson(*tags);
    const auto again = parseTriageJson(exported);
    FUZZ_CHECK(again.ok(), "an exported file reads back");
    FUZZ_CHECK(*again == *tags, "an exported file reads back as the same tags");
    return 0;
}
