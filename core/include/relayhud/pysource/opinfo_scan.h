#pragma once
// The OpInfo entries of PyTorch's op database files
// (torch/testing/_internal/common_methods_invocations.py and
// opinfo/definitions/*.py), read with the same scanner as test files
// (issue 39): every call of a `...Info` class (OpInfo, UnaryUfuncInfo,
// BinaryUfuncInfo, ReductionOpInfo, PythonRefInfo, ...) whose first argument
// is a string literal, the op's name. DecorateInfo is none: it decorates.
// Each argument is hashed apart, by keyword (positional ones as "#2", ...),
// so a change says which fields moved: dtypes, skips, decorators, sample
// inputs. Comments and layout leave a field alone.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::pysource {

struct OpInfoEntry {
    std::string name;                            // the op: "add", "nn.functional.relu", "_refs.add"
    std::string variant;                         // variant_test_name, "" when none
    std::string kind;                            // the class: "OpInfo", "BinaryUfuncInfo", ...
    int line = 0;                                // of the call
    std::map<std::string, std::uint64_t> fields; // keyword (or "#n") -> its tokens' hash

    std::string key() const { return variant.empty() ? name : name + "." + variant; }
};

std::vector<OpInfoEntry> scanOpInfos(std::string_view source);

// A field's family, as the review names what changed: "dtypes" (dtypes,
// dtypesIfCUDA, backward_dtypes, ...), "skips" (skips, xfails), "decorators",
// "sample inputs" (sample_inputs_func, reference_inputs_func, ...), or the
// keyword itself.
std::string opInfoFieldFamily(std::string_view field);

} // namespace relayhud::pysource
