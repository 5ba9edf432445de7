// The framework's naming facts, copied from torch-spyre's source
// (torch-spyre/torch-spyre tests/oot_framework/ @539fd3b0): its dtype names
// and their order, which names are regexes, how a variant maps back to
// its base method and its op name.
#include "relayhud/config/name_regex.h"
#include "relayhud/config/spyre_names.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

TEST(SpyreNames, DtypeNamesAreTheFrameworksSeventeen)
{
    // oot_test_constants.py:42-60 _VALID_DTYPE_STRINGS.
    for (const char* name :
         {"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "complex32", "complex64", "complex128", "bool", "half"})
        EXPECT_TRUE(isConfigDtypeName(name)) << name;
    for (const char* name : {"float8_e4m3fn", "qint8", "quint8", "bits8", "float", "Half", ""})
        EXPECT_FALSE(isConfigDtypeName(name)) << name;
    EXPECT_EQ(canonicalDtype("half"), "float16");
    EXPECT_EQ(canonicalDtype("bfloat16"), "bfloat16");
}

TEST(SpyreNames, DtypeOrderIsLongestFirstStable)
{
    // DTYPE_NAMES_ORDERED = sorted(DTYPE_STR_MAP, key=len, reverse=True)
    // (oot_test_constants.py:92-114): a stable sort of the map's order.
    const std::vector<std::string_view> expected = {
        "complex128", "complex32", "complex64", "bfloat16", "float16", "float32",
        "float64",    "uint16",    "uint32",    "uint64",   "int16",   "int32",
        "int64",      "uint8",     "int8",      "bool",     "half"};
    const auto order = dtypeNamesLongestFirst();
    EXPECT_EQ(std::vector<std::string_view>(order.begin(), order.end()), expected);
}

TEST(SpyreNames, DtypeIsReadFromTheWholeVariantName)
{
    // extract_dtype_from_name (oot_test_matching.py:32-41).
    EXPECT_EQ(dtypeFromVariantName("test_x_spyre_float16"), "float16");
    EXPECT_EQ(dtypeFromVariantName("test_max_pool_bfloat16_half_spyre_float64"), "bfloat16");
    EXPECT_EQ(dtypeFromVariantName("test_move_sparse_half_embedding_spyre"), "float16");
    EXPECT_EQ(dtypeFromVariantName("test_x_spyre_uint8"), "uint8");
    EXPECT_EQ(dtypeFromVariantName("test_x_spyre_int8"), "int8");
    EXPECT_EQ(dtypeFromVariantName("test_x_spyre_complex128"), "complex128");
    EXPECT_EQ(dtypeFromVariantName("test_bool_tensor_spyre_int64"), "int64"); // int64 is longer
    EXPECT_EQ(dtypeFromVariantName("test_halfway_spyre"), std::nullopt);
    EXPECT_EQ(dtypeFromVariantName("test_x_spyre_float8_e4m3fn"), std::nullopt);
    EXPECT_EQ(dtypeFromVariantName("test_activation_cls_gelu_fp16_spyre"), std::nullopt);
}

TEST(SpyreNames, RegexCharactersAreTheFrameworks)
{
    // _is_regex_pattern (oot_test_utilities.py:226-228): \ . ^ $ * + ? { } [ ] | ( )
    for (const char* name :
         {"test_a\\d", "test_a.b", "^test", "test$", "test_a*", "test_a+", "test_a?", "test_a{2}",
          "test_{", "test_[ab]", "test_a|b", "test_(a)", "test_a)"})
        EXPECT_TRUE(isRegexMethod(name)) << name;
    for (const char* name : {"test_add", "test_add_2d", "TestFoo", "test-x", "test_a!b"})
        EXPECT_FALSE(isRegexMethod(name)) << name;
}

TEST(SpyreNames, OnlyTheMethodPartIsKept)
{
    EXPECT_EQ(splitConfigName("TestA::test_x").method, "test_x");
    EXPECT_EQ(splitConfigName("TestA::test_x").classPart, "TestA");
    EXPECT_EQ(splitConfigName("test_x").method, "test_x");
    EXPECT_EQ(splitConfigName("LxPlanning.*::test_activation_cls.*").method,
              "test_activation_cls.*");
}

TEST(SpyreNames, VariantMapsBackToItsBaseMethod)
{
    EXPECT_EQ(parseVariantName("test_conj_self_spyre_float32", {}).base, "test_conj_self");
    EXPECT_EQ(parseVariantName("test_copy_broadcast_spyre", {}).base, "test_copy_broadcast");
    EXPECT_EQ(parseVariantName("test_scalar_support_add_spyre_float16", {"add"}).base,
              "test_scalar_support");
    // Raw OpInfo names and torch-spyre's sanitised marks both cut the op.
    EXPECT_EQ(parseVariantName("test_out_copy__spyre_float32", {"copy_"}).base, "test_out");
    EXPECT_EQ(parseVariantName("test_out_copy__spyre_float32", {"copy"}).base, "test_out");
    EXPECT_EQ(parseVariantName("test_out__scaled_mm_spyre_float32", {"_scaled_mm"}).base,
              "test_out");
    EXPECT_EQ(parseVariantName("test_out___rsub___spyre_float32", {"rsub"}).base, "test_out");
    EXPECT_EQ(
        parseVariantName("test_out_nn_functional_relu_spyre_float32", {"nn.functional.relu"}).base,
        "test_out");
    EXPECT_EQ(parseVariantName("test_ops_addmm_decomposed_spyre_float16", {"addmm"}).base,
              "test_ops");
    // The op's name inside the base does not confuse the cut: rightmost first.
    EXPECT_EQ(parseVariantName("test_add_foo_add_spyre_float32", {"add"}).base, "test_add_foo");
    const VariantName model =
        parseVariantName("test_model_ops_db_torch_nn_functional_embedding__0_spyre_int64", {});
    EXPECT_TRUE(model.modelOps);
    EXPECT_EQ(model.base, "test_model_ops_db");
    EXPECT_EQ(model.modelOpsKey, "torch_nn_functional_embedding__0");
    EXPECT_FALSE(parseVariantName("test_plain", {}).deviceFound);
    EXPECT_EQ(parseVariantName("test_plain", {}).base, "test_plain");
}

TEST(SpyreNames, FrameworkOpNameNeedsADtypeAfterTheDevice)
{
    // _extract_op_name_from_method (oot_test_utilities.py:396-414).
    EXPECT_EQ(frameworkOpName("test_scalar_support_add_spyre_float16", "test_scalar_support"),
              "add");
    EXPECT_EQ(frameworkOpName("test_dim_multi_duplicate_max_spyre", "test_dim_multi_duplicate"),
              std::nullopt);
    EXPECT_EQ(frameworkOpName("test_x_addmm_decomposed_spyre_float16", "test_x"),
              "addmm_decomposed");
    EXPECT_EQ(frameworkOpName("test_conj_self_spyre_float32", "test_conj_self"), std::nullopt);
    EXPECT_EQ(frameworkOpName("test_other_spyre_float32", "test_x"), std::nullopt);
}

TEST(SpyreNames, WrapperMapsToTheOriginal)
{
    EXPECT_EQ(unwrapOotPath("test/test_torch__oot_wrapper.py"), "test/test_torch.py");
    EXPECT_EQ(unwrapOotPath("tests/inductor/test_inductor_ops__oot_wrapper.py"),
              "tests/inductor/test_inductor_ops.py");
    EXPECT_EQ(unwrapOotPath("test/test_torch.py"), "test/test_torch.py");
    EXPECT_EQ(unwrapOotPath("test/__oot_wrapper.py"), "test/__oot_wrapper.py");
}

TEST(NameRegex, PythonSpellingsAreTranslatedAndUnsupportedOnesNamed)
{
    EXPECT_EQ(checkNameRegex("test_(addmm|mm|bmm).*").status, RegexStatus::Ok);
    EXPECT_EQ(checkNameRegex("test_a{,2}").re2Pattern, "test_a{0,2}");
    EXPECT_EQ(checkNameRegex("test_a\\Z").re2Pattern, "test_a\\z");
    EXPECT_EQ(checkNameRegex("test_(?<n>a)").re2Pattern, "test_(?P<n>a)");
    EXPECT_EQ(checkNameRegex("test_[]a]").status, RegexStatus::Ok);
    for (const char* unsupported : {"test_(a)\\1", "test_(?=x)", "test_(?!x).*", "(?<=a)b",
                                    "test_(?>a)", "test_a*+", "test_(?P<x>a)(?P=x)"})
        EXPECT_EQ(checkNameRegex(unsupported).status, RegexStatus::Unsupported) << unsupported;
    for (const char* invalid : {"test_(a", "test_[a", "*test", "test_a)"})
        EXPECT_EQ(checkNameRegex(invalid).status, RegexStatus::Invalid) << invalid;
}

TEST(NameRegex, SetFullmatchesEveryPatternInOnePass)
{
    NameRegexSet set;
    for (const char* p : {"test_add.*", "test_add*", "test_.", "test_(a|b)", "test_[!x]"})
        ASSERT_TRUE(set.add(checkNameRegex(p))) << p;
    ASSERT_TRUE(set.compile());
    std::vector<int> hits;
    auto matches = [&](const char* text) {
        set.match(text, hits);
        return hits;
    };
    EXPECT_EQ(matches("test_add"), (std::vector<int>{0, 1}));
    EXPECT_EQ(matches("test_add_scalar"), (std::vector<int>{0}));
    EXPECT_EQ(matches("test_adddd"), (std::vector<int>{0, 1}));
    EXPECT_EQ(matches("test_ad"), (std::vector<int>{1}));
    EXPECT_EQ(matches("test_a"), (std::vector<int>{2, 3}));
    EXPECT_EQ(matches("test_!"), (std::vector<int>{2, 4}));
    EXPECT_EQ(matches("test_y"), (std::vector<int>{2}));
    EXPECT_EQ(matches("xtest_add"), (std::vector<int>{}));
}

} // namespace
} // namespace relayhud::config
