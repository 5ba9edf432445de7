#pragma once
// torch-spyre's mark tags ("op__add", "dtype__float16"): one tag read into a
// Mark, and the comma-separated list the cache stores
// (StoredTestResult::marks) read back into TestMarks.
#include "relayhud/model/test_result.h"

#include <string_view>
#include <utility>

namespace relayhud {

// The kind of a tag and its value ("add" for "op__add"); a tag of no known
// kind is Other with the whole tag as its value.
std::pair<MarkKind, std::string_view> splitMarkTag(std::string_view tag);

// "op__add,dtype__float16" -> {Op add, Dtype float16}; empty parts are skipped.
TestMarks parseMarkTags(std::string_view commaSeparated);

} // namespace relayhud
