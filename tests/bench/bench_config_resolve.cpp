// The outcome-config resolver (issue 14), each target beside a reference
// measured in the same run:
//   load + validate the largest real-shaped config            <= 150 ms
//     (a generated model_ops config of the shape and size of torch-spyre's
//     tests/configs/model_ops_tests/granite-4.0-h-tiny_spyre.yaml, 1.49 MB),
//     beside yaml-cpp's bare YAML::Load of the same text; the Resolver built
//     on it is printed beside the same reference
//   resolve 100,000 variants with one Resolver    <= 100 ms and <= 2x the floor
//     (a 400-name config with 30 regex names, as real ones write them),
//     beside the floor: an unordered_map find of each variant's base method
//     plus one RE2::Set::Match of it over the same 30 patterns
//   verdict::configCoverage of 30,000 results on that config  <= 100 ms
//     beside the same floor over their base methods
// Nothing here reads a real config: both are generated at bench time
// (RELAYHUD_BENCH_KEEP=1 leaves them in the temp folder, for profiling).
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/config/name_regex.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"
#include "relayhud/verdict/verdict.h"

#include <re2/re2.h>
#include <re2/set.h>
#include <yaml-cpp/yaml.h>
#include <yaml.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace relayhud::bench {
namespace {

constexpr int kLoadRounds = 11;
constexpr int kResolveRounds = 11;
constexpr int kVariants = 100'000;
constexpr std::size_t kCoverageCases = 30'000;
// granite-4.0-h-tiny_spyre.yaml at torch-spyre's HEAD: 1,491,420 bytes,
// 30,689 lines, one entry listing TestSpyreModelOps::test_model_ops_db with
// 1,209 edits.ops.include items.
constexpr std::size_t kModelOpsBytes = 1'491'420;

// A small deterministic generator: the same config and variants every run.
struct Rng {
    std::uint64_t state;
    std::uint32_t next()
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>(state >> 33);
    }
    std::size_t below(std::size_t n) { return next() % n; }
};

template <class T, std::size_t N>
const T& pick(Rng& rng, const std::array<T, N>& items)
{
    return items[rng.below(N)];
}

// ---------------------------------------------------------------------------
// 1. A model_ops config of the real one's shape.

std::string joinedInts(const std::vector<std::int64_t>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}

struct TensorSpec {
    std::vector<std::int64_t> shape;
    const char* dtype = "torch.float16";
    const char* init = "rand"; // "" for none (bool tensors carry none)
    std::int64_t offset = 0;
};

// The fields of one tensor spec, each line at `indent`; the first line
// without indent when `firstInline` (it follows "- " or "tensor:\n").
void writeTensorFields(std::string& out, const TensorSpec& t, const std::string& indent,
                       bool firstInline)
{
    std::vector<std::int64_t> stride(t.shape.size(), 1);
    for (std::size_t i = t.shape.size(); i-- > 1;)
        stride[i - 1] = stride[i] * std::max<std::int64_t>(t.shape[i], 1);
    out += (firstInline ? "" : indent) + "shape: " + joinedInts(t.shape) + "\n";
    out += indent + "stride: " + joinedInts(stride) + "\n";
    out += indent + "storage_offset: " + std::to_string(t.offset) + "\n";
    out += indent + "dtype: " + t.dtype + "\n";
    out += indent + "device: cuda:0\n";
    if (*t.init)
        out += indent + "init: " + t.init + "\n";
    if (std::string_view(t.init) == "randint")
        out += indent + "init_args:\n" + indent + "  high: 1000\n";
}

const std::string kArg = "                      - ";           // an args item
const std::string kTensorField = "                          "; // its tensor's fields
const std::string kListField = "                            "; // a tensor_list element's

void writeTensorArg(std::string& out, const TensorSpec& t)
{
    out += kArg + "tensor:\n";
    writeTensorFields(out, t, kTensorField, false);
}

// What a traced call looks like: the op, where the model called it, the
// values it took besides tensors. As in the real file, some descriptions
// quote code with '&' (torch.and_), which parseOutcomeConfig must not take
// for a YAML anchor.
struct CallKind {
    const char* op;
    const char* where; // file#line in transformers
    const char* function;
    const char* code;
    int tensors;
    const char* dtype;
    const char* init;
    const char* values; // extra "- value:"/"- py:" args, '|'-separated; "" for none
    const char* kwargs; // "key: value" lines, '|'-separated; "" for none
    bool constant;      // tagged "constant" (and its tag ends in _spyre)
};

