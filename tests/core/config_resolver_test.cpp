// The resolver on small hand-made configs, one rule of
// ../shared/specs/spyre-config-semantics.md per test, each expected outcome
// worked out from the spec and torch-spyre's framework (tests/oot_framework/
// @539fd3b0), not from this implementation.
#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_merge.h"
#include "relayhud/config/resolver.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

OutcomeConfig parse(const std::string& text)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    EXPECT_TRUE(parsed) << parsed.message();
    if (!parsed)
        return {};
    for (const Finding& f : parsed->findings)
        EXPECT_NE(f.severity, Severity::Error) << formatFinding(f);
    return parsed->config;
}

std::string file(const std::string& unlisted, const std::string& tests,
                 const std::string& global = "")
{
    return "test_suite_config:\n  files:\n    - path: ${TORCH_ROOT}/test/test_x.py\n"
           "      unlisted_test_mode: "
           + unlisted + "\n      tests:\n" + tests + (global.empty() ? "" : "  global:\n" + global);
}

struct Got {
    std::string outcome;
    std::size_t line = 0; // the deciding entry's first line, 0 when unlisted
};

Got resolve(const OutcomeConfig& config, const std::string& method,
            std::vector<std::string> ops = {}, std::optional<std::string> testType = {},
            bool observed = false)
{
    Resolver resolver(config);
    ResolveContext context;
    context.testType = std::move(testType);
    Result<Resolution> r = resolver.resolve(
        {"test/test_x.py", "TestXPRIVATEUSE1", method, std::move(ops), observed}, context);
    EXPECT_TRUE(r) << r.message();
    if (!r)
        return {};
    return {outcomeName(r->outcome), decidingLine(config, *r)};
}

TEST(Resolver, TheClassPartIsNeverChecked)
{
    const OutcomeConfig c = parse(file("mandatory_success", "        - names:\n"
                                                            "            - TestA::test_x\n"
                                                            "          mode: skip\n"));
    EXPECT_EQ(resolve(c, "test_x_spyre_float16").outcome, "skip");
    Resolver resolver(c);
    Result<Resolution> other =
        resolver.resolve({"test/test_x.py", "TestBPRIVATEUSE1", "test_x_spyre_float16", {}, false});
    ASSERT_TRUE(other);
    EXPECT_EQ(other->outcome, Outcome::Skip);
}

TEST(Resolver, ExactListingsBeatRegexesWhereverTheySit)
{
    const OutcomeConfig c = parse(file("mandatory_success", "        - names:\n"
                                                            "            - TestX::test_x.*\n"
                                                            "          mode: xfail\n"
                                                            "        - names:\n"
                                                            "            - TestX::test_x\n"
                                                            "          mode: skip\n"));
    EXPECT_EQ(resolve(c, "test_x_spyre_float16").outcome, "skip");
    EXPECT_EQ(resolve(c, "test_x_spyre_float16").line, 9u);
    EXPECT_EQ(resolve(c, "test_xy_spyre_float16").outcome, "xfail");
    EXPECT_EQ(resolve(c, "test_xy_spyre_float16").line, 6u);
}

TEST(Resolver, TheFirstExactListingWinsAcrossClasses)
{
    const OutcomeConfig c = parse(file("mandatory_success", "        - names:\n"
                                                            "            - TestA::test_x\n"
                                                            "          mode: xfail\n"
                                                            "        - names:\n"
                                                            "            - TestB::test_x\n"
                                                            "          mode: skip\n"));
    EXPECT_EQ(resolve(c, "test_x_spyre").outcome, "xfail");
    EXPECT_EQ(resolve(c, "test_x_spyre").line, 6u);
}

