// Configs of every age (issue 34 part 7; ../shared/specs/real-backends.md
// section 6): the fields torch-spyre's OOT framework gained over time are
// read (labels, no_grad, cpu_move, module dtypes from tensor specs, the
// newer input-arg kinds), lint names the framework a config needs, the
// resolver decides as the framework of a given date did (edits.ops.exclude
// before and after 2026-07-01), and the JUnit property result.retried is
// read and stored.
//
// Sources: AdnanHoque/torch-spyre 539fd3b0 (#2981, ops.exclude enforced in
// _should_run), 8dc6ee97 (#2923/#2924, labels), 5f29f49b (2026-07-01: no
// no_grad, input args only tensor/tensor_list/value/py); torch-spyre/torch-spyre
// tests/oot_framework/oot_test_config_models.py@1591b63f (no_grad,
// FileEntry.labels, ModulesNamedItem.resolved_input_dtypes, _parse_input_arg)
// and tests/oot_framework/utils/mark_retried.py@36c65c7a.
#include "config_test_util.h"
#include "test_results_fixtures.h"

#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_lint.h"
#include "relayhud/config/framework_age.h"
#include "relayhud/config/resolver.h"
#include "relayhud/junit/junit_reader.h"
#include "relayhud/store/test_result_store.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace relayhud::config {
namespace {

ParsedConfig parseOk(const std::string& text)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.message());
    return parsed ? std::move(*parsed) : ParsedConfig{};
}

std::string allFindings(const std::vector<Finding>& findings)
{
    std::string out;
    for (const Finding& f : findings)
        out += formatFinding(f) + "\n";
    return out;
}

bool anyFinding(const std::vector<Finding>& findings, const std::string& needle)
{
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
        return f.message.find(needle) != std::string::npos;
    });
}

ResolveContext asOf(const std::string& date)
{
    ResolveContext context;
    context.frameworkAsOf = parseFrameworkDate(date);
    EXPECT_TRUE(context.frameworkAsOf) << date;
    return context;
}

// A config as the class-based schema (#1013, 2026-03-21) wrote them: no
// labels, no no_grad, no functions.
constexpr const char* kOldConfig = R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_ops.py
      unlisted_test_mode: skip
      tests:
        - names:
            - TestCommon::test_compare_cpu
          mode: mandatory_success
  global:
    supported_dtypes:
      - name: float16
)";

// A later config: TestEntry.no_grad, labels, a files entry's labels (set by
// run_test.sh's merge), cpu_move, and an edits.modules.include item whose
// tensor specs name the dtypes (oot_test_config_models.py@1591b63f).
constexpr const char* kNewConfig = R"(test_suite_config:
  labels: [core, full]
  files:
    - path: ${TORCH_DEVICE_ROOT}/tests/models/test_granite_modules.py
      unlisted_test_mode: skip
      labels: [core]
      tests:
        - names:
            - TestModule::test_forward
          mode: mandatory_success
          no_grad: true
          labels: [core]
          edits:
            functions:
              cpu_move:
                - name: assertEqual
            modules:
              include:
                - name: GraniteAttention
                  module_path: transformers.models.granite.modeling_granite.GraniteAttention
                  constructor_inputs:
                    args:
                      - model_id: ibm-granite/granite-3.3-8b-instruct
                    kwargs:
                      layer_idx: 0
                  forward_inputs:
                    - args: []
                      kwargs:
                        hidden_states:
                          tensor: {shape: [1, 7, 4096], dtype: torch.bfloat16}
                        position_ids:
                          tensor: {shape: [1, 7], dtype: int64, init: arange}
                        past_key_values:
                          cache:
                            cache_path: transformers.cache_utils.StaticCache
                            layer_idx: 0
                            config_path: transformers.GraniteConfig
                            key: {shape: [1, 8, 6, 128], dtype: float32}
                            value: {shape: [1, 8, 6, 128], dtype: float32}
                - name: GraniteMLP
                  module_path: transformers.models.granite.modeling_granite.GraniteMLP
                  sample_inputs_func:
                    args:
                      - tensor: {shape: [1, 7, 4096], dtype: float16}
                      - module_path: torch.nn.Identity
                - name: GraniteRMSNorm
                  module_path: transformers.models.granite.modeling_granite.GraniteRMSNorm
  global:
    supported_dtypes:
      - name: float16
      - name: bfloat16
)";