constexpr std::array<CallKind, 20> kCalls = {{
    {"torch.mul", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1293", "forward",
     "inputs_embeds = inputs_embeds * self.embedding_multiplier", 1, "torch.float16", "rand",
     "value: 12", "", true},
    {"torch.to", "masking_utils.py#L801", "_preprocess_mask_arguments",
     "attention_mask = attention_mask.to(device=cache_position.device, dtype=torch.bool)", 1,
     "torch.int64", "randint", "", "device: cuda:0|dtype: torch.bool", false},
    {"torch.arange", "masking_utils.py#L497", "sdpa_mask",
     "batch_arange = torch.arange(batch_size, device=cache_position.device)", 0, "", "", "value: 1",
     "device: cuda:0", true},
    {"torch.add", "masking_utils.py#L501", "sdpa_mask",
     "kv_arange = torch.arange(kv_length, device=cache_position.device) + kv_offset", 1,
     "torch.int64", "randint", "value: 0", "", true},
    {"torch.getitem", "masking_utils.py#L360", "_non_vmap_expansion_sdpa",
     "batch_indices = batch_indices[:, None, None, None]", 1, "torch.int64", "randint",
     "py: (slice(None, None, None), None, None, None)", "", true},
    {"torch.le", "masking_utils.py#L78", "causal_mask_function", "return kv_idx <= q_idx", 2,
     "torch.int64", "randint", "", "", false},
    {"torch.and_", "masking_utils.py#L54", "and_mask",
     "result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)", 2,
     "torch.bool", "", "", "", false},
    {"torch.Tensor.expand", "masking_utils.py#L509", "sdpa_mask",
     "attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)", 1, "torch.bool",
     "", "value: 1|value: -1|value: 1|value: 18", "", true},
    {"torch.reshape", "models/granitemoehybrid/modeling_granitemoehybrid.py#L612",
     "torch_chunk_scan",
     "hidden_states = hidden_states.reshape(batch_size, -1, self.num_heads, self.head_dim)", 1,
     "torch.float16", "rand", "value: 1|value: -1|value: 48|value: 32", "", true},
    {"torch.split", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1003", "forward",
     "input_list = inputs.split(expert_size, dim=0)", 1, "torch.float16", "rand",
     "value: [0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 3, 2, 2, 1, 1, 0, 3, 0, 0, 1, 2, 0, 0, 0, "
     "1, 0, 4, 0]",
     "dim: 0", false},
    {"torch.sum", "models/granitemoehybrid/modeling_granitemoehybrid.py#L540", "segment_sum",
     "segsum = torch.sum(input_tensor, dim=-2)", 1, "torch.float16", "rand", "",
     "dim: -1|keepdim: true", false},
    {"torch.transpose", "models/granitemoehybrid/modeling_granitemoehybrid.py#L688",
     "torch_forward", "C = C.transpose(1, 2)", 1, "torch.float16", "rand", "value: 1|value: 2", "",
     true},
    {"torch.nn.functional.pad", "models/granitemoehybrid/modeling_granitemoehybrid.py#L530",
     "pad_tensor_by_size",
     "return torch.nn.functional.pad(input_tensor, pad_shape, mode=\"constant\", value=0)", 1,
     "torch.float16", "rand", "value: [0, 0, 0, 0, 0, 5, 0, 0]", "mode: constant|value: 0", false},
    {"torch.nn.functional.silu", "activations.py#L98", "forward",
     "return nn.functional.silu(input)", 1, "torch.float16", "rand", "", "", false},
    {"torch.masked_fill", "models/granitemoehybrid/modeling_granitemoehybrid.py#L545",
     "segment_sum", "input_tensor = input_tensor.masked_fill(~mask, 0)", 2, "torch.float16", "rand",
     "value: 0", "", true},
    {"torch.exp", "models/granitemoehybrid/modeling_granitemoehybrid.py#L729", "torch_forward",
     "L = torch.exp(segment_sum(A))", 1, "torch.float16", "rand", "", "", false},
    {"torch.pow", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1184", "forward",
     "variance = hidden_states.pow(2).mean(-1, keepdim=True)", 1, "torch.float32", "rand",
     "value: 2", "", true},
    {"torch.mean", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1184", "forward",
     "variance = hidden_states.pow(2).mean(-1, keepdim=True)", 1, "torch.float32", "rand",
     "value: -1", "keepdim: true", true},
    {"torch.rsqrt", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1185", "forward",
     "hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)", 1,
     "torch.float32", "rand", "", "", false},
    {"torch.nn.functional.embedding", "models/granitemoehybrid/modeling_granitemoehybrid.py#L1291",
     "forward", "inputs_embeds = self.embed_tokens(input_ids)", 2, "torch.float16", "rand",
     "value: 100256|value: null|value: 2.0|value: false|value: false", "", true},
}};

const char* const kTransformers =
    "https://github.com/huggingface/transformers/blob/v5.2.0/src/transformers/";

// description: a single-quoted scalar wrapped onto a second line, as the
// real file's dumper wraps them.
void writeDescription(std::string& out, const char* where, const char* function, const char* code)
{
    out += "                  description: '";
    out += kTransformers;
    out += where;
    out += "\n                    in ";
    out += function;
    out += ", code: ";
    out += code;
    out += "'\n";
}

void writeTags(std::string& out, const char* op, int count, bool constant)
{
    out += "                  tags:\n";
    if (constant)
        out += "                    - constant\n";
    out += "                    - " + std::string(op) + "." + std::to_string(count)
           + (constant ? "_spyre\n" : "\n");
}

