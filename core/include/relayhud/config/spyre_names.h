#pragma once
// How torch-spyre's OOT test framework reads names: its dtype names, the
// dtype it reads from a variant's name, which config names are regular
// expressions, and how a reported variant maps back to the base method a
// config lists. Each rule cites the framework (torch-spyre/torch-spyre
// tests/oot_framework/, commit 539fd3b0); ../shared/specs/spyre-config-semantics.md
// has the whole picture.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// The dtype names a config may use (oot_test_constants.py:42-60
// _VALID_DTYPE_STRINGS): torch's names plus "half". No float8, qint or bits
// names: a config naming one is refused by the framework's validation.
bool isConfigDtypeName(std::string_view name);

// The torch dtype a config dtype name stands for: "half" is float16
// (torch.half is torch.float16); every other name is itself.
std::string_view canonicalDtype(std::string_view name);

// The framework's dtype names in the order it tries them: longest first,
// equal lengths in DTYPE_STR_MAP's order (oot_test_constants.py:114
// DTYPE_NAMES_ORDERED = sorted(keys, key=len, reverse=True), a stable sort).
std::span<const std::string_view> dtypeNamesLongestFirst();

// extract_dtype_from_name (oot_test_matching.py:32-41): the first name of
// dtypeNamesLongestFirst() that occurs as "_<d>_" anywhere in the whole
// variant name or ends it as "_<d>"; canonical ("half" -> "float16").
// It needs no dtype mark and may come from the base ("..._bfloat16_half_spyre_float64"
// reads bfloat16).
std::optional<std::string_view> dtypeFromVariantName(std::string_view variant);

// _is_regex_pattern (oot_test_utilities.py:226-228): a method part holding
// any of \ . ^ $ * + ? { } [ ] | ( ) is a Python regular expression that must
// fullmatch the base method; anything else is compared exactly.
bool isRegexMethod(std::string_view method);

// A config name split as TestEntry.method_names() does (oot_test_config_models.py:
// method = the part after the last "::"; the class part is never checked).
struct SplitName {
    std::string_view classPart; // "" when the name has no "::"
    std::string_view method;
};
SplitName splitConfigName(std::string_view name);

// An op as torch-spyre's op__ marks write it: every character but [A-Za-z0-9]
// as '_', outer '_' trimmed ("nn.functional.relu" -> "nn_functional_relu",
// "copy_" -> "copy", "_scaled_mm" -> "scaled_mm", "__rsub__" -> "rsub").
// Comparing two ops through it makes a raw OpInfo name and a mark meet.
std::string sanitizedOp(std::string_view op);
// Sanitising leaves it as it is: ASCII letters, digits and inner '_' only.
bool isPlainOp(std::string_view op);

// A reported variant taken apart: `<base>[_<op>[_<variant>]][_<param>]_<device>[_<dtype>...]`.
struct VariantName {
    std::string base; // the base method a config lists
    // When only a sanitised op mark cut the name, '_' before the cut may be
    // the op's own (`_scaled_mm`, `__rsub__`) or the method's
    // (`test_memory_format_resize_`): `base` has them trimmed, this keeps them.
    std::string untrimmedBase;
    std::string op;           // the op (as given) whose formatted name was cut, "" when none
    bool deviceFound = false; // "_<device>" ended the name or preceded only dtypes
    bool modelOps = false;    // a test_model_ops_db_<name>__<n>_... variant (spec 5.3)
    std::string modelOpsKey;  // its "<name>__<n>" (test_model_ops_v2.py:84-158)
};

// `method` is the variant as the report names it; `ops` the op marks or the
// op the user named (raw OpInfo names or sanitised marks, tried in turn, the
// one cut furthest right wins; a raw name's formatted form, `.` as `_`, cuts
// exactly); `device` the PRIVATEUSE1 backend name.
VariantName parseVariantName(std::string_view method, const std::vector<std::string>& ops,
                             std::string_view device = "spyre");

// _extract_op_name_from_method (oot_test_utilities.py:396-414): the text
// between "<base>_" and the first "_<device>_" after it, so none when no
// dtype follows the device. It keeps an OpInfo variant suffix and '.' as
// '_' ("addmm_decomposed", "nn_functional_relu").
std::optional<std::string> frameworkOpName(std::string_view variant, std::string_view base,
                                           std::string_view device = "spyre");

// "<stem>__oot_wrapper.py" -> "<stem>.py" (oot_test_parsing.py:77-98): the
// wrapper run_test.sh generates for files of plain TestCase classes.
std::string unwrapOotPath(std::string_view path);
// The file is run_test.sh's wrapper of another (unwrapOotPath changes it).
bool isOotWrapperPath(std::string_view path);

} // namespace relayhud::config
