// JUnit XML as CI uploads it (junit/junit_reader.h): any bytes give a report
// or an Error, and reading case by case (the store's way) counts exactly what
// reading the whole report does.
#include "fuzz_check.h"
#include "relayhud/junit/junit_reader.h"
#include "relayhud/util/utf8.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud;
    const std::string_view xml(reinterpret_cast<const char*>(data), size);
    JunitReadOptions whole;
    whole.maxInlineTextBytes = 256; // cut texts often, so the cut path runs
    std::size_t cutTexts = 0;
    whole.onCutText = [&](std::size_t, CaseText, std::string_view) { ++cutTexts; };
    const auto report = readJunitBuffer(xml, whole);

    JunitReadOptions streamed = whole;
    std::size_t streamedCases = 0;
    std::size_t streamedCuts = 0;
    streamed.onCutText = [&](std::size_t, CaseText, std::string_view) { ++streamedCuts; };
    streamed.onCase = [&](const TestCaseResult& c) {
        ++streamedCases;
        FUZZ_CHECK(isValidUtf8(c.name) && isValidUtf8(c.className) && isValidUtf8(c.file)
                       && isValidUtf8(c.identity) && isValidUtf8(c.baseName),
                   "a case's names are valid UTF-8");
    };
    const auto again = readJunitBuffer(xml, streamed);

    FUZZ_CHECK(report.ok() == again.ok(), "both readings agree on whether it is a report");
    if (!report)
        return 0;
    FUZZ_CHECK(report->cases.size() == streamedCases, "same number of cases");
    FUZZ_CHECK(again->cases.empty(), "a streamed reading keeps no cases");
    FUZZ_CHECK(report->outcomes == again->outcomes, "same outcomes");
    FUZZ_CHECK(cutTexts == streamedCuts, "same texts cut");
    FUZZ_CHECK(report->parseBreak.has_value() == again->parseBreak.has_value(), "same break");
    std::size_t counted = 0;
    for (std::size_t n : report->outcomes)
        counted += n;
    FUZZ_CHECK(counted == report->cases.size(), "every case has one outcome");
    return 0;
}
