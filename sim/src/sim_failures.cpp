#include "sim_failures.h"

#include <array>
#include <cstdio>

namespace relayhud::sim {
namespace {

constexpr std::string_view kTorchInternal =
    "/opt/conda/envs/py_3.11/lib/python3.11/site-packages/torch/testing/_internal/";

std::string repoName(const TestFlavor& flavor)
{
    const std::size_t slash = flavor.repo.find('/');
    return slash == std::string::npos ? flavor.repo : flavor.repo.substr(slash + 1);
}

std::string methodOf(const CaseRef& c) { return std::string(c.family->methods[c.method]); }

// The op a case exercises, for error texts: its OpInfo name, else a guess.
std::string opOf(const CaseRef& c)
{
    const NameShape shape = c.family->shape;
    if ((shape == NameShape::OpDtype || shape == NameShape::Op) && c.family->first)
        return underscored((*c.family->first)[c.first]);
    return "copy_";
}

std::string dtypeOf(const CaseRef& c)
{
    const NameShape shape = c.family->shape;
    if ((shape == NameShape::OpDtype || shape == NameShape::Dtype) && c.family->second)
        return std::string((*c.family->second)[c.second]);
    return "float32";
}

// unittest's "Class.method" for the repro hint and pytest's section titles.
std::string dottedName(const TestUniverse& u, const CaseRef& c)
{
    std::string out;
    u.appendClass(out, c);
    if (!out.empty())
        out += '.';
    u.appendName(out, c);
    return out;
}

std::string frame(std::string_view path, int line, std::string_view function, std::string_view code)
{
    return "  File \"" + std::string(path) + "\", line " + std::to_string(line) + ", in "
           + std::string(function) + "\n    " + std::string(code) + "\n";
}

std::string frameworkFrames(const TestUniverse& u, const CaseRef& c)
{
    const std::string internal(kTorchInternal);
    std::string out =
        frame(internal + "common_utils.py", 3150, "wrapper", "method(*args, **kwargs)");
    if (c.family->shape != NameShape::Plain && c.family->shape != NameShape::Bracket)
        out += frame(internal + "common_device_type.py", 1134, "test_wrapper",
                     "return test(*args, **kwargs)");
    out += frame(runnerPath(u.flavor(), c.family->file), methodLine(c) + 9, methodOf(c),
                 "self.assertEqual(actual, expected, atol=atol, rtol=rtol)");
    return out;
}

std::string mismatchText(const TestUniverse& u, const CaseRef& c)
{
    const std::uint64_t h = u.hash(c.index, 11);
    const auto total = 64U << (h % 6);
    const auto bad = 1 + static_cast<unsigned>((h >> 8) % (total / 8));
    const auto row = static_cast<unsigned>((h >> 20) % 8);
    const auto col = static_cast<unsigned>((h >> 28) % 64);
    const std::string at = " at index (" + std::to_string(row) + ", " + std::to_string(col) + ")";
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * bad / total);
    return "AssertionError: Tensor-likes are not close!\n\nMismatched elements: "
           + std::to_string(bad) + " / " + std::to_string(total) + " (" + percent
           + ")\nGreatest absolute difference: 0.0078125" + at
           + " (up to 1e-05 allowed)\nGreatest relative difference: 0.00390625" + at
           + " (up to 0.001 allowed)";
}

std::string vllmMismatch(const TestUniverse& u, const CaseRef& c)
{
    const std::uint64_t h = u.hash(c.index, 12);
    return "AssertionError: Test" + std::to_string(h % 8)
           + ":\nHF: ' The capital of France is Paris. It is known for'\nvLLM: ' The capital of "
             "France is Paris. It is famous for'";
}

std::string backendError(const TestUniverse& u, const CaseRef& c)
{
    const std::string& device = u.flavor().device;
    const std::string op = opOf(c);
    if (device == "spyre")
        return "RuntimeError: [spyre] aten::" + op + ".out: kernel compilation failed for "
               + dtypeOf(c) + " (DeepTools DT-2217: tile exceeds scratchpad capacity)";
    if (device == "npu")
        return "RuntimeError: call aclnn" + op + " failed, detail:EZ9999: Inner Error!\nEZ9999: "
               + "Op " + op + " does not has any binary. [ERR01100] OPS call acl api failed";
    if (device == "xpu")
        return "RuntimeError: Native API failed. Native API returns: -5 "
               "(PI_ERROR_OUT_OF_RESOURCES)";
    if (device == "mlu")
        return "RuntimeError: CNNL error: CNNL_STATUS_NOT_SUPPORTED in cnnl" + op
               + " (torch_mlu/csrc/aten/cnnl/cnnlHandle.cpp:52)";
    if (device == "tpu")
        return "RuntimeError: Bad StatusOr access: INTERNAL: RET_CHECK failure "
               "(xla/service/hlo_verifier.cc:1042) lowering aten::"
               + op;
    return "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel "
           "errors might be asynchronously reported at some other API call, so the stacktrace "
           "below might be incorrect.";
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string reproHint(const TestUniverse& u, const CaseRef& c)
{
    if (c.family->shape == NameShape::Bracket)
        return {};
    return "\n\nTo execute this test, run the following from the base repo dir:\n    python test/"
           + std::string(c.family->file) + " " + dottedName(u, c)
           + "\n\nThis message can be suppressed by setting PYTORCH_PRINT_REPRO_ON_FAILURE=0";
}

FailureText assertionFailure(const TestUniverse& u, const CaseRef& c, bool backend)
{
    const bool vllm = c.family->shape == NameShape::Bracket;
    std::string error = backend ? backendError(u, c)
                        : vllm  ? vllmMismatch(u, c)
                                : mismatchText(u, c);
    std::string traceback = "Traceback (most recent call last):\n" + frameworkFrames(u, c);
    if (!backend)
        traceback += frame(std::string(kTorchInternal) + "common_utils.py", 4041, "assertEqual",
                           "raise error_metas.pop()[0].to_error(");
    traceback += error + reproHint(u, c);
    return {error, traceback, firstLine(error)};
}

FailureText setupError(const TestUniverse& u, const CaseRef&)
{
    const std::string error = "RuntimeError: " + u.flavor().device
                              + " device 0 is not available: device or resource busy";
    const std::string internal(kTorchInternal);
    std::string traceback = "Traceback (most recent call last):\n"
                            + frame(internal + "common_device_type.py", 531, "setUpClass",
                                    "cls.primary_device = cls.get_primary_device()")
                            + frame(internal + "common_device_type.py", 612, "get_primary_device",
                                    "return torch.empty(0, device=cls.device_type).device")
                            + error;
    return {"failed on setup with \"" + error + "\"", traceback, firstLine(error)};
}

FailureText xpassStrict(const TestUniverse& u, const CaseRef& c)
{
    // torch-spyre's conftest rewrites the message; plain pytest prefixes the reason.
    std::string message = u.flavor().tags ? "XPASS strict: test passed but xfail strict=True"
                                          : "[XPASS(strict)] " + xfailReason(u, c);
    return {message, message, message};
}

} // namespace

std::string runnerPath(const TestFlavor& flavor, std::string_view file)
{
    const std::string root = "/__w/" + repoName(flavor) + "/" + repoName(flavor) + "/";
    if (file.substr(0, 6) == "tests/")
        return root + std::string(file); // the backend's own tests
    return root + "pytorch/test/" + std::string(file);
}

int methodLine(const CaseRef& c)
{
    return c.family->firstLine + 23 * c.method + (c.family->shape == NameShape::Plain ? 0 : 4);
}

FailureText failureText(const TestUniverse& universe, const CaseRef& c, FailureKind kind)
{
    switch (kind) {
    case FailureKind::Assertion: return assertionFailure(universe, c, false);
    case FailureKind::BackendError: return assertionFailure(universe, c, true);
    case FailureKind::SetupError: return setupError(universe, c);
    case FailureKind::XPassStrict: return xpassStrict(universe, c);
    }
    return {};
}

std::string skipReason(const TestUniverse& u, const CaseRef& c)
{
    static constexpr std::array<std::string_view, 6> kReasons = {
        "Only runs on cpu",
        "test is slow; run with PYTORCH_TEST_WITH_SLOW to enable test",
        "Test requires multiple devices",
        "Skipped! Operation does not support the `out=` argument",
        "requires SciPy",
        "not a suitable test for TorchDynamo"};
    const std::uint64_t h = u.hash(c.index, 21);
    if (h % 3 == 0)
        return dtypeOf(c) + " is not supported on " + u.flavor().device;
    return std::string(kReasons[(h / 3) % kReasons.size()]);
}

std::string xfailReason(const TestUniverse& u, const CaseRef& c)
{
    const std::uint64_t h = u.hash(c.index, 22);
    const std::string issue =
        "https://github.com/" + u.flavor().repo + "/issues/" + std::to_string(120 + h % 900);
    switch (h % 3) {
    case 0:
        return "aten::" + opOf(c) + " is not implemented for " + u.flavor().device + " (" + issue
               + ")";
    case 1: return "numerical mismatch vs CPU for " + dtypeOf(c) + " (" + issue + ")";
    default:
        return "NotImplementedError: unsupported layout on " + u.flavor().device + " (" + issue
               + ")";
    }
}

} // namespace relayhud::sim