TEST(Resolver, DtypeAwarePassesPickTheEntryWhoseDtypesFit)
{
    // The spec's 5.2 example: [A: xfail, include [float32]] then [B: skip],
    // globals [float16].
    const OutcomeConfig c = parse(file("mandatory_success",
                                       "        - names: [TestX::test_x]\n"
                                       "          mode: xfail\n"
                                       "          edits: {dtypes: {include: [{name: float32}]}}\n"
                                       "        - names: [TestX::test_x]\n"
                                       "          mode: skip\n",
                                       "    supported_dtypes:\n      - name: float16\n"));
    EXPECT_EQ(resolve(c, "test_x_spyre_float16").outcome, "skip");
    EXPECT_EQ(resolve(c, "test_x_spyre_float16").line, 9u);
    EXPECT_EQ(resolve(c, "test_x_spyre_float32").outcome, "xfail");
    EXPECT_EQ(resolve(c, "test_x_spyre_float32").line, 6u);
    // Neither set has int64 and both filter: pass 3, the first; then the
    // dtype filter drops it.
    EXPECT_EQ(resolve(c, "test_x_spyre_int64").outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_x_spyre_int64").line, 6u);
    // No dtype in the name: pass 2 finds no unfiltered entry, pass 3 the first.
    EXPECT_EQ(resolve(c, "test_x_spyre").outcome, "xfail");
}

TEST(Resolver, RegexNamesFullmatchAsPythonRegexes)
{
    const OutcomeConfig c = parse(file("skip", "        - names:\n"
                                               "            - TestOps::test_(addmm|mm|bmm).*\n"
                                               "            - LxPlanning.*::test_activation_cls.*\n"
                                               "            - TestOps::test_add*\n"
                                               "          mode: mandatory_success\n"));
    EXPECT_EQ(resolve(c, "test_addmm_spyre").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_mm_2d_spyre").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_activation_cls_gelu_fp16_spyre").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_activation_cls_spyre").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_addd_spyre").outcome, "mandatory_success"); // d*
    EXPECT_EQ(resolve(c, "test_add_scalar_spyre").outcome, "skip");        // not d*
    EXPECT_EQ(resolve(c, "test_xmm_spyre").outcome, "skip");
}

