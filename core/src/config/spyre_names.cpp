// The framework's naming rules of spyre_names.h, each beside its citation
// (torch-spyre/torch-spyre tests/oot_framework/ @539fd3b0).
#include "relayhud/config/spyre_names.h"

#include "relayhud/junit/test_identity.h"
#include "relayhud/util/split.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

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

// Up to 8 bytes of a name as one integer, the first byte lowest.
constexpr std::uint64_t bytesWord(std::string_view text)
{
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(8, text.size()); ++i)
        word |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[i])) << (8 * i);
    return word;
}

// kLongestFirst as a perfect hash of (first 8 bytes, length): a token is
// looked up with one multiply and compared without a branch per byte.
struct DtypeWords {
    std::uint64_t head = 0; // bytes 0-7
    std::uint64_t tail = 0; // bytes 8-15 (complex128's "28")
    std::size_t size = ~std::size_t{0};
};
constexpr std::size_t kNoDtype = kLongestFirst.size();

constexpr std::size_t dtypeSlot(std::uint64_t head, std::size_t size)
{
    return static_cast<std::size_t>(((head ^ size) * 0x9E3779B97F4A7C15ULL) >> 56);
}

constexpr std::array<DtypeWords, kNoDtype + 1> kDtypeWords = [] {
    std::array<DtypeWords, kNoDtype + 1> words{}; // the last: no dtype, matches nothing
    for (std::size_t i = 0; i < kNoDtype; ++i) {
        const std::string_view name = kLongestFirst[i];
        words[i] = {bytesWord(name), name.size() > 8 ? bytesWord(name.substr(8)) : 0, name.size()};
    }
    return words;
}();

constexpr std::array<std::uint8_t, 256> kDtypeBySlot = [] {
    std::array<std::uint8_t, 256> slots{};
    slots.fill(static_cast<std::uint8_t>(kNoDtype));
    for (std::size_t i = 0; i < kNoDtype; ++i)
        slots[dtypeSlot(kDtypeWords[i].head, kDtypeWords[i].size)] = static_cast<std::uint8_t>(i);
    return slots;
}();

static_assert(
    [] {
        for (std::size_t i = 0; i < kNoDtype; ++i)
            if (kDtypeBySlot[dtypeSlot(kDtypeWords[i].head, kDtypeWords[i].size)] != i)
                return false;
        return true;
    }(),
    "two dtype names share a slot: pick another multiplier");

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
    for (std::size_t at = rfindFast(prefix, op); at != std::string_view::npos && at > 1;
         at = rfindFast(prefix, op, at - 1)) {
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
    // first in the framework's order. This runs for every result a verdict
    // judges: the '_'s are found 64 bytes at a time as a bit mask, and a token
    // is looked up in kDtypeBySlot, with no branch per byte or per name.
    const char* const bytes = variant.data();
    const std::size_t size = variant.size();
    auto word = [&](std::size_t from, std::size_t length) { // as bytesWord(substr(from, length))
        if (std::endian::native != std::endian::little || from + 8 > size)
            return bytesWord(variant.substr(from, length));
        std::uint64_t w = 0;
        std::memcpy(&w, bytes + from, 8);
        return length < 8 ? w & ((std::uint64_t{1} << (8 * length)) - 1) : w;
    };
    std::size_t best = kNoDtype;
    auto consider = [&](std::size_t from, std::size_t end) {
        const std::size_t length = end - from;
        const std::uint64_t head = word(from, length);
        const std::size_t found = kDtypeBySlot[dtypeSlot(head, length)];
        const DtypeWords& name = kDtypeWords[found];
        const std::uint64_t tail = length > 8 ? word(from + 8, length - 8) : 0;
        if (name.size == length && name.head == head && name.tail == tail)
            best = std::min(best, found);
    };
    std::size_t token = std::string_view::npos; // where the current token starts
    for (std::size_t chunk = 0; chunk < size; chunk += 64) {
        const std::size_t length = std::min<std::size_t>(64, size - chunk);
        std::uint64_t underscores = 0;
        for (std::size_t i = 0; i < length; ++i)
            underscores |= static_cast<std::uint64_t>(bytes[chunk + i] == '_') << i;
        for (; underscores != 0; underscores &= underscores - 1) {
            const std::size_t at = chunk + static_cast<std::size_t>(std::countr_zero(underscores));
            if (token != std::string_view::npos)
                consider(token, at);
            token = at + 1;
        }
    }
    if (token != std::string_view::npos)
        consider(token, size);
    if (best == kNoDtype)
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

bool isPlainOp(std::string_view op)
{
    auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    if (op.empty() || !alnum(op.front()) || !alnum(op.back()))
        return false;
    return std::all_of(op.begin(), op.end(), [&](char c) { return alnum(c) || c == '_'; });
}

bool isOotWrapperPath(std::string_view path)
{
    constexpr std::string_view kWrapper = "__oot_wrapper";
    const std::size_t slash = path.rfind('/');
    const std::size_t nameAt = slash == std::string_view::npos ? 0 : slash + 1;
    const std::size_t dot = path.rfind('.');
    const std::size_t stemEnd = dot != std::string_view::npos && dot > nameAt ? dot : path.size();
    return stemEnd - nameAt > kWrapper.size() && endsWith(path.substr(0, stemEnd), kWrapper);
}

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
        std::size_t cut = std::string_view::npos;
        bool exact = false;
        if (isPlainOp(op)) {
            cut = opCutAt(prefix, op);
        } else {
            const std::string sanitized = sanitizedOp(op);
            const std::string formatted = formattedOp(op);
            cut = formatted != sanitized ? opCutAt(prefix, formatted) : std::string_view::npos;
            exact = cut != std::string_view::npos;
            if (!exact)
                cut = opCutAt(prefix, sanitized);
        }
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
    if (!isOotWrapperPath(path))
        return std::string(path);
    const std::size_t slash = path.rfind('/');
    const std::size_t nameAt = slash == std::string_view::npos ? 0 : slash + 1;
    const std::size_t dot = path.rfind('.');
    const std::size_t stemEnd = dot != std::string_view::npos && dot > nameAt ? dot : path.size();
    const std::string_view stem = path.substr(0, stemEnd);
    return std::string(stem.substr(0, stem.size() - kWrapper.size()))
           + std::string(path.substr(stemEnd));
}

} // namespace relayhud::config