void writeSplit(std::string& out, const char* list, const std::string& indent)
{
    for (std::string_view rest = list; !rest.empty();) {
        const std::size_t bar = rest.find('|');
        out += indent + std::string(rest.substr(0, bar)) + "\n";
        rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    }
}

std::vector<std::int64_t> hiddenShape(Rng& rng)
{
    static constexpr std::array<std::int64_t, 4> kTokens = {1, 11, 18, 41};
    static constexpr std::array<std::int64_t, 4> kWidths = {512, 1536, 3072, 4096};
    const std::int64_t tokens = pick(rng, kTokens);
    switch (rng.below(3)) {
    case 0: return {tokens, pick(rng, kWidths)};
    case 1: return {1, tokens, pick(rng, kWidths)};
    default: return {1, 1, tokens, tokens};
    }
}

// One edits.ops.include item. Three in four are the MoE experts' F.linear
// calls (917 of 1,209 in the real file), one in forty a getitem or cat over
// a list of 32 expert slices, the rest the other traced calls.
void writeIncludeItem(std::string& out, Rng& rng, std::map<std::string, int>& tagCount)
{
    const std::size_t roll = rng.below(40);
    if (roll < 30) {
        const std::int64_t rows = static_cast<std::int64_t>(rng.below(4));
        out += "                - name: torch.nn.functional.linear\n"
               "                  sample_inputs_func:\n"
               "                    args:\n";
        writeTensorArg(out, {{rows, 512},
                             "torch.float16",
                             "xavier",
                             static_cast<std::int64_t>(rng.below(64)) * 512});
        writeTensorArg(out, {{1536, 512},
                             "torch.float16",
                             "xavier",
                             static_cast<std::int64_t>(rng.below(64)) * 786432});
        writeDescription(out, "models/granitemoehybrid/modeling_granitemoehybrid.py#L1006",
                         "forward", "output_list.append(F.linear(input_list[i], self.weight[i]))");
        writeTags(out, "torch.nn.functional.linear", ++tagCount["torch.nn.functional.linear"],
                  false);
        return;
    }
    if (roll == 30) {
        const bool cat = rng.below(2) == 0;
        const char* op = cat ? "torch.cat" : "torch.getitem";
        out += std::string("                - name: ") + op
               + "\n"
                 "                  sample_inputs_func:\n"
                 "                    args:\n"
               + kArg + "tensor_list:\n";
        std::int64_t offset = 0;
        for (int e = 0; e < 32; ++e) {
            const std::int64_t rows = 1 + static_cast<std::int64_t>(rng.below(3));
            out += kTensorField + "- ";
            writeTensorFields(out, {{rows, 512}, "torch.float16", "rand", offset}, kListField,
                              true);
            offset += rows * 512;
        }
        out += kArg + "value: 0\n";
        writeDescription(out, "models/granitemoehybrid/modeling_granitemoehybrid.py#L1003",
                         "forward", "input_list = inputs.split(expert_size, dim=0)");
        writeTags(out, op, ++tagCount[op], !cat);
        if (cat)
            out += "                  kwargs:\n                    dim: 0\n";
        return;
    }
    const CallKind& call = pick(rng, kCalls);
    out += std::string("                - name: ") + call.op
           + "\n"
             "                  sample_inputs_func:\n"
             "                    args:\n";
    const std::vector<std::int64_t> shape = hiddenShape(rng);
    for (int t = 0; t < call.tensors; ++t)
        writeTensorArg(out, {shape, call.dtype, call.init, 0});
    if (*call.values)
        writeSplit(out, call.values, kArg);
    if (call.tensors == 0 && !*call.values)
        out += kArg + "value: 0\n";
    writeDescription(out, call.where, call.function, call.code);
    writeTags(out, call.op, ++tagCount[call.op], call.constant);
    if (*call.kwargs) {
        out += "                  kwargs:\n";
        writeSplit(out, call.kwargs, "                    ");
    }
}

struct ModelOpsConfig {
    std::string text;
    std::size_t items = 0;
};

