// The framework's naming rules of spyre_names.h, each beside its citation
// (torch-spyre/torch-spyre tests/oot_framework/ @539fd3b0).
#include "relayhud/config/spyre_names.h"

#include "relayhud/junit/test_identity.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>

namespace relayhud::config {
namespace {

// DTYPE_NAMES_ORDERED (oot_test_constants.py:92-114): DTYPE_STR_MAP's keys,
// sorted by length, longest first; Python's sort is stable, so names of one
// length keep the map's order (float16, float32, float64, bfloat16, int8, ...,
// complex128, bool, half).
constexpr std::array<std::string_view, 17> kLongestFirst = {
    "complex128", "complex32", "complex64", "bfloat16", "float16", "float32",
    "float64",    "uint16",    "uint32",    "uint64",   "int16",   "int32",
    "int64",      "uint8",     "int8",      "bool",     "half",
};

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Where "_<op>" starts in `prefix` (rightmost occurrence followed by the end
// or '_'), npos when absent.
std::size_t opCutAt(std::string_view prefix, std::string_view op)
{
    if (op.empty())
        return std::string_view::npos;
    for (std::size_t at = prefix.rfind(op); at != std::string_view::npos && at > 1;
         at = prefix.rfind(op, at - 1)) {
        const std::size_t after = at + op.size();
        if (prefix[at - 1] == '_' && (after == prefix.size() || prefix[after] == '_'))
            return at - 1;
    }
    return std::string_view::npos;
}

// The OpInfo's formatted name as instantiate_device_type_tests writes it.
std::string formattedOp(std::string_view op)
{
    std::string out(op);
    std::replace(out.begin(), out.end(), '.', '_');
    return out;
}

std::string_view trimTrailingUnderscores(std::string_view text)
{
    while (text.size() > 1 && text.back() == '_')
        text.remove_suffix(1);
    return text;
}

// _MODEL_OPS_VARIANT_RE (oot_test_utilities.py:321-341), applied as the
// framework applies it, to the whole variant name.
const RE2& modelOpsVariant()
{
    static const RE2 re(R"(test_model_ops_db_(.+?__\d+)_[A-Za-z0-9]+_\w+)");
    return re;
}

} // namespace

bool isConfigDtypeName(std::string_view name)
{
    return std::find(kLongestFirst.begin(), kLongestFirst.end(), name) != kLongestFirst.end();
}

std::string_view canonicalDtype(std::string_view name)
{
    return name == "half" ? std::string_view("float16") : name;
}

std::span<const std::string_view> dtypeNamesLongestFirst() { return kLongestFirst; }

std::optional<std::string_view> dtypeFromVariantName(std::string_view variant)
{
    // No dtype name holds a '_', so "_<d>_" or a final "_<d>" is a whole
    // token after a '_': one pass over the tokens, keeping the one that comes
    // first in the framework's order.
    std::size_t best = kLongestFirst.size();
    for (std::size_t at = variant.find('_'); at != std::string_view::npos;) {
        const std::size_t next = variant.find('_', at + 1);
        const std::string_view token = variant.substr(
            at + 1, (next == std::string_view::npos ? variant.size() : next) - at - 1);
        if (token.size() >= 4 && token.size() <= 10)
            for (std::size_t i = 0; i < best; ++i)
                if (kLongestFirst[i] == token) {
                    best = i;
                    break;
                }
        at = next;
    }
    if (best == kLongestFirst.size())
        return std::nullopt;
    return canonicalDtype(kLongestFirst[best]);
}

bool isRegexMethod(std::string_view method)
{
    return method.find_first_of("\\.^$*+?{}[]|()") != std::string_view::npos;
}

SplitName splitConfigName(std::string_view name)
{
    // A valid name has at most one "::"; split("::")[-1] of two parts is
    // what follows the first.
    const std::size_t sep = name.find("::");
    if (sep == std::string_view::npos)
        return {{}, name};
    return {name.substr(0, sep), name.substr(sep + 2)};
}

std::string sanitizedOp(std::string_view op) { return markedOp(op); }

VariantName parseVariantName(std::string_view method, const std::vector<std::string>& ops,
                             std::string_view device)
{
    VariantName out;
    const std::size_t deviceAt =
        device.empty() ? std::string_view::npos : deviceTokenAt(method, device);
    out.deviceFound = deviceAt != std::string_view::npos;
    const std::string_view prefix = out.deviceFound ? method.substr(0, deviceAt) : method;
    std::size_t bestCut = std::string_view::npos;
    bool exactCut = false;
    for (const std::string& op : ops) {
        // A raw name that sanitising would change (`_scaled_mm`, `copy_`,
        // `nn.functional.relu`) cuts exactly; a plain one may be a mark.
        const std::string formatted = formattedOp(op);
        std::size_t cut =
            formatted != sanitizedOp(op) ? opCutAt(prefix, formatted) : std::string_view::npos;
        const bool exact = cut != std::string_view::npos;
        if (!exact)
            cut = opCutAt(prefix, sanitizedOp(op));
        if (cut != std::string_view::npos && (bestCut == std::string_view::npos || cut > bestCut)) {
            bestCut = cut;
            exactCut = exact;
            out.op = op;
        }
    }
    std::string modelOpsKey;
    out.modelOps = method.rfind("test_model_ops_db_", 0) == 0
                   && RE2::FullMatch(method, modelOpsVariant(), &modelOpsKey);
    if (out.modelOps)
        out.modelOpsKey = std::move(modelOpsKey);
    if (bestCut != std::string_view::npos) {
        const std::string_view cut = prefix.substr(0, bestCut);
        out.base = std::string(exactCut ? cut : trimTrailingUnderscores(cut));
        if (out.base.size() != cut.size())
            out.untrimmedBase = std::string(cut);
    } else if (out.modelOps && prefix.rfind("test_model_ops_db_", 0) == 0)
        out.base = "test_model_ops_db"; // its op is the generated "<name>__<n>"
    else
        out.base = std::string(prefix);
    return out;
}

std::optional<std::string> frameworkOpName(std::string_view variant, std::string_view base,
                                           std::string_view device)
{
    if (variant.size() <= base.size() || variant.substr(0, base.size()) != base
        || variant[base.size()] != '_')
        return std::nullopt;
    const std::string_view remainder = variant.substr(base.size() + 1);
    // The first "_<device>_" in the remainder.
    for (std::size_t at = remainder.find(device); at != std::string_view::npos;
         at = remainder.find(device, at + 1)) {
        const std::size_t end = at + device.size();
        if (at > 0 && remainder[at - 1] == '_' && end < remainder.size() && remainder[end] == '_')
            return std::string(remainder.substr(0, at - 1));
    }
    return std::nullopt;
}

std::string unwrapOotPath(std::string_view path)
{
    // Path(path).stem.endswith("__oot_wrapper"): the stem is the last
    // component up to its last '.', the suffix kept as it was.
    constexpr std::string_view kWrapper = "__oot_wrapper";
    const std::size_t slash = path.rfind('/');
    const std::size_t nameAt = slash == std::string_view::npos ? 0 : slash + 1;
    const std::size_t dot = path.rfind('.');
    const std::size_t stemEnd = dot != std::string_view::npos && dot > nameAt ? dot : path.size();
    const std::string_view stem = path.substr(0, stemEnd);
    if (stemEnd - nameAt <= kWrapper.size() || !endsWith(stem, kWrapper))
        return std::string(path);
    return std::string(stem.substr(0, stem.size() - kWrapper.size()))
           + std::string(path.substr(stemEnd));
}

} // namespace relayhud::config
