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

} // namespace relayhud::sim