ModelOpsConfig modelOpsConfig()
{
    ModelOpsConfig out;
    std::string& text = out.text;
    text.reserve(kModelOpsBytes + (64 << 10));
    text += "test_suite_config:\n  global:\n    supported_dtypes:\n";
    for (const char* dtype :
         {"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "complex32", "complex64", "complex128", "bool", "half"})
        text += std::string("      - name: ") + dtype
                + "\n        precision:\n          atol: 0.005\n          rtol: 0.005\n";
    text += "    input_config:\n      seed: 123\n"
            "  files:\n"
            "    - path: ${TORCH_DEVICE_ROOT}/tests/models/test_model_ops_v2.py\n"
            "      unlisted_test_mode: skip\n"
            "      tests:\n"
            "        - names:\n"
            "            - TestSpyreModelOps::test_model_ops_db\n"
            "          mode: xfail\n"
            "          tags:\n"
            "            - model__granite-4.0-h-tiny_spyre\n"
            "          edits:\n"
            "            ops:\n"
            "              include:\n";
    const std::string tail = "cases: []\n";
    Rng rng{14};
    std::map<std::string, int> tagCount;
    while (text.size() + tail.size() < kModelOpsBytes) {
        writeIncludeItem(text, rng, tagCount);
        ++out.items;
    }
    text += tail;
    return out;
}

// ---------------------------------------------------------------------------
// 2. A 400-name config of an upstream test file: 370 exact names (30 of
// them repeated under another class with their own dtypes), 30 regex names
// as torch-spyre's configs write them, global dtypes and ops.

constexpr std::array<const char*, 20> kStems = {
    "test_compare_cpu",
    "test_dtypes",
    "test_out",
    "test_variant_consistency_eager",
    "test_noncontiguous_samples",
    "test_python_ref",
    "test_numpy_ref",
    "test_errors",
    "test_non_standard_bool_values",
    "test_multiple_devices",
    "test_conj_view",
    "test_neg_view",
    "test_contig_vs_every_other",
    "test_reference_numerics_normal",
    "test_reference_numerics_small",
    "test_batch_vs_slicing",
    "test_scalar_support",
    "test_type_promotion",
    "test_broadcasting",
    "test_pointwise_tag",
};
constexpr std::array<const char*, 17> kWords = {
    "inplace", "complex", "scalar", "strided",       "broadcast", "empty",
    "large",   "small",   "grad",   "sparse",        "meta",      "fused",
    "nested",  "batched", "masked", "channels_last", "nonzero",
};
// Never listed: their variants are decided by unlisted_test_mode.
constexpr std::array<const char*, 10> kUnlistedWords = {
    "alias",    "unbacked", "symbolic",   "dynamic", "deterministic",
    "autograd", "vmap",     "forward_ad", "jit",     "serialization",
};

// 340 distinct methods: every stem alone, then with each word.
std::string exactMethod(std::size_t i)
{
    const std::string stem = kStems[i % kStems.size()];
    return i < kStems.size() ? stem : stem + "_" + kWords[i / kStems.size() - 1];
}
constexpr std::size_t kExactMethods = 340;

// The regex names (class part as real configs write it) and, for each, a
// base method it fullmatches (the variants add a "_<n>" tail, which every
// one of them allows).
struct RegexName {
    const char* name;
    const char* base;
};
constexpr std::array<RegexName, 30> kRegexNames = {{
    {"TestOps::test_(addmm|mm|bmm).*", "test_addmm_decomposed"},
    {"Lx.*::test_activation_cls.*", "test_activation_cls_gelu_fp16"},
    {"TestOps::test_activation_fn.*", "test_activation_fn_silu"},
    {"TestOps::test_(all_dim|any_dim|count_nonzero|cummax|cummin|cumprod|logcumsumexp|"
     "max_default|median|mode_|nanmean|nanmedian|nanquantile|nansum|quantile|std_|topk|"
     "conv2d|var_).*",
     "test_std_dim"},
    {"TestFP8Operations::test_(quantize_dequantize_fp8_small_range|"
     "quantize_dequantize_fp8_medium_range|quantize_dequantize_fp8_boundary_cases|"
     "quantize_dequantize_fp8_production_shapes|qfp8ch_basic_conversion|"
     "fp8todl16_basic_conversion).*",
     "test_qfp8ch_basic_conversion"},
    {"TestOps::test_add_alpha.*", "test_add_alpha"},
    {"TestOps::test_add_broadcast.*", "test_add_broadcast"},
    {"TestOps::test_add_constant.*", "test_add_constant"},
    {"TestOps::test_add_scalar.*", "test_add_scalar"},
    {"TestOps::test_flatten.*", "test_flatten"},
    {"TestOps::test_max_sub_broadcast.*", "test_max_sub_broadcast"},
    {"TestOps::test_multiops_split.*", "test_multiops_split"},
    {"TestOps::test_permute.*", "test_permute"},
    {"TestOps::test_repeat.*", "test_repeat"},
    {"TestOps::test_round_trip_to_dtype.*", "test_round_trip_to_dtype"},
    {"TestOps::test_scalar_cpu.*", "test_scalar_cpu"},
    {"TestOps::test_size_one.*", "test_size_one"},
    {"TestOps::test_squeeze.*", "test_squeeze"},
    {"TestOps::test_sub_alpha.*", "test_sub_alpha"},
    {"TestOps::test_sub_broadcast.*", "test_sub_broadcast"},
    {"TestOps::test_sub_scalar.*", "test_sub_scalar"},
    {"TestOps::test_t_[12]d.*", "test_t_2d"},
    {"TestOps::test_to_dtype.*", "test_to_dtype"},
    {"TestOps::test_transpose_[234]d.*", "test_transpose_3d"},
    {"TestOps::test_transpose_patterns.*", "test_transpose_patterns"},
    {"TestOps::test_unbind.*", "test_unbind"},
    {"TestOps::test_unfold.*", "test_unfold"},
    {"TestOps::test_unsqueeze.*", "test_unsqueeze"},
    {"TestViewOps::test_view_(as|of)_(real|complex)?.*", "test_view_as_real"},
    {"TestOps::test_index_(put|add|copy)_?\\w*", "test_index_put"},
}};

// The ops of the global supported_ops (test_torch.yaml's list), each with
// its dtypes; mul is force_xfail.
constexpr std::array<const char*, 33> kSupportedOps = {
    "_scaled_dot_product_fused_attention_overrideable",
    "_scaled_mm",
    "add",
    "addmm",
    "bitwise_and",
    "bitwise_not",
    "bmm",
    "cat",
    "ceil",
    "clamp",
    "clamp_max",
    "clamp_min",
    "clone",
    "constant_pad_nd",
    "convolution",
    "copy_",
    "full",
    "gelu",
    "layer_norm",
    "linear",
    "logical_not",
    "max",
    "maximum",
    "min",
    "minimum",
    "mm",
    "mul",
    "new_ones",
    "ones",
    "rms_norm",
    "sign",
    "softplus",
    "sub",
};
// Ops the variants also carry that the config does not list.
constexpr std::array<const char*, 6> kOtherOps = {
    "amax", "nn.functional.relu", "exp", "abs", "neg", "sum",
};
constexpr std::array<const char*, 7> kVariantDtypes = {
    "float16", "float32", "bfloat16", "int64", "bool", "float64", "complex64",
};
constexpr std::array<const char*, 4> kClasses = {
    "TestCommon",
    "TestMathBits",
    "TestOps",
    "TestViewOps",
};

struct EntryShape {
    std::size_t names;
    const char* mode;
    const char* edits; // YAML lines under the entry, "" for none
};
// 340 names; the repeats (30) and the regex entries come after them.
constexpr std::array<EntryShape, 9> kEntries = {{
    {60, "mandatory_success", ""},
    {40, "mandatory_success",
     "          edits:\n            dtypes:\n              exclude:\n                - name: "
     "float32\n"},
    {50, "xfail", ""},
    {30, "xfail",
     "          edits:\n            ops:\n              exclude:\n                - name: max\n"
     "                - name: min\n                - name: _scaled_mm\n"
     "                - name: nn.functional.gelu\n"},
    {30, "skip", ""},
    {30, "mandatory_success", "          labels:\n            - nightly\n"},
    {40, "xfail", "          tags:\n            - flaky\n"},
    {30, "mandatory_success",
     "          edits:\n            dtypes:\n              include:\n                - name: "
     "float16\n"
     "                - name: bfloat16\n"},
    {30, "xfail", ""},
}};

std::string resolveConfig()
{
    std::string text = "test_suite_config:\n  files:\n"
                       "    - path: ${TORCH_ROOT}/test/test_ops.py\n"
                       "      unlisted_test_mode: skip\n      tests:\n";
    std::size_t method = 0;
    for (std::size_t e = 0; e < kEntries.size(); ++e) {
        text += "        # group " + std::to_string(e) + ": why these tests share a mode\n";
        text += "        - names:\n";
        for (std::size_t n = 0; n < kEntries[e].names; ++n, ++method)
            text += std::string("            - ") + kClasses[method % 2]
                    + "::" + exactMethod(method)
                    + (n % 3 ? "\n" : "  # RuntimeError https://example.org/issues/1\n");
        text += std::string("          mode: ") + kEntries[e].mode + "\n" + kEntries[e].edits;
    }
    // 30 methods of the first entries listed again under another class, for
    // other dtypes: two candidates, the dtype-aware choice decides.
    text += "        - names:\n";
    for (std::size_t n = 0; n < 30; ++n)
        text += "            - TestOps::" + exactMethod(n * 3) + "\n";
    text += "          mode: xfail\n          edits:\n            dtypes:\n              include:\n"
            "                - name: float32\n                - name: int64\n";
    // The regex names in four entries: 12 mandatory, 10 xfail, 4 skip, 4 xfail
    // with a dtype excluded.
    const std::array<std::pair<std::size_t, const char*>, 4> regexEntries = {{
        {12, "mandatory_success\n"},
        {10, "xfail\n"},
        {4, "skip\n"},
        {4, "xfail\n          edits:\n            dtypes:\n              exclude:\n"
            "                - name: bool\n"},
    }};
    std::size_t r = 0;
    for (const auto& [count, mode] : regexEntries) {
        text += "        - names:\n";
        for (std::size_t n = 0; n < count; ++n, ++r)
            text += std::string("            - ") + kRegexNames[r].name + "\n";
        text += std::string("          mode: ") + mode;
    }
    text += "  global:\n    supported_dtypes:\n";
    for (const char* dtype : {"bfloat16", "bool", "float16", "float32", "int64"})
        text += std::string("      - name: ") + dtype + "\n";
    text += "    supported_ops:\n";
    for (const char* op : kSupportedOps) {
        text += std::string("      - name: ") + op + "\n";
        if (std::string_view(op) == "mul")
            text += "        force_xfail: true\n";
        text += "        dtypes:\n          - name: bfloat16\n          - name: bool\n"
                "          - name: float16\n          - name: int64\n";
    }
    return text;
}

enum class Kind : unsigned char { Exact, Regex, Unlisted };

struct Variant {
    config::VariantQuery query;
    std::string base; // what the floor looks up
    Kind kind = Kind::Exact;
    std::string marks; // "op__add,dtype__float16", as the cache stores them
};

std::string formattedOp(std::string_view op)
{
    std::string out(op);
    for (char& c : out)
        if (c == '.')
            c = '_';
    return out;
}

// 55% variants of listed methods, 20% of methods only a regex governs, 25%
// of unlisted ones; four in five of the listed and unlisted ones are @ops
// variants, ops listed or not, dtypes supported or not.
std::vector<Variant> generateVariants(int count, std::uint64_t seed)
{
    Rng rng{seed};
    std::vector<Variant> out;
    out.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        Variant v;
        v.query.file = "test/test_ops.py";
        v.query.observed = true;
        const std::size_t roll = rng.below(20);
        const std::string dtype = pick(rng, kVariantDtypes);
        if (roll < 4) {
            const RegexName& regex = kRegexNames[rng.below(kRegexNames.size())];
            v.kind = Kind::Regex;
            v.base = std::string(regex.base) + "_" + std::to_string(rng.below(40));
            v.query.className = "TestOpsPRIVATEUSE1";
            v.query.method = v.base + (rng.below(2) ? "_spyre" : "_spyre_" + dtype);
        } else {
            const bool listed = roll < 15;
            v.kind = listed ? Kind::Exact : Kind::Unlisted;
            v.base = listed ? exactMethod(rng.below(kExactMethods))
                            : std::string(pick(rng, kStems)) + "_" + pick(rng, kUnlistedWords);
            v.query.className = std::string(kClasses[rng.below(2)]) + "PRIVATEUSE1";
            std::string op;
            if (rng.below(5) != 0)
                op = rng.below(6) ? kSupportedOps[rng.below(kSupportedOps.size())]
                                  : pick(rng, kOtherOps);
            v.query.method = v.base + (op.empty() ? "" : "_" + formattedOp(op)) + "_spyre_" + dtype;
            if (!op.empty()) {
                v.query.ops.push_back(op);
                v.marks = "op__" + formattedOp(op) + ",";
            }
        }
        v.marks += "dtype__" + dtype;
        out.push_back(std::move(v));
    }
    return out;
}

// The floor under resolving: the exact names in a hash map, the regex names
// in one RE2::Set, each base method looked up in both.
struct Floor {
    std::unordered_map<std::string, int> exact;
    RE2::Set set{RE2::Options(), RE2::ANCHOR_BOTH};
    bool ok = true;

    explicit Floor(const config::OutcomeConfig& cfg)
    {
        for (const config::TestEntry& entry : cfg.files.at(0).tests)
            for (const config::NameItem& item : entry.names) {
                if (!item.regex) {
                    exact.emplace(item.method, static_cast<int>(exact.size()));
                    continue;
                }
                const config::RegexCheck check = config::checkNameRegex(item.method);
                ok = ok && check.status == config::RegexStatus::Ok
                     && set.Add(check.re2Pattern, nullptr) >= 0;
            }
        ok = ok && set.Compile();
    }
};

double mapFindMs(const Floor& floor, const std::vector<Variant>& variants, std::size_t& found)
{
    return medianMs(kResolveRounds, [&] {
        found = 0;
        for (const Variant& v : variants)
            found += floor.exact.count(v.base);
    });
}

double setMatchMs(const Floor& floor, const std::vector<Variant>& variants, std::size_t& found)
{
    std::vector<int> hits;
    return medianMs(kResolveRounds, [&] {
        found = 0;
        for (const Variant& v : variants)
            if (floor.set.Match(v.base, &hits))
                ++found;
    });
}

// libyaml's bare event parse of the text: the floor of any reader built on it.
bool libyamlEvents(const std::string& text, std::size_t& events)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
    bool ok = true;
    events = 0;
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            ok = false;
            break;
        }
        ++events;
        const bool end = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (end)
            break;
    }
    yaml_parser_delete(&parser);
    return ok;
}