TEST(ConfigAges, AnOldConfigParsesAndNeedsNoNewerFramework)
{
    const ParsedConfig parsed = parseOk(kOldConfig);
    EXPECT_TRUE(parsed.findings.empty()) << allFindings(parsed.findings);
    EXPECT_TRUE(parsed.config.featureUses.empty());
    EXPECT_TRUE(lintConfig(parsed.config, {}).empty());
}

TEST(ConfigAges, EveryLaterFieldIsReadNotCalledIgnored)
{
    const ParsedConfig parsed = parseOk(kNewConfig);
    // no_grad was "unknown key ... ignores it" before (issue 34).
    EXPECT_TRUE(parsed.findings.empty()) << allFindings(parsed.findings);
    const TestEntry& entry = parsed.config.files.at(0).tests.at(0);
    EXPECT_TRUE(entry.noGrad);
    EXPECT_EQ(entry.labels, std::vector<std::string>{"core"});
    EXPECT_EQ(parsed.config.files[0].labels, std::vector<std::string>{"core"});
    EXPECT_EQ(entry.cpuMove, std::vector<std::string>{"assertEqual"});
    ASSERT_EQ(entry.moduleItems.size(), 3u);
    // resolved_input_dtypes: the floating dtypes of tensor/tensor_list specs,
    // args and kwargs; int64 position_ids and the cache's own key/value specs
    // do not count (_dtypes_from_input_arg / _dtypes_from_kwarg_value).
    EXPECT_EQ(entry.moduleItems[0].name, "GraniteAttention");
    EXPECT_EQ(entry.moduleItems[0].inputDtypes, std::vector<std::string>{"bfloat16"});
    // sample_inputs_func stands in when there is no forward_inputs.
    EXPECT_EQ(entry.moduleItems[1].inputDtypes, std::vector<std::string>{"float16"});
    EXPECT_TRUE(entry.moduleItems[2].inputDtypes.empty());
}

TEST(ConfigAges, RegisteredModuleDtypesDependOnTheFrameworkDate)
{
    const ParsedConfig parsed = parseOk(kNewConfig);
    const std::vector<ModuleItem>& items = parsed.config.files.at(0).tests.at(0).moduleItems;
    ASSERT_EQ(items.size(), 3u);
    // Later frameworks: the specs' dtypes; none found: float32, float16, bfloat16.
    EXPECT_EQ(registeredModuleDtypes(items[0], std::nullopt), std::vector<std::string>{"bfloat16"});
    EXPECT_EQ(registeredModuleDtypes(items[2], std::nullopt),
              (std::vector<std::string>{"bfloat16", "float16", "float32"}));
    // AdnanHoque/torch-spyre 539fd3b0 registers (float32, float16) whatever the specs say.
    EXPECT_EQ(registeredModuleDtypes(items[0], parseFrameworkDate("2026-07-01")),
              (std::vector<std::string>{"float16", "float32"}));
}

// @modules generates a registered module's variants only in its dtypes; the
// global supported_dtypes (float16, bfloat16 here) only filter further.
TEST(ConfigAges, AModuleVariantOutsideItsTensorSpecDtypesIsNotGenerated)
{
    const ParsedConfig parsed = parseOk(kNewConfig);
    const Resolver resolver(parsed.config);
    auto outcome = [&](const std::string& method, const ResolveContext& context = {}) {
        const VariantQuery query{
            "tests/models/test_granite_modules.py", "TestModulePRIVATEUSE1", method, {}, false};
        const Result<Resolution> r = resolver.resolve(query, context);
        EXPECT_TRUE(r) << r.message();
        return r ? r->droppedBy : DropStep::None;
    };
    EXPECT_EQ(outcome("test_forward_GraniteAttention_spyre_bfloat16"), DropStep::None);
    EXPECT_EQ(outcome("test_forward_GraniteAttention_spyre_float16"), DropStep::ModuleDtypes);
    EXPECT_EQ(outcome("test_forward_GraniteMLP_spyre_float16"), DropStep::None);
    EXPECT_EQ(outcome("test_forward_GraniteMLP_spyre_bfloat16"), DropStep::ModuleDtypes);
    // No tensor spec: float32, float16, bfloat16; float32 then falls to the global filter.
    EXPECT_EQ(outcome("test_forward_GraniteRMSNorm_spyre_float32"), DropStep::Dtype);
    // The framework of 2026-07-01 registered float32 and float16 whatever the specs say.
    EXPECT_EQ(outcome("test_forward_GraniteAttention_spyre_float16", asOf("2026-07-01")),
              DropStep::None);
    EXPECT_EQ(outcome("test_forward_GraniteAttention_spyre_bfloat16", asOf("2026-07-01")),
              DropStep::ModuleDtypes);
}

