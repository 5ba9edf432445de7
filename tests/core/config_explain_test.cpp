// Table-driven `explain` over the corpus: instantiated names as reports show
// them (class + PRIVATEUSE1, method + _<op>_spyre_<dtype>) resolve to the
// outcome and the deciding line the config gives them.
#include "config_test_util.h"

#include "relayhud/config/config_explain.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

using namespace relayhud::config::test;

struct ExplainCase {
    const char* file;    // corpus file name without the tests__configs__ prefix
    const char* test;    // as a report names it
    const char* op;      // mark, "" when none
    const char* dtype;   // mark, "" when none
    const char* outcome; // expected
    Decision decision;
    const char* decidingLine; // text of the deciding line ("" for unlisted)
};

const ExplainCase kCases[] = {
    {"upstream_tests__test_binary_ufuncs_config.yaml",
     "TestBinaryUfuncsPRIVATEUSE1::test_contig_vs_transposed_add_spyre_float16", "add", "float16",
     "mandatory_success", Decision::ExplicitEntry, "- TestBinaryUfuncs::test_contig_vs_transposed"},
    {"upstream_tests__test_binary_ufuncs_config.yaml",
     "test/test_binary_ufuncs.py::TestBinaryUfuncsPRIVATEUSE1::test_contig_vs_transposed_div_spyre_"
     "float16",
     "div", "float16", "dropped", Decision::ExplicitEntry,
     "- TestBinaryUfuncs::test_contig_vs_transposed"},
    {"upstream_tests__test_binary_ufuncs_config.yaml",
     "TestBinaryUfuncsPRIVATEUSE1::test___xor___not_implemented_spyre_int8", "", "int8", "skip",
     Decision::Unlisted, ""},
    {"upstream_tests__test_view_ops_config.yaml",
     "TestOldViewOpsPRIVATEUSE1::test_transposes_errors_spyre_float16", "", "float16",
     "mandatory_success", Decision::ExplicitEntry, "- TestOldViewOps::test_transposes_errors"},
    {"upstream_tests__test_view_ops_config.yaml",
     "TestOldViewOpsPRIVATEUSE1::test_transposes_errors_spyre_int64", "", "int64", "dropped",
     Decision::ExplicitEntry, "- TestOldViewOps::test_transposes_errors"},
    {"upstream_tests__test_view_ops_config.yaml",
     "TestViewOpsPRIVATEUSE1::test_conj_self_spyre_bfloat16", "", "bfloat16", "mandatory_success",
     Decision::ExplicitEntry, "- TestViewOps::test_conj_self"},
    {"upstream_tests__test_view_ops_config.yaml",
     "TestViewOpsPRIVATEUSE1::test_unbind_spyre_bfloat16", "", "bfloat16", "dropped",
     Decision::ExplicitEntry, "- TestViewOps::test_unbind"},
    // Listed twice: the first listing (a skip entry) decides.
    {"upstream_tests__test_view_ops_config.yaml",
     "TestViewOpsPRIVATEUSE1::test_flatten_nonview_spyre_float16", "", "float16", "skip",
     Decision::ExplicitEntry, "- TestViewOps::test_flatten_nonview"},
    {"upstream_tests__test_view_ops_config.yaml",
     "TestViewOpsPRIVATEUSE1::test_not_in_the_config_spyre_float16", "", "float16",
     "mandatory_success", Decision::Unlisted, ""},
    {"example_test_config.yaml", "TestBinaryUfuncsPRIVATEUSE1::test_scalar_support_spyre_float32",
     "", "float32", "xfail", Decision::ExplicitEntry, "- TestBinaryUfuncs::test_scalar_support"},
    {"example_test_config.yaml", "TestBinaryUfuncsPRIVATEUSE1::test_scalar_support_spyre_float16",
     "", "float16", "mandatory_success", Decision::ExplicitEntry,
     "- TestBinaryUfuncs::test_scalar_support"},
    {"example_test_config.yaml", "TestBinaryUfuncsPRIVATEUSE1::test_add_sub_mul_spyre_int64", "mul",
     "int64", "skip", Decision::Unlisted, ""},
    {"upstream_tests_beta__test_torch.yaml",
     "TestTorchDeviceTypePRIVATEUSE1::test_addcmul_spyre_float16", "", "float16", "xfail",
     Decision::ExplicitEntry, "- TestTorchDeviceType::test_addcmul"},
    {"upstream_tests_beta__test_torch.yaml",
     "TestTorchDeviceTypePRIVATEUSE1::test_addcdiv_spyre_float32", "", "float32", "dropped",
     Decision::ExplicitEntry, "- TestTorchDeviceType::test_addcdiv"},
    {"upstream_tests_beta__test_torch.yaml", "TestTorch::test_normal_shape", "", "",
     "mandatory_success", Decision::ExplicitEntry, "- TestTorch::test_normal_shape"},
    {"upstream_tests_beta__test_unary_ufuncs.yaml",
     "TestUnaryUfuncsPRIVATEUSE1::test_abs_zero_spyre_float16", "", "float16", "dropped",
     Decision::ExplicitEntry, "- TestUnaryUfuncs::test_abs_zero"},
    {"upstream_tests_beta__test_unary_ufuncs.yaml",
     "TestUnaryUfuncsPRIVATEUSE1::test_exp_spyre_float16", "", "float16", "xfail",
     Decision::ExplicitEntry, "- TestUnaryUfuncs::test_exp"},
    {"torch_spyre_tests__inductor__test_inductor_ops_config.yaml",
     "tests/inductor/test_inductor_ops.py::TestOps::test_bool", "", "", "mandatory_success",
     Decision::Unlisted, ""},
};