void benchLargeLoad(Report& report)
{
    const ModelOpsConfig generated = modelOpsConfig();
    const std::string& text = generated.text;
    if (std::getenv("RELAYHUD_BENCH_KEEP")) { // for profiling the parse on its own
        const auto path = std::filesystem::temp_directory_path() / "relayhud-bench-model-ops.yaml";
        std::ofstream(path) << text;
        std::printf("  kept %s\n", path.string().c_str());
    }
    const double sizeRatio = static_cast<double>(text.size()) / static_cast<double>(kModelOpsBytes);
    const double yamlLoad = medianMs(kLoadRounds, [&] { (void)YAML::Load(text).size(); });
    std::size_t events = 0;
    const double libyaml = medianMs(kLoadRounds, [&] { libyamlEvents(text, events); });
    bool ok = sizeRatio > 0.9 && sizeRatio < 1.1;
    std::size_t findings = 0;
    std::size_t includeItems = 0;
    const double load = medianMs(kLoadRounds, [&] {
        Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
        ok = ok && parsed && !parsed->hasErrors() && parsed->config.files.size() == 1
             && parsed->config.files[0].tests.size() == 1;
        if (parsed) {
            findings = parsed->findings.size();
            includeItems = ok ? parsed->config.files[0].tests[0].ops.include.size() : 0;
        }
    });
    ok = ok && includeItems == generated.items;
    Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
    double build = 1e9;
    if (parsed) {
        build = medianMs(kLoadRounds, [&] { config::Resolver resolver(parsed->config); });
        // The op-index lookup on the built resolver: the 6th include item
        // decides test_model_ops_db_<its op>__5 (spec 5.3).
        const config::Resolver resolver(parsed->config);
        config::VariantQuery query{"tests/models/test_model_ops_v2.py",
                                   "TestSpyreModelOpsPRIVATEUSE1",
                                   "test_model_ops_db_torch_nn_functional_linear__5_spyre_float16",
                                   {},
                                   true};
        auto resolved = resolver.resolve(query);
        const bool opIndex = resolved && resolved->decision == config::Decision::OpIndex
                             && resolved->outcome == config::Outcome::Xfail;
        std::printf("  model_ops config: %zu bytes (%.1f%% of the real one), %zu include items, "
                    "%zu findings; op-index lookup %s\n",
                    text.size(), sizeRatio * 100.0, includeItems, findings,
                    opIndex ? "ok" : "WRONG");
        ok = ok && opIndex;
    }
    if (!ok)
        std::printf("  model_ops config: the load, its size or its op index is wrong\n");
    std::printf("  Resolver construction on it: %.2f ms (yaml-cpp Load alone %.2f ms, ratio "
                "%.2fx)\n",
                build, yamlLoad, build / yamlLoad);
    std::printf("  libyaml's bare event parse of it: %.2f ms (%zu events); load+validate is "
                "%.2fx that\n",
                libyaml, events, load / libyaml);
    report.add({"config load+validate, 1.5 MB model_ops", ok ? load : 1e9, "ms", 150,
                "yaml-cpp Load alone", yamlLoad});
}

