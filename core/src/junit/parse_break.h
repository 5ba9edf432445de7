#pragma once
// Where a JUnit file stopped parsing, and which test case it took with it.
// Internal to the JUnit reader.
#include "relayhud/model/test_result.h"

#include <pugixml.hpp>

#include <cstddef>
#include <string_view>

namespace relayhud::junit {

// pugixml keeps the tree it built before an error, but the element that was
// open at the break is in it too, looking complete: a <testcase> cut before
// its <failure> would read as passed. True when `element`'s end (its `/>` or
// its end tag) lies in `source` before the error at `errorOffset`.
bool elementClosedBefore(std::string_view source, pugi::xml_node element, std::size_t errorOffset);

// "XML ends unexpectedly at byte N; kept the M test cases before it", or "XML
// is malformed at byte N (why); ..." when more markup follows the error.
ParseBreak describeBreak(std::string_view source, const pugi::xml_parse_result& result,
                         std::size_t keptCases);

} // namespace relayhud::junit