TEST(ConfigAges, InputArgKindsAreKnownAndABadOneFailsTheFile)
{
    const ParsedConfig parsed = parseOk(kNewConfig);
    std::vector<std::string> kinds;
    for (const FeatureUse& use : parsed.config.featureUses)
        if (use.feature == FrameworkFeature::InputArgKinds)
            kinds.push_back(use.detail);
    EXPECT_EQ(kinds, (std::vector<std::string>{"model_id", "cache", "module_path"}));

    // _parse_input_arg raises for a dict with none of its keys, and
    // InputTensorSpec forbids unknown keys: pydantic then refuses the file.
    const std::string bad =
        std::string(kOldConfig)
            .replace(
                std::string(kOldConfig).find("          mode: mandatory_success"), 0,
                "          edits:\n"
                "            ops:\n"
                "              include:\n"
                "                - name: add\n"
                "                  sample_inputs_func:\n"
                "                    args:\n"
                "                      - weights: 3\n"
                "                      - tensor: {shape: [2], dtype: float16, layout: strided}\n");
    const ParsedConfig refused = parseOk(bad);
    EXPECT_TRUE(refused.hasErrors());
    EXPECT_TRUE(anyFinding(refused.findings, "an input argument needs one of tensor"))
        << allFindings(refused.findings);
    EXPECT_TRUE(anyFinding(refused.findings, "unknown key 'layout'"))
        << allFindings(refused.findings);
}

TEST(ConfigAges, NoGradMustBeABool)
{
    std::string text = kOldConfig;
    text.replace(text.find("          mode: mandatory_success"), 0, "          no_grad: maybe\n");
    const ParsedConfig parsed = parseOk(text);
    EXPECT_TRUE(anyFinding(parsed.findings, "no_grad must be true or false"))
        << allFindings(parsed.findings);
}

TEST(ConfigAges, LintNamesTheFrameworkVersionEachFieldNeeds)
{
    const ParsedConfig parsed = parseOk(kNewConfig);
    const std::vector<Finding> lint = lintConfig(parsed.config, {});
    const std::string text = allFindings(lint);
    EXPECT_TRUE(anyFinding(lint, "uses `labels` (torch-spyre framework from 2026-07-01, #2923)"))
        << text;
    EXPECT_TRUE(
        anyFinding(lint, "uses `no_grad` (torch-spyre framework later than 2026-07-08, #3101)"))
        << text;
    EXPECT_TRUE(anyFinding(lint, "uses `edits.functions.cpu_move` (torch-spyre framework from "
                                 "2026-06-07, #2489)"))
        << text;
    EXPECT_TRUE(anyFinding(lint, "input arg `cache` (torch-spyre framework later than "
                                 "2026-07-01); an older framework refuses the whole file"))
        << text;
    // At its first use: the no_grad line.
    const auto noGrad = std::find_if(lint.begin(), lint.end(), [](const Finding& f) {
        return f.message.find("`no_grad`") != std::string::npos;
    });
    ASSERT_NE(noGrad, lint.end());
    EXPECT_EQ(noGrad->pos.line, test::lineOf(kNewConfig, "no_grad: true"));

    // Linted for a framework of 2026-06-30: labels are not there yet.
    const std::vector<Finding> old = lintConfig(parsed.config, {}, asOf("2026-06-30"));
    EXPECT_TRUE(anyFinding(old, "uses `labels` (torch-spyre framework from 2026-07-01, #2923): "
                                "the framework as of 2026-06-30 lacks it and ignores the key"))
        << allFindings(old);
}