const char* kindName(Kind kind)
{
    switch (kind) {
    case Kind::Exact: return "exact";
    case Kind::Regex: return "regex";
    case Kind::Unlisted: return "unlisted";
    }
    return "?";
}

void benchResolve(Report& report, const config::OutcomeConfig& cfg, const Floor& floor)
{
    const std::vector<Variant> variants = generateVariants(kVariants, 400);
    const config::Resolver resolver(cfg);
    // Once, unmeasured: every variant decided the way its kind says.
    std::array<std::size_t, 6> outcomes{};
    std::size_t wrong = 0;
    for (const Variant& v : variants) {
        auto r = resolver.resolve(v.query);
        if (!r) {
            ++wrong;
            continue;
        }
        ++outcomes[static_cast<std::size_t>(r->outcome)];
        const config::Decision want = v.kind == Kind::Exact   ? config::Decision::Exact
                                      : v.kind == Kind::Regex ? config::Decision::Regex
                                                              : config::Decision::Unlisted;
        if (r->decision != want || r->baseMethod != v.base) {
            if (wrong++ == 0)
                std::printf("  resolve: %s variant %s decided as %d, base '%s'\n", kindName(v.kind),
                            v.query.method.c_str(), static_cast<int>(r->decision),
                            r->baseMethod.c_str());
        }
    }
    std::printf("  100,000 variants: %zu mandatory_success, %zu xfail, %zu skip, %zu dropped, "
                "%zu cannot judge; %zu decided against their kind\n",
                outcomes[0], outcomes[1], outcomes[3], outcomes[4], outcomes[5], wrong);
    std::size_t runs = 0;
    const double resolve = medianMs(kResolveRounds, [&] {
        runs = 0;
        for (const Variant& v : variants)
            if (auto r = resolver.resolve(v.query); r && r->runs())
                ++runs;
    });
    std::size_t exactFound = 0;
    std::size_t regexFound = 0;
    const double mapFind = mapFindMs(floor, variants, exactFound);
    const double setMatch = setMatchMs(floor, variants, regexFound);
    std::printf("  floor: unordered_map find %.2f ms (%zu found), RE2::Set::Match %.2f ms (%zu "
                "matched); resolve/map %.1fx, resolve/set %.1fx\n",
                mapFind, exactFound, setMatch, regexFound, resolve / mapFind, resolve / setMatch);
    const bool ok = wrong == 0 && runs > 0;
    report.add({"resolve 100,000 variants (400 names, 30 re)", ok ? resolve : 1e9, "ms", 100,
                "map find + RE2::Set::Match", mapFind + setMatch, 2.0});
}

