// The base-name algorithm documented at baseTestName() in test_identity.h.
#include "relayhud/junit/test_identity.h"
#include "relayhud/util/split.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace relayhud {
namespace {

// PyTorch's dtype names as instantiate_device_type_tests writes them.
constexpr std::array<std::string_view, 31> kTorchDtypes = {"float16",
                                                           "bfloat16",
                                                           "float32",
                                                           "float64",
                                                           "complex32",
                                                           "complex64",
                                                           "complex128",
                                                           "uint8",
                                                           "uint16",
                                                           "uint32",
                                                           "uint64",
                                                           "int8",
                                                           "int16",
                                                           "int32",
                                                           "int64",
                                                           "bool",
                                                           "qint8",
                                                           "quint8",
                                                           "qint32",
                                                           "quint4x2",
                                                           "quint2x4",
                                                           "float8_e4m3fn",
                                                           "float8_e5m2",
                                                           "float8_e4m3fnuz",
                                                           "float8_e5m2fnuz",
                                                           "float8_e8m0fnu",
                                                           "float4_e2m1fn_x2",
                                                           "bits8",
                                                           "bits16",
                                                           "bits1x8",
                                                           "bits4x2"};

// instantiate_device_type_tests appends device_type.upper() to the class.
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kClassDevices = {{
    {"CPU", "cpu"},
    {"CUDA", "cuda"},
    {"XPU", "xpu"},
    {"MPS", "mps"},
    {"META", "meta"},
    {"LAZY", "lazy"},
    {"HPU", "hpu"},
    {"MTIA", "mtia"},
    {"XLA", "xla"},
}};

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// `className` ends with `device` in upper case ("TestFooSPYRE", "spyre").
bool endsWithUpper(std::string_view className, std::string_view device)
{
    if (device.empty() || className.size() <= device.size())
        return false;
    const std::string_view tail = className.substr(className.size() - device.size());
    for (std::size_t i = 0; i < device.size(); ++i) {
        const char c = device[i];
        const char up = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        if (tail[i] != up)
            return false;
    }
    return true;
}

bool isDtype(std::string_view token, const TestMarks& marks)
{
    return isTorchDtypeName(token) || marks.has(MarkKind::Dtype, token);
}

// True when `rest` is "<dtype>[_<dtype>...]". Dtype names contain '_', so each
// split point is tried; names are short, so this stays cheap.
bool isDtypeSequence(std::string_view rest, const TestMarks& marks)
{
    if (rest.empty())
        return false;
    if (isDtype(rest, marks))
        return true;
    for (std::size_t cut = rest.find('_'); cut != std::string_view::npos;
         cut = rest.find('_', cut + 1)) {
        if (isDtype(rest.substr(0, cut), marks) && isDtypeSequence(rest.substr(cut + 1), marks))
            return true;
    }
    return false;
}

} // namespace

std::size_t deviceTokenAt(std::string_view method, std::string_view device, const TestMarks& marks)
{
    for (std::size_t at = rfindFast(method, device); at != std::string_view::npos && at > 1;
         at = rfindFast(method, device, at - 1)) {
        if (method[at - 1] != '_')
            continue;
        const std::size_t end = at + device.size();
        if (end == method.size())
            return at - 1;
        if (method[end] == '_' && isDtypeSequence(method.substr(end + 1), marks))
            return at - 1;
    }
    return std::string_view::npos;
}

namespace {

std::size_t underscoresFrom(std::string_view text, std::size_t from)
{
    std::size_t n = 0;
    while (from + n < text.size() && text[from + n] == '_')
        ++n;
    return n;
}

std::size_t underscoresBefore(std::string_view text, std::size_t end)
{
    std::size_t n = 0;
    while (n < end && text[end - n - 1] == '_')
        ++n;
    return n;
}

// Where `_<op>` (plus a variant, or a dunder's closing "__") starts in
// `prefix`, rightmost first; npos when the op is not there.
std::size_t findOpSuffix(std::string_view prefix, std::string_view op)
{
    if (op.empty())
        return std::string_view::npos;
    for (std::size_t at = rfindFast(prefix, op); at != std::string_view::npos && at > 0;
         at = rfindFast(prefix, op, at - 1)) {
        if (prefix[at - 1] != '_')
            continue;
        const std::size_t after = at + op.size();
        const std::size_t closing = underscoresFrom(prefix, after);
        if (after != prefix.size() && closing == 0)
            continue; // the op is only the start of a longer word
        // A dunder op (`__rsub__`, marked `rsub`) brings its own leading "__".
        const bool dunder = closing >= 2 && after + closing == prefix.size()
                            && underscoresBefore(prefix, at) > closing;
        const std::size_t cut = at - (dunder ? closing + 1 : 1);
        if (cut > 0)
            return cut;
    }
    return std::string_view::npos;
}

} // namespace

std::string markedOp(std::string_view op)
{
    std::string out(op);
    for (char& c : out) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum)
            c = '_';
    }
    const std::size_t first = out.find_first_not_of('_');
    if (first == std::string::npos)
        return {};
    return out.substr(first, out.find_last_not_of('_') + 1 - first);
}

namespace {

std::string_view stripOp(std::string_view prefix, const TestMarks& marks)
{
    std::size_t best = std::string_view::npos;
    for (const Mark& mark : marks.items) {
        if (mark.kind != MarkKind::Op)
            continue;
        const std::size_t cut = findOpSuffix(prefix, markedOp(mark.value));
        if (cut != std::string_view::npos && (best == std::string_view::npos || cut > best))
            best = cut;
    }
    return best == std::string_view::npos ? prefix : prefix.substr(0, best);
}

struct DeviceSuffix {
    std::size_t length = 0;
    std::string_view device; // lower case, as in method names
};

DeviceSuffix deviceSuffix(std::string_view className, const BaseNameOptions& options)
{
    constexpr std::string_view kPrivateUse1 = "PRIVATEUSE1";
    const std::string_view own = options.privateUse1Device;
    if (!own.empty() && className.size() > kPrivateUse1.size() && endsWith(className, kPrivateUse1))
        return {kPrivateUse1.size(), own};
    if (endsWithUpper(className, own))
        return {own.size(), own};
    for (const auto& [upperName, lowerName] : kClassDevices) {
        if (className.size() > upperName.size() && endsWith(className, upperName))
            return {upperName.size(), lowerName};
    }
    return {};
}

} // namespace

bool isTorchDtypeName(std::string_view name)
{
    return std::find(kTorchDtypes.begin(), kTorchDtypes.end(), name) != kTorchDtypes.end();
}

std::string_view classDevice(std::string_view className, const BaseNameOptions& options,
                             std::string_view* genericClass)
{
    const DeviceSuffix suffix = deviceSuffix(className, options);
    if (genericClass)
        *genericClass = className.substr(0, className.size() - suffix.length);
    return suffix.device;
}

void assignBaseTestName(std::string& out, std::string_view className, std::string_view method,
                        const TestMarks& marks, const BaseNameOptions& options)
{
    std::string_view generic = className;
    const std::string_view device = classDevice(className, options, &generic);
    const std::size_t at =
        device.empty() ? std::string_view::npos : deviceTokenAt(method, device, marks);
    if (at == std::string_view::npos)
        assignTestIdentity(out, {}, className, method);
    else
        assignTestIdentity(out, {}, generic, stripOp(method.substr(0, at), marks));
}

std::string baseTestName(std::string_view className, std::string_view method,
                         const TestMarks& marks, const BaseNameOptions& options)
{
    std::string out;
    assignBaseTestName(out, className, method, marks, options);
    return out;
}

} // namespace relayhud