class ExplainTableTest : public ::testing::TestWithParam<ExplainCase> {};

TEST_P(ExplainTableTest, ResolvesOutcomeAndDecidingEntry)
{
    const ExplainCase& c = GetParam();
    const std::string text = readText(corpusConfigs() / (std::string("tests__configs__") + c.file));
    ASSERT_FALSE(text.empty()) << c.file;
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    ASSERT_TRUE(parsed) << parsed.message();
    TestQuery query = parseTestQuery(c.test);
    if (*c.op)
        query.marks.items.push_back({MarkKind::Op, c.op});
    if (*c.dtype)
        query.marks.items.push_back({MarkKind::Dtype, c.dtype});
    Result<Explanation> ex = explainTest(parsed->config, query);
    ASSERT_TRUE(ex) << ex.message();
    EXPECT_EQ(ex->outcome(), c.outcome) << c.test;
    EXPECT_EQ(ex->decision, c.decision) << c.test;
    if (c.decision == Decision::Unlisted) {
        EXPECT_FALSE(ex->entryIndex.has_value());
        return;
    }
    ASSERT_TRUE(ex->entryIndex && ex->nameIndex);
    const NameItem& item =
        parsed->config.files[ex->fileIndex].tests[*ex->entryIndex].names[*ex->nameIndex];
    EXPECT_EQ(item.pos.line, lineOf(text, c.decidingLine)) << c.test;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ExplainTableTest, ::testing::ValuesIn(kCases));

TEST(ConfigExplainTest, PatternsMatchWholeBaseNamesAndLoseToExplicitEntries)
{
    const std::string text = "test_suite_config:\n"
                             "  files:\n"
                             "    - path: ${TORCH_ROOT}/test/test_ops.py\n"
                             "      tests:\n"
                             "        - names:\n"
                             "            - TestCommon::test_compare_*\n"
                             "          mode: xfail\n"
                             "        - names:\n"
                             "            - TestCommon::test_compare_cpu\n";
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    ASSERT_TRUE(parsed) << parsed.message();
    Result<Explanation> byPattern = explainTest(
        parsed->config, parseTestQuery("TestCommonPRIVATEUSE1::test_compare_xyz_spyre_float16"));
    ASSERT_TRUE(byPattern);
    EXPECT_EQ(byPattern->decision, Decision::Pattern);
    EXPECT_EQ(byPattern->outcome(), "xfail");
    Result<Explanation> explicitWins =
        explainTest(parsed->config, parseTestQuery("TestCommon::test_compare_cpu"));
    ASSERT_TRUE(explicitWins);
    EXPECT_EQ(explicitWins->decision, Decision::ExplicitEntry);
    EXPECT_EQ(explicitWins->outcome(), "mandatory_success"); // listed without mode
    Result<Explanation> unlisted = explainTest(parsed->config, parseTestQuery("TestX::test_y"));
    ASSERT_TRUE(unlisted);
    EXPECT_EQ(unlisted->outcome(), "xfail"); // no unlisted_test_mode: the code default
}

TEST(ConfigExplainTest, GlobMatching)
{
    EXPECT_TRUE(globMatch("TestOps::test_addmm*", "TestOps::test_addmm_cpu"));
    EXPECT_FALSE(globMatch("TestOps::test_addmm*", "XTestOps::test_addmm"));
    EXPECT_TRUE(globMatch("T?st[A-Z]*::test_[!x]", "TestOps::test_y"));
    EXPECT_FALSE(globMatch("T?st[A-Z]*::test_[!x]", "TestOps::test_x"));
    EXPECT_FALSE(globMatch("*.py", "a.pyc"));
}

TEST(ConfigExplainTest, FileSectionIsChosenByPathOrRefused)
{
    const std::string text = "test_suite_config:\n"
                             "  files:\n"
                             "    - path: ${TORCH_ROOT}/test/test_a.py\n"
                             "    - path: ${TORCH_DEVICE_ROOT}/tests/test_b.py\n";
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*findFileSection(parsed->config, "tests/test_b.py"), 1u);
    EXPECT_EQ(*findFileSection(parsed->config, "test/test_a.py"), 0u);
    EXPECT_FALSE(findFileSection(parsed->config, ""));
    EXPECT_FALSE(findFileSection(parsed->config, "test/test_c.py"));
}

} // namespace
} // namespace relayhud::config