void benchCoverage(Report& report, const config::OutcomeConfig& cfg, const Floor& floor)
{
    // A report holds only collected variants: keep the ones the config runs,
    // with outcomes a run of that mode gives (a few failures, xpasses, skips).
    const config::Resolver resolver(cfg);
    std::vector<Variant> variants;
    std::vector<StoredTestResult> results;
    results.reserve(kCoverageCases);
    Rng rng{7};
    std::int64_t id = 0;
    for (Variant& v : generateVariants(4 * static_cast<int>(kCoverageCases), 30)) {
        if (results.size() == kCoverageCases)
            break;
        auto resolved = resolver.resolve(v.query);
        if (!resolved || !resolved->runs())
            continue;
        StoredTestResult r;
        r.testId = ++id;
        r.file = v.query.file;
        r.className = v.query.className;
        r.name = v.query.method;
        r.identity = r.file + "::" + r.className + "::" + r.name;
        r.baseName = v.query.className.substr(0, v.query.className.size() - 11) + "::" + v.base;
        r.marks = v.marks;
        const std::size_t roll = rng.below(100);
        if (resolved->finalMode == config::Mode::MandatorySuccess)
            r.outcome = roll < 97   ? TestOutcome::Passed
                        : roll < 99 ? TestOutcome::Failed
                                    : TestOutcome::Skipped;
        else
            r.outcome = roll < 85 ? TestOutcome::XFailed : TestOutcome::Passed;
        results.push_back(std::move(r));
        variants.push_back(std::move(v));
    }
    std::size_t unknown = 0;
    std::size_t ran = 0;
    std::string firstUnknown;
    const double coverage = medianMs(kResolveRounds, [&] {
        const verdict::ConfigCoverage c = verdict::configCoverage(cfg, results);
        unknown = c.unknown.size();
        if (!c.unknown.empty())
            firstUnknown = c.unknown.front().identity + ": " + c.unknown.front().why;
        ran = 0;
        for (const verdict::BucketCounts& b : c.buckets)
            ran += static_cast<std::size_t>(b.ran);
    });
    std::size_t exactFound = 0;
    std::size_t regexFound = 0;
    const double floorMs =
        mapFindMs(floor, variants, exactFound) + setMatchMs(floor, variants, regexFound);
    std::printf("  coverage of 30,000 cases: %zu judged, %zu the config cannot account for%s%s\n",
                ran, unknown, unknown ? ", first: " : "", firstUnknown.c_str());
    // Every case was kept because the resolver runs it: coverage must account
    // for all of them, or its answer (not just its speed) is wrong.
    const bool ok = results.size() == kCoverageCases && ran > 0 && unknown == 0;
    if (unknown)
        std::printf("  configCoverage: WRONG, %zu cases the resolver runs are unaccounted for "
                    "(expected 0); it took %.2f ms\n",
                    unknown, coverage);
    report.add({"configCoverage, 30,000 cases (30 re)", ok ? coverage : 1e9, "ms", 100,
                "map find + RE2::Set::Match", floorMs});
}

} // namespace