TEST(ConfigAges, RealCorpusConfigsNameTheirFrameworkNeeds)
{
    // example_test_config.yaml uses suite labels (line 3) and cpu_move.
    const std::string example =
        test::readText(test::corpusConfigs() / "tests__configs__example_test_config.yaml");
    const ParsedConfig parsed = parseOk(example);
    EXPECT_FALSE(parsed.hasErrors()) << allFindings(parsed.findings);
    const std::vector<Finding> lint = lintConfig(parsed.config, {});
    EXPECT_TRUE(anyFinding(lint, "uses `labels`")) << allFindings(lint);
    EXPECT_TRUE(anyFinding(lint, "uses `edits.functions.cpu_move`")) << allFindings(lint);
    // test_reductions.yaml relies on edits.ops.exclude (spec 8, row 30).
    const std::string reductions = test::readText(
        test::corpusConfigs() / "tests__configs__upstream_tests_beta__test_reductions.yaml");
    const ParsedConfig r = parseOk(reductions);
    EXPECT_TRUE(anyFinding(lintConfig(r.config, {}),
                           "relies on edits.ops.exclude enforced (torch-spyre framework from "
                           "2026-07-01, #2981); an older framework runs the excluded ops"));
}

// spyre-config-semantics.md 8, row 30 (config R): `min` in edits.ops.exclude
// drops min_reduction_no_dim, from 2026-07-01 on; before #2981 it ran.
TEST(ConfigAges, OpsExcludeIsEnforcedOnlyFrom20260701)
{
    const std::string text = test::readText(
        test::corpusConfigs() / "tests__configs__upstream_tests_beta__test_reductions.yaml");
    const ParsedConfig parsed = parseOk(text);
    const Resolver resolver(parsed.config);
    const VariantQuery query{"test/test_reductions.py",
                             "TestReductionsPRIVATEUSE1",
                             "test_empty_tensor_nonempty_slice_min_reduction_no_dim_spyre_float16",
                             {"min"},
                             false};

    const Result<Resolution> now = resolver.resolve(query, {}, true);
    ASSERT_TRUE(now) << now.message();
    EXPECT_EQ(now->outcome, Outcome::Dropped);
    EXPECT_EQ(now->droppedBy, DropStep::OpExclude);
    const std::string steps = [&] {
        std::string out;
        for (const std::string& s : now->steps)
            out += s + "\n";
        return out;
    }();
    EXPECT_NE(steps.find("ops.exclude not enforced before 2026-07-01"), std::string::npos) << steps;

    const Result<Resolution> after = resolver.resolve(query, asOf("2026-07-01"));
    ASSERT_TRUE(after);
    EXPECT_EQ(after->outcome, Outcome::Dropped);

    const Result<Resolution> before = resolver.resolve(query, asOf("2026-06-30"), true);
    ASSERT_TRUE(before) << before.message();
    EXPECT_EQ(before->outcome, Outcome::MandatorySuccess);
    EXPECT_EQ(before->droppedBy, DropStep::None);
    ASSERT_FALSE(before->notes.empty());
    EXPECT_NE(before->notes.back().find("ops.exclude not enforced before 2026-07-01"),
              std::string::npos)
        << before->notes.back();
    // The sum variant (not excluded) is the same either way.
    const VariantQuery sum{"test/test_reductions.py",
                           "TestReductionsPRIVATEUSE1",
                           "test_empty_tensor_nonempty_slice_sum_spyre_float16",
                           {"sum"},
                           false};
    EXPECT_EQ(resolver.resolve(sum, asOf("2026-06-30"))->outcome, Outcome::MandatorySuccess);
    EXPECT_EQ(resolver.resolve(sum)->outcome, Outcome::MandatorySuccess);
}

TEST(ConfigAges, LabelsDoNotFilterBeforeTheyExisted)
{
    std::string text = kOldConfig;
    text.replace(text.find("          mode: mandatory_success"), 0,
                 "          labels: [nightly]\n");
    const ParsedConfig parsed = parseOk(text);
    const Resolver resolver(parsed.config);
    const VariantQuery query{
        "test/test_ops.py", "TestCommonPRIVATEUSE1", "test_compare_cpu_spyre_float16", {}, false};
    ResolveContext current;
    current.testType = "core";
    EXPECT_EQ(resolver.resolve(query, current)->droppedBy, DropStep::Labels);
    ResolveContext old = asOf("2026-06-30");
    old.testType = "core";
    EXPECT_EQ(resolver.resolve(query, old)->outcome, Outcome::MandatorySuccess);
}

