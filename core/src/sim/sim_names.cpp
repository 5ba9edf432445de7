#include "sim_names.h"

#include <vector>

namespace relayhud::sim {
namespace {

const std::vector<std::string> kAreas = {
    "inductor",    "dynamo",   "aten",     "export", "distributed", "fx",   "quant",     "BE",
    "PrivateUse1", "autograd", "profiler", "c10d",   "MPS",         "ROCm", "functorch", "AOTI"};
const std::vector<std::string> kVerbs = {"Fix",      "Add",       "Support", "Remove",
                                         "Refactor", "Speed up",  "Handle",  "Guard against",
                                         "Enable",   "Deprecate", "Skip",    "Reland"};
const std::vector<std::string> kObjects = {
    "empty tensors in",      "dtype promotion for",     "dynamic shapes in",
    "stride propagation in", "channels_last in",        "int64 indexing in",
    "meta kernels for",      "fake tensor handling in", "the decomposition of",
    "the error message of",  "out= overloads of",       "non-contiguous inputs to"};
const std::vector<std::string> kTargets = {
    "aten::addmm", "index_put_",         "scaled_dot_product_attention",
    "torch.sort",  "layer_norm",         "nonzero",
    "torch.cat",   "embedding_bag",      "conv2d backward",
    "foreach ops", "torch.compile",      "all_gather_into_tensor",
    "masked_fill", "upsample_bilinear2d"};
const std::vector<std::string> kFirst = {"alex", "mei",  "rohan",  "sofia", "jun",   "kasia",
                                         "omar", "lena", "tariq",  "yuki",  "nadia", "pavel",
                                         "ines", "wei",  "dmitri", "amara"};
const std::vector<std::string> kLast = {"k",  "dev", "codes", "ml",  "torch",
                                        "hw", "gpu", "x",     "oss", "perf"};

struct TestFamily {
    std::string file;
    std::string testClass;
    std::string method;
};
const std::vector<TestFamily> kFamilies = {
    {"test_ops.py", "TestCommonPRIVATEUSE1", "test_compare_cpu"},
    {"test_ops.py", "TestCommonPRIVATEUSE1", "test_noncontiguous_samples"},
    {"test_binary_ufuncs.py", "TestBinaryUfuncsPRIVATEUSE1", "test_reference_numerics"},
    {"test_view_ops.py", "TestViewOpsPRIVATEUSE1", "test_view_copy"},
    {"test_torch.py", "TestTorchDeviceTypePRIVATEUSE1", "test_dim_reduction"},
    {"inductor/test_torchinductor.py", "GPUTests", "test_fused_kernel"}};
const std::vector<std::string> kOps = {"add", "addmm",        "mul",        "sum", "softmax",
                                       "cat", "index_select", "layer_norm", "bmm", "where"};
const std::vector<std::string> kDtypes = {"float16", "bfloat16", "float32", "int64", "int8"};

} // namespace

std::string makePrTitle(SplitMix64& rng)
{
    return "[" + rng.pick(kAreas) + "] " + rng.pick(kVerbs) + " " + rng.pick(kObjects) + " "
           + rng.pick(kTargets);
}

std::string makeAuthor(SplitMix64& rng)
{
    std::string login = rng.pick(kFirst);
    if (rng.chance(0.6))
        login += "-" + rng.pick(kLast);
    return login;
}

std::string makeFailingTest(SplitMix64& rng, const std::string& device)
{
    const TestFamily& family = rng.pick(kFamilies);
    return family.file + "::" + family.testClass + "::" + family.method + "_" + rng.pick(kOps) + "_"
           + device + "_" + rng.pick(kDtypes);
}

} // namespace relayhud::sim