void benchConfigResolve(Report& report)
{
    benchLargeLoad(report);

    const std::string text = resolveConfig();
    if (std::getenv("RELAYHUD_BENCH_KEEP")) {
        const auto path = std::filesystem::temp_directory_path() / "relayhud-bench-resolve.yaml";
        std::ofstream(path) << text;
        std::printf("  kept %s\n", path.string().c_str());
    }
    Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
    if (!parsed || parsed->hasErrors()) {
        std::printf("  resolve config: %s\n",
                    !parsed ? parsed.message().c_str()
                            : config::formatFinding(parsed->findings.front()).c_str());
        report.add({"resolve 100,000 variants (400 names, 30 re)", 1e9, "ms", 100, "", 0});
        return;
    }
    std::size_t names = 0;
    std::size_t regexes = 0;
    for (const config::TestEntry& entry : parsed->config.files[0].tests)
        for (const config::NameItem& item : entry.names) {
            ++names;
            regexes += item.regex ? 1 : 0;
        }
    const Floor floor(parsed->config);
    const double build = medianMs(kLoadRounds, [&] { config::Resolver r(parsed->config); });
    std::printf("  resolve config: %zu names (%zu regex), %zu bytes, %zu findings (warnings: "
                "names listed again); Resolver construction %.2f ms\n",
                names, regexes, text.size(), parsed->findings.size(), build);
    if (!floor.ok || names != 400 || regexes != 30)
        std::printf("  resolve config: the floor's RE2::Set or the name count is wrong\n");
    benchResolve(report, parsed->config, floor);
    benchCoverage(report, parsed->config, floor);
}

} // namespace relayhud::bench
