#include "sim_test_names.h"

namespace relayhud::sim {
namespace {

// OpInfo names from torch/testing/_internal/common_methods_invocations.py.
// clang-format off
const Names kOps = {
    "abs", "acos", "acosh", "add", "addbmm", "addcdiv", "addcmul", "addmm", "addmv", "addr", "all",
    "amax", "amin", "aminmax", "angle", "any", "argmax", "argmin", "argsort", "as_strided", "asin",
    "asinh", "atan", "atan2", "atanh", "baddbmm", "bitwise_and", "bitwise_not", "bitwise_or",
    "bitwise_xor", "bmm", "broadcast_to", "bucketize", "cat", "ceil", "chunk", "clamp", "clone",
    "column_stack", "contiguous", "copysign", "cos", "cosh", "count_nonzero", "cross", "cummax",
    "cumprod", "cumsum", "deg2rad", "diag", "diag_embed", "diagonal", "diff", "div", "dot",
    "einsum", "eq", "erf", "erfc", "erfinv", "exp", "exp2", "expand", "expm1", "eye", "fill",
    "flatten", "flip", "floor", "floor_divide", "fmax", "fmin", "fmod", "frac", "full_like",
    "gather", "ge", "gt", "hypot", "index_add", "index_copy", "index_fill", "index_put",
    "index_select", "isclose", "isinf", "isnan", "kron", "le", "lerp", "log", "log10", "log1p",
    "log2", "logaddexp", "logical_and", "logical_not", "logsumexp", "lt", "masked_fill",
    "masked_scatter", "masked_select", "matmul", "max", "maximum", "mean", "median", "min",
    "minimum", "mm", "mul", "mv", "nan_to_num", "narrow", "ne", "neg", "nn.functional.dropout",
    "nn.functional.embedding", "nn.functional.gelu", "nn.functional.layer_norm",
    "nn.functional.linear", "nn.functional.pad", "nn.functional.relu", "nn.functional.silu",
    "nn.functional.softplus", "nonzero", "norm", "ones_like", "outer", "permute", "pow", "prod",
    "rad2deg", "reciprocal", "remainder", "repeat", "reshape", "roll", "round", "rsqrt", "rsub",
    "scatter", "scatter_add", "select", "sigmoid", "sign", "sin", "sinh", "softmax", "sort",
    "split", "sqrt", "square", "squeeze", "stack", "std", "sub", "sum", "t", "take", "tan", "tanh",
    "topk", "transpose", "tril", "triu", "trunc", "unbind", "unsqueeze", "var", "view", "where",
    "xlogy", "zeros_like"};
// clang-format on

// clang-format off
const Names kBinaryOps = {
    "add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "pow", "atan2",
    "hypot", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_left_shift", "bitwise_right_shift", "copysign", "nextafter", "xlogy", "logaddexp",
    "logaddexp2", "heaviside", "ldexp", "gcd", "lcm", "float_power"};
// clang-format on

// clang-format off
const Names kUnaryOps = {
    "abs", "acos", "acosh", "angle", "asin", "asinh", "atan", "atanh", "bitwise_not", "ceil",
    "cos", "cosh", "deg2rad", "digamma", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "floor",
    "frac", "isfinite", "isinf", "isnan", "lgamma", "log", "log10", "log1p", "log2", "logical_not",
    "logit", "nan_to_num", "neg", "positive", "rad2deg", "reciprocal", "round", "rsqrt", "sigmoid",
    "sign", "sgn", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc",
    "nn.functional.relu", "nn.functional.tanhshrink", "special.i0e", "special.ndtr"};
// clang-format on

// clang-format off
const Names kReductionOps = {
    "sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "std", "var", "logsumexp", "nansum",
    "nanmean", "count_nonzero", "all", "any", "norm", "aminmax", "median"};
// clang-format on

// clang-format off
const Names kDtypes = {
    "float16", "bfloat16", "float32", "float64", "complex64", "int8", "uint8", "int32", "int64",
    "bool"};
// clang-format on
const Names kFloatDtypes = {"float16", "bfloat16", "float32", "float64"};
const Names kLowPrecision = {"float16", "bfloat16", "float32"};
const Names kCompositeDtypes = {"float32", "float64"};
const Names kComplexDtypes = {"complex64", "complex128"};
const Names kFloat32 = {"float32"};

const Names kShapes = {"67x71x256", "128x256", "1x1", "3x5x7", "1024x1024", "256x1x64"};
const Names kMmOps = {"mm", "bmm", "addmm", "matmul"};
const Names kMmShapes = {"67x67_67x67", "128x256_256x64", "1x64_64x1", "1024x1024_1024x1024"};

const std::vector<TestFamily> kCore = {
    {"test_ops.py",
     "TestCommon",
     NameShape::OpDtype,
     {"test_compare_cpu", "test_complex_half_reference_testing", "test_cow_input",
      "test_multiple_devices", "test_non_standard_bool_values", "test_noncontiguous_samples",
      "test_numpy_ref", "test_out", "test_out_warning", "test_promotes_int_to_float",
      "test_python_ref", "test_python_ref_meta", "test_python_ref_torch_fallback",
      "test_variant_consistency_eager", "test_view_replay"},
     &kOps,
     &kDtypes,
     {},
     212},
    {"test_ops.py",
     "TestCommon",
     NameShape::Op,
     {"test_dtypes", "test_errors"},
     &kOps,
     nullptr,
     {},
     141},
    {"test_ops.py",
     "TestCompositeCompliance",
     NameShape::OpDtype,
     {"test_backward", "test_forward_ad", "test_operator"},
     &kOps,
     &kCompositeDtypes,
     {},
     1789},
    {"test_ops.py",
     "TestMathBits",
     NameShape::OpDtype,
     {"test_conj_view", "test_neg_conj_view", "test_neg_view"},
     &kOps,
     &kComplexDtypes,
     {},
     2020},
    {"test_binary_ufuncs.py",
     "TestBinaryUfuncs",
     NameShape::OpDtype,
     {"test_batch_vs_slicing", "test_broadcasting", "test_contig_vs_every_other",
      "test_contig_vs_transposed", "test_non_contig", "test_reference_numerics",
      "test_reference_numerics_extremal_values", "test_reference_numerics_large_values",
      "test_reference_numerics_small_values", "test_scalar_support", "test_type_promotion"},
     &kBinaryOps,
     &kDtypes,
     {},
     118},
    {"test_binary_ufuncs.py",
     "TestBinaryUfuncs",
     NameShape::Dtype,
     {"test_add_with_tail", "test_div_rounding_modes", "test_not_broadcastable",
      "test_pow_scalar_overloads_mem_overlap"},
     nullptr,
     &kDtypes,
     {},
     610},
    {"test_binary_ufuncs.py",
     "TestBinaryUfuncs",
     NameShape::Device,
     {"test_binary_op_mem_overlap", "test_cumulative_trapezoid"},
     nullptr,
     nullptr,
     {},
     1220},
    {"test_unary_ufuncs.py",
     "TestUnaryUfuncs",
     NameShape::OpDtype,
     {"test_batch_vs_slicing", "test_contig_size1", "test_contig_size1_large_dim",
      "test_contig_vs_every_other", "test_non_contig", "test_non_contig_expand",
      "test_non_contig_index", "test_reference_numerics_extremal", "test_reference_numerics_large",
      "test_reference_numerics_normal", "test_reference_numerics_small"},
     &kUnaryOps,
     &kDtypes,
     {},
     260},
    {"test_view_ops.py",
     "TestViewOps",
     NameShape::Dtype,
     {"test_chunk_view",       "test_conj_self",      "test_contiguous_nonview",
      "test_diagonal_view",    "test_expand_view",    "test_flatten_view",
      "test_narrow_view",      "test_permute_view",   "test_reshape_nonview",
      "test_select_view",      "test_split_view",     "test_squeeze_view",
      "test_t_view",           "test_transpose_view", "test_unbind_view",
      "test_unfold_view",      "test_unsqueeze_view", "test_view_as_complex",
      "test_view_as_real",     "test_view_copy",      "test_view_dtype_new",
      "test_view_tensor_split"},
     nullptr,
     &kDtypes,
     {},
     131},
    {"test_view_ops.py",
     "TestOldViewOps",
     NameShape::Dtype,
     {"test_atleast",
      "test_big_transpose",
      "test_broadcast_to",
      "test_contiguous",
      "test_empty_reshape",
      "test_expand",
      "test_flatten",
      "test_memory_format_resize_",
      "test_python_types",
      "test_ravel",
      "test_reshape_view_semantics",
      "test_tensor_split_errors",
      "test_tensor_split_indices",
      "test_tensor_split_sections",
      "test_transpose_invalid",
      "test_transpose_vs_numpy",
      "test_transposes",
      "test_transposes_errors",
      "test_view",
      "test_view_empty"},
     nullptr,
     &kDtypes,
     {},
     1105},
    {"test_torch.py",
     "TestTorchDeviceType",
     NameShape::Dtype,
     {"test_bernoulli_p",
      "test_broadcast",
      "test_cdist_empty",
      "test_clone_zero_stride",
      "test_copy_",
      "test_copy_all_dtypes_and_devices",
      "test_cumsum",
      "test_deepcopy",
      "test_dim_reduction",
      "test_dist",
      "test_index_add",
      "test_is_set_to",
      "test_item",
      "test_logcumsumexp",
      "test_masked_fill",
      "test_masked_scatter",
      "test_memory_format_clone",
      "test_multinomial",
      "test_nondeterministic_alert_index_add",
      "test_nonzero_empty",
      "test_scatter_reduce_sum",
      "test_storage",
      "test_strides_propagation",
      "test_tensor_shape_empty",
      "test_where_scalar_valid_combination"},
     nullptr,
     &kDtypes,
     {},
     185},
    {"test_torch.py",
     "TestTorch",
     NameShape::Plain,
     {"test_add_meta_scalar",
      "test_allow_tensor_metadata_change",
      "test_apply",
      "test_as_subclass",
      "test_assert_async",
      "test_backward_hooks_traverse",
      "test_bmm_multithreaded",
      "test_box",
      "test_check",
      "test_contains",
      "test_copy_broadcast",
      "test_copy_dtypes",
      "test_copy_float16",
      "test_copy_many_to_one",
      "test_copy_transpose",
      "test_deepcopy_gradient",
      "test_deepcopy_parameter",
      "test_deterministic_flag",
      "test_device",
      "test_dim_order",
      "test_dir",
      "test_doc",
      "test_dtype_is_signed",
      "test_element_size",
      "test_empty_meta",
      "test_equal",
      "test_fill_diagonal",
      "test_from_buffer",
      "test_has_storage",
      "test_index_add",
      "test_is_nonzero",
      "test_is_same_size",
      "test_iter",
      "test_linspace_logspace",
      "test_manual_seed",
      "test_structseq_repr",
      "test_subclass_tensors",
      "test_sum_neg_dim",
      "test_t_not_2d_error",
      "test_tensor_base_init"},
     nullptr,
     nullptr,
     {},
     7820},
    {"test_torch.py",
     "TestDevicePrecision",
     NameShape::Device,
     {"test_clamp", "test_copy_broadcast", "test_copy_noncontig", "test_from_sequence",
      "test_index_add_bfloat16", "test_type_conversions_same_device"},
     nullptr,
     nullptr,
     {},
     10950},
    {"test_nn.py",
     "TestNNDeviceType",
     NameShape::Dtype,
     {"test_LayerNorm_general", "test_GroupNorm_general", "test_BatchNorm_empty",
      "test_Conv2d_naive_groups", "test_embedding_dense_grad", "test_softmax_64bit_indexing",
      "test_LSTM_grad_and_gradgrad", "test_multihead_attention_dtype", "test_upsamplingNearest2d",
      "test_CTCLoss_empty_target", "test_nll_loss_empty_tensor_reduction_mean",
      "test_cross_entropy_loss", "test_adaptiveavg_pool2d_output_size_one",
      "test_MaxPool2d_indices", "test_embedding_bag_device", "test_GRU_grad_and_gradgrad",
      "test_transformerencoderlayer", "test_linear_empty"},
     nullptr,
     &kFloatDtypes,
     {"LayerNorm", "GroupNorm", "BatchNorm2d", "Conv2d", "Embedding", "Softmax", "LSTM",
      "MultiheadAttention", "Upsample", "CTCLoss", "NLLLoss", "CrossEntropyLoss",
      "AdaptiveAvgPool2d", "MaxPool2d", "EmbeddingBag", "GRU", "TransformerEncoderLayer", "Linear"},
     4410},
    {"test_indexing.py",
     "TestIndexing",
     NameShape::Dtype,
     {"test_advancedindex",
      "test_bool_indices",
      "test_byte_mask",
      "test_empty_index",
      "test_index",
      "test_index_getitem_copy_bools_slices",
      "test_index_put_accumulate_duplicate_indices",
      "test_index_put_accumulate_large_tensor",
      "test_index_put_src_datatype",
      "test_index_scalar_with_bool_mask",
      "test_int_indices",
      "test_jit_indexing",
      "test_multiple_byte_mask",
      "test_set_item_to_scalar_tensor",
      "test_setitem_expansion_error",
      "test_single_int",
      "test_step",
      "test_take_along_dim",
      "test_variable_slicing",
      "test_zero_dim_index"},
     nullptr,
     &kDtypes,
     {},
     74},
    {"test_reductions.py",
     "TestReductions",
     NameShape::OpDtype,
     {"test_dim_default", "test_dim_default_keepdim", "test_dim_empty", "test_dim_multi",
      "test_dim_none", "test_dim_single", "test_noncontiguous_all", "test_ref_duplicate_values",
      "test_ref_large_input_1D", "test_ref_small_input"},
     &kReductionOps,
     &kDtypes,
     {},
     301},
    {"test_shape_ops.py",
     "TestShapeOps",
     NameShape::Dtype,
     {"test_clamp", "test_clamp_propagates_nans", "test_diagonal", "test_flip", "test_flip_errors",
      "test_flip_numpy", "test_movedim", "test_nonzero", "test_nonzero_astuple_out",
      "test_nonzero_no_warning", "test_roll", "test_rot90", "test_unfold_all_devices_and_dtypes",
      "test_unfold_scalars"},
     nullptr,
     &kDtypes,
     {},
     58},
};

// clang-format off
const Names kDynamoFunctions = {
    "test_add", "test_addcdiv", "test_abs", "test_builtin_isinstance", "test_chunks1",
    "test_closure", "test_dict_items", "test_enumerate", "test_inline_jit",
    "test_is_contiguous_frame_counts", "test_len_constant_list", "test_list_comprehension",
    "test_math_sqrt", "test_numpy_meshgrid", "test_obj_eq", "test_partials_as_input_partials",
    "test_range_iter", "test_set_contains", "test_tensor_dim", "test_tuple_map", "test_unpack_ex1",
    "test_zip"};
// clang-format on
// clang-format off
const Names kDynamoMisc = {
    "test_boolarg", "test_builtin_superclass", "test_config_obj", "test_dataclass_fields",
    "test_dtypes_no_graphbreaks", "test_graph_break_unsupported",
    "test_inplace_view_on_graph_input", "test_module_deepcopy", "test_no_raise_guard_partial",
    "test_numpy_int_constant", "test_recompile_on_global_state_change",
    "test_tensor_build_list_unpack", "test_torch_size", "test_user_defined_iter"};
// clang-format on

const std::vector<TestFamily> kCompile = {
    {"inductor/test_torchinductor_opinfo.py",
     "TestInductorOpInfo",
     NameShape::OpDtype,
     {"test_comprehensive"},
     &kOps,
     &kLowPrecision,
     {},
     1120},
    {"tests/inductor/test_inductor_ops.py",
     "TestOps",
     NameShape::Plain,
     {"test_pointwise_unary_op"},
     &kUnaryOps,
     &kShapes,
     {},
     212},
    {"tests/inductor/test_inductor_ops.py",
     "TestOps",
     NameShape::Plain,
     {"test_pointwise_binary_op"},
     &kBinaryOps,
     &kShapes,
     {},
     268},
    {"tests/inductor/test_inductor_ops.py",
     "TestOps",
     NameShape::Plain,
     {"test_reduce"},
     &kReductionOps,
     &kShapes,
     {},
     340},
    {"tests/inductor/test_inductor_ops.py",
     "TestOps",
     NameShape::Plain,
     {"test_mm"},
     &kMmOps,
     &kMmShapes,
     {},
     401},
    {"dynamo/test_functions.py",
     "FunctionTests",
     NameShape::Plain,
     kDynamoFunctions,
     nullptr,
     nullptr,
     {},
     180},
    {"dynamo/test_misc.py", "MiscTests", NameShape::Plain, kDynamoMisc, nullptr, nullptr, {}, 420},
};

// clang-format off
const Names kCollectives = {
    "all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all", "barrier",
    "send_recv", "gather", "scatter", "reduce"};
// clang-format on
const Names kWorldSizes = {"world_size_2", "world_size_4", "world_size_8"};

const std::vector<TestFamily> kDistributed = {
    {"distributed/test_c10d_common.py",
     "CommTest",
     NameShape::Plain,
     {"test_coalesced", "test_debug_mode", "test_object_list", "test_timeout"},
     &kCollectives,
     &kWorldSizes,
     {},
     1633},
    {"distributed/tensor/test_dtensor_ops.py",
     "TestDTensorOps",
     NameShape::OpDtype,
     {"test_dtensor_op_db"},
     &kOps,
     &kFloat32,
     {},
     480},
    {"distributed/test_functional_api.py",
     "TestCollectivesWithDistributedBackend",
     NameShape::Plain,
     {"test_eager", "test_compiled"},
     &kCollectives,
     nullptr,
     {},
     540},
};

// clang-format off
const Names kModels = {
    "facebook/opt-125m", "meta-llama/Llama-3.2-1B-Instruct", "Qwen/Qwen2.5-0.5B-Instruct",
    "Qwen/Qwen3-0.6B", "google/gemma-2-2b-it", "microsoft/Phi-3.5-mini-instruct",
    "mistralai/Mistral-7B-Instruct-v0.3", "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
    "bigcode/starcoder2-3b", "EleutherAI/pythia-70m", "openai-community/gpt2",
    "stabilityai/stablelm-3b-4e1t", "ibm-granite/granite-3.0-2b-instruct", "allenai/OLMo-1B-hf",
    "bigscience/bloom-560m", "internlm/internlm2-chat-7b", "deepseek-ai/DeepSeek-V2-Lite-Chat",
    "tiiuae/falcon-7b"};
// clang-format on
const Names kAttention = {"FLASH_ATTN", "FLASHINFER", "TRITON_ATTN", "XFORMERS"};
const Names kModelDtypes = {"bfloat16", "half", "float"};
const Names kStreams = {"True", "False"};
const Names kTokens = {"1", "16", "128", "512"};

const std::vector<TestFamily> kVllmCorrectness = {
    {"tests/basic_correctness/test_basic_correctness.py",
     "",
     NameShape::Bracket,
     {"test_models", "test_models_distributed"},
     &kModels,
     &kAttention,
     {},
     45},
    {"tests/basic_correctness/test_chunked_prefill.py",
     "",
     NameShape::Bracket,
     {"test_models", "test_with_prefix_caching"},
     &kModels,
     &kTokens,
     {},
     38},
    {"tests/basic_correctness/test_cumem.py",
     "",
     NameShape::Bracket,
     {"test_end_to_end", "test_deep_sleep"},
     &kModels,
     &kStreams,
     {},
     120},
};

const std::vector<TestFamily> kVllmEntrypoints = {
    {"tests/entrypoints/openai/test_chat.py",
     "",
     NameShape::Bracket,
     {"test_chat_streaming", "test_single_chat_session", "test_chat_completion_stream_options",
      "test_too_many_chat_logprobs"},
     &kModels,
     &kStreams,
     {},
     90},
    {"tests/entrypoints/openai/test_completion.py",
     "",
     NameShape::Bracket,
     {"test_single_completion", "test_batch_completions", "test_echo_logprob_completion"},
     &kModels,
     &kTokens,
     {},
     75},
    {"tests/entrypoints/llm/test_generate.py",
     "",
     NameShape::Bracket,
     {"test_multiple_sampling_params", "test_max_tokens", "test_chat"},
     &kModels,
     nullptr,
     {},
     30},
};

const std::vector<TestFamily> kVllmModels = {
    {"tests/models/language/generation/test_common.py",
     "",
     NameShape::Bracket,
     {"test_models"},
     &kModels,
     &kModelDtypes,
     {},
     112},
    {"tests/models/language/generation/test_hybrid.py",
     "",
     NameShape::Bracket,
     {"test_models", "test_batching", "test_chunked_prefill"},
     &kModels,
     &kTokens,
     {},
     60},
    {"tests/models/language/pooling/test_embedding.py",
     "",
     NameShape::Bracket,
     {"test_models"},
     &kModels,
     &kModelDtypes,
     {},
     28},
};

} // namespace

Suite suiteOfConfig(std::string_view config)
{
    if (config == "inductor" || config == "dynamo" || config == "e2e_huggingface")
        return Suite::Compile;
    if (config == "distributed")
        return Suite::Distributed;
    if (config == "basic-correctness")
        return Suite::VllmCorrectness;
    if (config == "entrypoints")
        return Suite::VllmEntrypoints;
    if (config == "models")
        return Suite::VllmModels;
    return Suite::Core;
}

const std::vector<TestFamily>& familiesOf(Suite suite)
{
    switch (suite) {
    case Suite::Core: return kCore;
    case Suite::Compile: return kCompile;
    case Suite::Distributed: return kDistributed;
    case Suite::VllmCorrectness: return kVllmCorrectness;
    case Suite::VllmEntrypoints: return kVllmEntrypoints;
    case Suite::VllmModels: return kVllmModels;
    }
    return kCore;
}

std::vector<Suite> suiteTiers(std::string_view config)
{
    const Suite own = suiteOfConfig(config);
    std::vector<Suite> out{own};
    const bool vllm =
        own == Suite::VllmCorrectness || own == Suite::VllmEntrypoints || own == Suite::VllmModels;
    if (vllm) {
        for (Suite other : {Suite::VllmCorrectness, Suite::VllmEntrypoints, Suite::VllmModels})
            if (other != own)
                out.push_back(other);
    }
    if (own != Suite::Core)
        out.push_back(Suite::Core); // the last resort: any size fits
    return out;
}

} // namespace relayhud::sim