TEST(ConfigAges, FrameworkDatesAreValidated)
{
    std::string error;
    EXPECT_FALSE(parseFrameworkDate("2026-7-1", &error));
    EXPECT_NE(error.find("YYYY-MM-DD"), std::string::npos);
    EXPECT_FALSE(parseFrameworkDate("2026-13-01"));
    EXPECT_TRUE(parseFrameworkDate("2026-07-01"));
    EXPECT_FALSE(frameworkHas(parseFrameworkDate("2026-07-08"), FrameworkFeature::NoGrad));
    EXPECT_TRUE(frameworkHas(parseFrameworkDate("2026-07-09"), FrameworkFeature::NoGrad));
    EXPECT_TRUE(frameworkHas(std::nullopt, FrameworkFeature::OpsExcludeRule));
}

// A JUnit file as mark_retried.py leaves it (torch-spyre/torch-spyre
// tests/oot_framework/utils/mark_retried.py@36c65c7a): `result.retried` is
// added to each testcase's <properties> (created as the first child when
// absent, beside run_test.sh's tag properties otherwise), one kind per
// whole-file retry, innermost first, comma-joined.
constexpr const char* kRetriedJunit = R"(<?xml version='1.0' encoding='utf-8'?>
<testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2" time="12.0">
<testcase classname="test.test_indexing.TestIndexingPRIVATEUSE1" name="test_index_put_spyre_float16" file="test/test_indexing.py" time="1.0"><properties><property name="result.retried" value="stall,signal" /></properties></testcase>
<testcase classname="test.test_indexing.TestIndexingPRIVATEUSE1" name="test_take_spyre_float16" file="test/test_indexing.py" time="1.0"><properties><property name="tag" value="op__take" /><property name="result.retried" value="pod" /></properties></testcase>
<testcase classname="test.test_indexing.TestIndexingPRIVATEUSE1" name="test_gather_spyre_float16" file="test/test_indexing.py" time="1.0" />
</testsuite></testsuites>
)";

TEST(ConfigAges, ResultRetriedIsReadAndStored)
{
    const Result<JunitReport> report = readJunitBuffer(kRetriedJunit);
    ASSERT_TRUE(report) << report.message();
    ASSERT_EQ(report->cases.size(), 3u);
    EXPECT_EQ(report->cases[0].retried, "stall,signal");
    EXPECT_EQ(report->cases[1].retried, "pod");
    EXPECT_TRUE(report->cases[1].marks.has(MarkKind::Op, "take"));
    EXPECT_EQ(report->cases[2].retried, "");

    using namespace relayhud::testing;
    auto cache = openCacheOk(":memory:");
    const std::string sha(40, 'a');
    const auto row =
        addRun(*cache, completedRun(sha, "Indexing", 1, Conclusion::Success, 100), 100);
    auto writer = TestResultStore(*cache).beginTestRun(
        {row, TestRunSource::Artifacts, "test_indexing.xml", "u"});
    ASSERT_TRUE(writer) << writer.message();
    for (const TestCaseResult& c : report->cases)
        ASSERT_TRUE((*writer)->add(c));
    ASSERT_TRUE((*writer)->commit({}));
    const auto run = TestResultStore(*cache).testRunForCheckRun(row);
    ASSERT_TRUE(run && *run);
    const auto stored = TestResultStore(*cache).testResults((*run)->id);
    ASSERT_TRUE(stored) << stored.message();
    std::map<std::string, std::string> retried;
    for (const StoredTestResult& r : *stored)
        retried[r.name] = r.retried;
    EXPECT_EQ(retried["test_index_put_spyre_float16"], "stall,signal");
    EXPECT_EQ(retried["test_take_spyre_float16"], "pod");
    EXPECT_EQ(retried["test_gather_spyre_float16"], "");
}

} // namespace
} // namespace relayhud::config