TEST(Resolver, UnlistedVariantsSeeOnlyTheGlobals)
{
    const OutcomeConfig c = parse(file("mandatory_success",
                                       "        - names: [TestX::test_y]\n"
                                       "          edits: {dtypes: {include: [{name: int64}]}}\n",
                                       "    supported_dtypes:\n      - name: half\n"));
    EXPECT_EQ(resolve(c, "test_z_spyre_float16").outcome, "mandatory_success"); // half == float16
    EXPECT_EQ(resolve(c, "test_z_spyre_int64").outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_y_spyre_int64").outcome, "mandatory_success"); // include lifts
    EXPECT_EQ(resolve(c, "test_z_spyre").outcome, "mandatory_success");
}

TEST(Resolver, AnEmptySupportedDtypesListFiltersNothing)
{
    const OutcomeConfig c =
        parse(file("xfail", "        - names: [test_y]\n", "    supported_dtypes: []\n"));
    EXPECT_EQ(resolve(c, "test_y_spyre_complex128").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_z_spyre_bool").outcome, "xfail");
}

TEST(Resolver, ExcludeWinsOverIncludeAndOpsAreExcludedByPrefix)
{
    const OutcomeConfig c =
        parse(file("skip",
                   "        - names: [TestX::test_y]\n"
                   "          edits:\n"
                   "            dtypes: {include: [{name: int64}], exclude: [{name: int64}]}\n"
                   "            ops: {exclude: [{name: max}, {name: nn.functional.relu}]}\n",
                   "    supported_dtypes: [{name: float16}]\n"));
    EXPECT_EQ(resolve(c, "test_y_spyre_int64").outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_y_max_spyre_float16", {"max"}).outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_y_max_reduction_with_dim_spyre_float16", {"max"}).outcome,
              "dropped");
    EXPECT_EQ(resolve(c, "test_y_maximum_spyre_float16", {"maximum"}).outcome, "mandatory_success");
    // No dtype after the device: the framework finds no op name to exclude.
    EXPECT_EQ(resolve(c, "test_y_max_spyre", {"max"}).outcome, "mandatory_success");
    // A dotted excluded name never meets the op name, whose dots are '_'.
    EXPECT_EQ(resolve(c, "test_y_nn_functional_relu_spyre_float16", {"nn.functional.relu"}).outcome,
              "mandatory_success");
}

TEST(Resolver, ForceXfailTurnsOnlyMandatorySuccessIntoXfail)
{
    const OutcomeConfig c = parse(file("xfail_strict",
                                       "        - names: [test_m]\n"
                                       "        - names: [test_s]\n"
                                       "          mode: skip\n",
                                       "    supported_dtypes:\n"
                                       "      - name: float16\n"
                                       "      - name: float32\n"
                                       "        force_xfail: true\n"
                                       "    supported_ops:\n"
                                       "      - add\n"
                                       "      - name: mul\n"
                                       "        force_xfail: true\n"));
    EXPECT_EQ(resolve(c, "test_m_spyre_float32").outcome, "xfail");
    EXPECT_EQ(resolve(c, "test_m_spyre_float16").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_m_mul_spyre_float16", {"mul"}).outcome, "xfail");
    EXPECT_EQ(resolve(c, "test_m_add_spyre_float16", {"add"}).outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_s_spyre_float32").outcome, "skip");
    EXPECT_EQ(resolve(c, "test_u_spyre_float32").outcome, "xfail_strict"); // unlisted strict
    // Not in supported_ops: never generated (a report that has it says otherwise).
    EXPECT_EQ(resolve(c, "test_m_div_spyre_float16", {"div"}).outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_m_div_spyre_float16", {"div"}, {}, true).outcome,
              "mandatory_success");
}

TEST(Resolver, PerOpDtypesLimitWhatIsGenerated)
{
    const OutcomeConfig c =
        parse(file("xfail", "        - names: [test_m]\n",
                   "    supported_ops:\n      - name: add\n        dtypes: [{name: float16}]\n"));
    EXPECT_EQ(resolve(c, "test_m_add_spyre_float16", {"add"}).outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_m_add_spyre_float32", {"add"}).outcome, "dropped");
}

TEST(Resolver, LabelsAreCheckedAgainstTheTestType)
{
    const OutcomeConfig c = parse(file("xfail", "        - names: [test_l]\n"
                                                "          labels: [nightly]\n"));
    EXPECT_EQ(resolve(c, "test_l_spyre").outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_l_spyre", {}, std::string("full")).outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_l_spyre", {}, std::string("suite_ops")).outcome,
              "mandatory_success");
    EXPECT_EQ(resolve(c, "test_l_spyre", {}, std::string("nightly")).outcome, "mandatory_success");
    EXPECT_EQ(resolve(c, "test_l_spyre", {}, std::string("trunk")).outcome, "dropped");
    EXPECT_EQ(resolve(c, "test_l_spyre", {}, std::string("")).outcome, "mandatory_success");
}

TEST(Resolver, ModelOpsAreDecidedByTheirOpIndex)
{
    // test_model_ops_v2.py numbers the include items of the entries listing
    // exactly TestSpyreModelOps::test_model_ops_db, across entries, in order.
    const OutcomeConfig c = parse("test_suite_config:\n  files:\n    - path: "
                                  "${TORCH_DEVICE_ROOT}/tests/models/test_model_ops_v2.py\n"
                                  "      unlisted_test_mode: skip\n      tests:\n"
                                  "        - names: [TestSpyreModelOps::test_model_ops_db]\n"
                                  "          mode: xfail\n"
                                  "          edits: {ops: {include: [{name: torch.add}, {name: "
                                  "torch.nn.functional.embedding}]}}\n"
                                  "        - names: [TestSpyreModelOps::test_model_ops_db]\n"
                                  "          mode: mandatory_success\n"
                                  "          edits: {ops: {include: [{name: torch.add}]}}\n");
    Resolver resolver(c);
    auto outcome = [&](const std::string& method) {
        Result<Resolution> r = resolver.resolve({"tests/models/test_model_ops_v2.py",
                                                 "TestSpyreModelOpsPRIVATEUSE1",
                                                 method,
                                                 {},
                                                 true});
        EXPECT_TRUE(r) << r.message();
        return r ? std::string(outcomeName(r->outcome)) : std::string();
    };
    EXPECT_EQ(outcome("test_model_ops_db_torch_add__0_spyre_float16"), "xfail");
    EXPECT_EQ(outcome("test_model_ops_db_torch_nn_functional_embedding__1_spyre_int64"), "xfail");
    EXPECT_EQ(outcome("test_model_ops_db_torch_add__2_spyre_float16"), "mandatory_success");
}

TEST(Resolver, WrapperFilesUseTheOriginalsSection)
{
    const OutcomeConfig c = parse(file("skip", "        - names: [TestTorch::test_copy]\n"));
    Resolver resolver(c);
    Result<Resolution> r = resolver.resolve(
        {"test/test_x__oot_wrapper.py", "TestTorchPRIVATEUSE1", "test_copy_spyre", {}, true});
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(r->outcome, Outcome::MandatorySuccess);
    EXPECT_FALSE(resolver.resolve({"test/test_other.py", "T", "test_copy_spyre", {}, true}));
}

TEST(Resolver, ARegexRE2CannotRunIsCannotJudgeOnlyWhereItMatters)
{
    Result<ParsedConfig> parsed =
        parseOutcomeConfig(file("mandatory_success", "        - names:\n"
                                                     "            - test_(?!slow).*\n"
                                                     "          mode: skip\n"
                                                     "        - names: [test_exact]\n"
                                                     "          mode: xfail\n"));
    ASSERT_TRUE(parsed);
    ASSERT_EQ(parsed->findings.size(), 1u);
    EXPECT_EQ(parsed->findings[0].severity, Severity::Warning);
    EXPECT_EQ(parsed->findings[0].pos.line, 7u);
    const OutcomeConfig& c = parsed->config;
    EXPECT_EQ(resolve(c, "test_any_spyre").outcome, "cannot_judge");
    EXPECT_EQ(resolve(c, "test_exact_spyre").outcome, "xfail"); // an exact listing decides anyway
}

TEST(Resolver, AnInvalidRegexIsAnErrorFindingAndTheRestResolves)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(file("skip", "        - names:\n"
                                                                  "            - test_(unclosed\n"
                                                                  "            - test_fine\n"));
    ASSERT_TRUE(parsed);
    ASSERT_TRUE(parsed->hasErrors());
    EXPECT_EQ(parsed->findings[0].pos.line, 7u);
    EXPECT_EQ(parsed->findings[0].pos.column, 15u);
    EXPECT_NE(parsed->findings[0].message.find("fails the collection of the whole file"),
              std::string::npos);
    EXPECT_EQ(resolve(parsed->config, "test_fine_spyre").outcome, "mandatory_success");
}

TEST(Resolver, ExplainSaysEachStepWithLines)
{
    const OutcomeConfig c = parse(file("skip", "        - names: [TestX::test_(a|b).*]\n"
                                               "          mode: xfail\n"));
    TestQuery query = parseTestQuery("test/test_x.py::TestXPRIVATEUSE1::test_a2_spyre_float16");
    Result<Resolution> r = explainTest(c, query);
    ASSERT_TRUE(r);
    ASSERT_GE(r->steps.size(), 3u);
    std::string all;
    for (const std::string& s : r->steps)
        all += s + "\n";
    EXPECT_NE(all.find("base method test_a2"), std::string::npos) << all;
    EXPECT_NE(all.find("candidate (regex fullmatches): 'TestX::test_(a|b).*' at line 6"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("runs as xfail"), std::string::npos) << all;
    EXPECT_EQ(decidedBy(c, *r), "regex 'TestX::test_(a|b).*' at line 6 in the entry at line 6");
}

TEST(Resolver, ABaseNameWithOpAndDtypeNamesItsVariant)
{
    TestQuery query = parseTestQuery("TestBinaryUfuncs::test_scalar_support");
    query.ops = {"add"};
    query.dtype = "half";
    EXPECT_EQ(variantOf(query).method, "test_scalar_support_add_spyre_float16");
    query = parseTestQuery("TestXPRIVATEUSE1::test_y_spyre_int64");
    query.dtype = "float16";
    EXPECT_EQ(variantOf(query).method, "test_y_spyre_int64"); // the name wins
}

// A model_ops config the size of torch-spyre's largest (1.5 MB): it parses
// without findings and its 3,000th op is decided by its op index.
TEST(Resolver, AConfigOfMegabytesParsesAndResolves)
{
    std::string text = "test_suite_config:\n  files:\n"
                       "    - path: ${TORCH_DEVICE_ROOT}/tests/models/test_model_ops_v2.py\n"
                       "      unlisted_test_mode: skip\n      tests:\n"
                       "        - names: [TestSpyreModelOps::test_model_ops_db]\n"
                       "          mode: xfail\n          edits:\n            ops:\n"
                       "              include:\n";
    for (int i = 0; text.size() < 1'500'000; ++i)
        text += "                - name: torch.op" + std::to_string(i % 7)
                + "\n                  description: 'x & y, shape [4, 8]'\n"
                  "                  tags: [granite, layer_"
                + std::to_string(i)
                + "]\n                  sample_inputs_func:\n"
                  "                    args:\n                      - tensor: {shape: [1, 128], "
                  "dtype: float16, init: randn}\n";
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_TRUE(parsed->findings.empty()) << formatFinding(parsed->findings.front());
    ASSERT_GT(parsed->config.files[0].tests[0].ops.include.size(), 3000u);
    Resolver resolver(parsed->config);
    Result<Resolution> r = resolver.resolve({"tests/models/test_model_ops_v2.py",
                                             "TestSpyreModelOpsPRIVATEUSE1",
                                             "test_model_ops_db_torch_op4__3000_spyre_float16",
                                             {},
                                             true});
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(r->decision, Decision::OpIndex);
    EXPECT_EQ(r->outcome, Outcome::Xfail);
}

TEST(ConfigMerge, SamePathSectionsConcatenateAndRepeatedBlocksDrop)
{
    const OutcomeConfig a = parse(file("skip",
                                       "        - names: [TestX::test_a]\n"
                                       "          mode: xfail\n",
                                       "    supported_dtypes: [{name: float16}]\n"));
    const OutcomeConfig b = parse(file("mandatory_success",
                                       "        - names: [TestX::test_a]\n"
                                       "          mode: mandatory_success\n"
                                       "        - names: [TestX::test_b]\n",
                                       "    supported_dtypes: [{name: float16}, {name: int64}]\n"));
    Result<MergedConfig> merged = mergeOutcomeConfigs({{"a.yaml", &a}, {"b.yaml", &b}});
    ASSERT_TRUE(merged) << merged.message();
    ASSERT_EQ(merged->config.files.size(), 1u);
    const FileSection& section = merged->config.files[0];
    EXPECT_EQ(section.effectiveUnlistedMode(), Mode::Skip); // the first wins
    ASSERT_EQ(section.tests.size(), 2u); // b's test_a block repeats names, tags and edits
    EXPECT_EQ(section.tests[1].origin, 1u);
    EXPECT_EQ(merged->config.global.supportedDtypes.size(), 2u);
    EXPECT_EQ(merged->notes.size(), 2u);
    Resolver resolver(merged->config);
    Result<Resolution> r =
        resolver.resolve({"test/test_x.py", "", "test_a_spyre_int64", {}, false});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->outcome, Outcome::Xfail);
}

} // namespace
} // namespace relayhud::config
