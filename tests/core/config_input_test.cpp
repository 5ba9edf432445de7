// Bad input for the outcome-config reader: each refusal or finding says
// where (line:column) and what to do.
#include "relayhud/config/outcome_config.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

const Finding* findingWith(const ParsedConfig& parsed, const std::string& text)
{
    for (const Finding& finding : parsed.findings)
        if (finding.message.find(text) != std::string::npos)
            return &finding;
    return nullptr;
}

const std::string kHeader = "test_suite_config:\n"
                            "  files:\n"
                            "    - path: ${TORCH_ROOT}/test/test_x.py\n"
                            "      unlisted_test_mode: skip\n"
                            "      tests:\n";

TEST(ConfigInputTest, SyntaxErrorNamesLineAndColumn)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(kHeader
                                                     + "        - names: [a, b\n"
                                                       "          mode: skip\n");
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.message().find("YAML syntax error at "), std::string::npos)
        << parsed.message();
    EXPECT_TRUE(parsed.message().find(" at 7:") != std::string::npos
                || parsed.message().find(" at 6:") != std::string::npos)
        << parsed.message();
}

TEST(ConfigInputTest, AliasBombIsRefusedBeforeExpansion)
{
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char level = 'b'; level <= 'j'; ++level) {
        const char previous = static_cast<char>(level - 1);
        bomb += std::string(1, level) + ": &" + level + " [";
        for (int i = 0; i < 10; ++i)
            bomb += std::string(i ? ", *" : "*") + previous;
        bomb += "]\n";
    }
    Result<ParsedConfig> parsed = parseOutcomeConfig(bomb);
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.message().find("alias"), std::string::npos) << parsed.message();
}

TEST(ConfigInputTest, DuplicateKeysAreErrorsWithPosition)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(kHeader
                                                     + "        - names:\n"
                                                       "            - TestX::test_a\n"
                                                       "          mode: skip\n"
                                                       "          mode: xfail\n");
    ASSERT_TRUE(parsed) << parsed.message();
    const Finding* duplicate = findingWith(*parsed, "duplicate key 'mode'");
    ASSERT_NE(duplicate, nullptr);
    EXPECT_EQ(duplicate->severity, Severity::Error);
    EXPECT_EQ(duplicate->pos.line, 9u);
    EXPECT_EQ(duplicate->pos.column, 11u);
}

TEST(ConfigInputTest, TabsInIndentationAreRefusedWithPosition)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig("test_suite_config:\n\tfiles: []\n");
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.message().find("2:1"), std::string::npos) << parsed.message();
    EXPECT_NE(parsed.message().find("tab"), std::string::npos);
}

TEST(ConfigInputTest, NonUtf8IsRefusedWithPosition)
{
    Result<ParsedConfig> parsed =
        parseOutcomeConfig("test_suite_config:\n  labels: [a]\n  # caf\xe9\n  files: []\n");
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.message().find("UTF-8 at 3:8"), std::string::npos) << parsed.message();
}

TEST(ConfigInputTest, UnknownModeKeyAndDtypeAreFindings)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(kHeader
                                                     + "        - names:\n"
                                                       "            - TestX::test_a\n"
                                                       "          mode: xfial\n"
                                                       "          mdoe: skip\n"
                                                       "          edits:\n"
                                                       "            dtypes:\n"
                                                       "              include:\n"
                                                       "                - name: float17\n");
    ASSERT_TRUE(parsed) << parsed.message();
    EXPECT_TRUE(parsed->hasErrors());
    const Finding* mode = findingWith(*parsed, "unknown mode 'xfial'");
    ASSERT_NE(mode, nullptr);
    EXPECT_EQ(mode->pos.line, 8u);
    EXPECT_EQ(mode->pos.column, 17u);
    const Finding* key = findingWith(*parsed, "unknown key 'mdoe'");
    ASSERT_NE(key, nullptr);
    EXPECT_EQ(key->pos.line, 9u);
    const Finding* dtype = findingWith(*parsed, "unknown dtype 'float17'");
    ASSERT_NE(dtype, nullptr);
    EXPECT_EQ(dtype->pos.line, 13u);
}

TEST(ConfigInputTest, DuplicateNamesAreWarningsPointingAtTheFirst)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(kHeader
                                                     + "        - names:\n"
                                                       "            - TestX::test_a\n"
                                                       "        - names:\n"
                                                       "            - TestX::test_a\n"
                                                       "          mode: xfail\n");
    ASSERT_TRUE(parsed);
    EXPECT_FALSE(parsed->hasErrors());
    const Finding* duplicate = findingWith(*parsed, "listed again (first at line 7)");
    ASSERT_NE(duplicate, nullptr);
    EXPECT_EQ(duplicate->pos.line, 9u);
    EXPECT_EQ(formatFinding(*duplicate).rfind("9:15: warning: ", 0), 0u);
}

TEST(ConfigInputTest, ModelKeepsEveryDocumentedKey)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(
        "test_suite_config:\n"
        "  labels: [trunk, unit]\n"
        "  files:\n"
        "    - path: ${TORCH_DEVICE_ROOT}/tests/test_y.py\n"
        "      unlisted_test_mode: xfail_strict\n"
        "      tests:\n"
        "        - names: [TestY::test_a, 'TestY::test_b*']\n"
        "          tags: [model_1]\n"
        "          labels: [nightly]\n"
        "          edits:\n"
        "            ops: {include: [{name: add}], exclude: [{name: mul}]}\n"
        "            modules: {include: [{name: Linear}]}\n"
        "            functions: {cpu_move: [{name: assertEqual}]}\n"
        "  global:\n"
        "    supported_dtypes: [{name: float16, precision: {atol: 1e-3, rtol: 1e-3}}]\n"
        "    supported_ops: [add, {name: mul, force_xfail: true, dtypes: [{name: float16}]}]\n"
        "    supported_modules: [Linear]\n");
    ASSERT_TRUE(parsed) << parsed.message();
    for (const Finding& finding : parsed->findings)
        ADD_FAILURE() << formatFinding(finding);
    const OutcomeConfig& config = parsed->config;
    EXPECT_EQ(config.labels, (std::vector<std::string>{"trunk", "unit"}));
    ASSERT_EQ(config.files.size(), 1u);
    EXPECT_EQ(config.files[0].unlistedMode, Mode::XfailStrict);
    ASSERT_EQ(config.files[0].tests.size(), 1u);
    const TestEntry& entry = config.files[0].tests[0];
    ASSERT_EQ(entry.names.size(), 2u);
    EXPECT_FALSE(entry.names[0].regex);
    EXPECT_TRUE(entry.names[1].regex);
    EXPECT_EQ(entry.names[1].method, "test_b*");
    EXPECT_EQ(entry.names[1].classPart, "TestY");
    EXPECT_EQ(entry.tags, std::vector<std::string>{"model_1"});
    EXPECT_EQ(entry.labels, std::vector<std::string>{"nightly"});
    EXPECT_EQ(entry.modules.include, std::vector<std::string>{"Linear"});
    EXPECT_EQ(entry.names[1].pos.line, 7u);
    EXPECT_EQ(entry.ops.include, std::vector<std::string>{"add"});
    EXPECT_EQ(entry.ops.exclude, std::vector<std::string>{"mul"});
    EXPECT_NE(entry.signature.find("functions"), std::string::npos);
    ASSERT_EQ(config.global.supportedOps.size(), 2u);
    EXPECT_TRUE(config.global.supportedOps[1].forceXfail);
    EXPECT_EQ(config.global.supportedOps[1].dtypes, std::vector<std::string>{"float16"});
    EXPECT_EQ(config.global.supportedModules.size(), 1u);
}

// What torch-spyre's framework accepts is what the reader accepts: `half`
// and a single-string `names`; unknown keys are ignored there, so they are
// warnings here; what its validation refuses is an error with its position.
TEST(ConfigInputTest, TheFrameworksValidationRulesAreFollowed)
{
    Result<ParsedConfig> parsed =
        parseOutcomeConfig(kHeader
                           + "        - names: TestX::test_single\n"
                             "          mode: xfail\n"
                             "          owner: spyre-team\n"
                             "        - names:\n"
                             "            - TestX::Inner::test_three_parts\n"
                             "            - ::test_empty_class\n"
                             "          edits:\n"
                             "            dtypes:\n"
                             "              include: [float16]\n"
                             "  global:\n"
                             "    supported_dtypes: [{name: half}, {name: float8_e4m3fn}]\n"
                             "    supported_ops: [add]\n");
    ASSERT_TRUE(parsed) << parsed.message();
    const OutcomeConfig& config = parsed->config;
    ASSERT_EQ(config.files[0].tests.size(), 2u);
    ASSERT_EQ(config.files[0].tests[0].names.size(), 1u);
    EXPECT_EQ(config.files[0].tests[0].names[0].method, "test_single");
    // No TestEntry of any age has `owner` (no_grad is a field since #3101:
    // config_ages_test.cpp).
    const Finding* unknown = findingWith(*parsed, "unknown key 'owner'");
    ASSERT_NE(unknown, nullptr);
    EXPECT_EQ(unknown->severity, Severity::Warning);
    EXPECT_EQ(unknown->pos.line, 8u);
    const Finding* parts = findingWith(*parsed, "'TestX::Inner::test_three_parts' is not");
    ASSERT_NE(parts, nullptr);
    EXPECT_EQ(parts->severity, Severity::Error);
    EXPECT_EQ(parts->pos.line, 10u);
    EXPECT_EQ(parts->pos.column, 15u);
    EXPECT_NE(findingWith(*parsed, "'::test_empty_class' is not"), nullptr);
    const Finding* bare = findingWith(*parsed, "items must be written `- name: float16`");
    ASSERT_NE(bare, nullptr);
    EXPECT_EQ(bare->pos.line, 14u);
    EXPECT_EQ(findingWith(*parsed, "unknown dtype 'half'"), nullptr);
    const Finding* float8 = findingWith(*parsed, "unknown dtype 'float8_e4m3fn'");
    ASSERT_NE(float8, nullptr);
    EXPECT_EQ(float8->pos.line, 16u);
    EXPECT_EQ(config.global.supportedOps.size(), 1u); // bare op names are fine
}

// The reader reads YAML as PyYAML's safe_load does (what the framework
// calls): YAML 1.1 booleans, plain null, the last of repeated keys; and
// refuses what safe_load refuses, with a position.
TEST(ConfigInputTest, YamlIsReadAsPyYamlReadsIt)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(kHeader
                                                     + "        - names: [TestX::test_a]\n"
                                                       "  global:\n"
                                                       "    supported_dtypes:\n"
                                                       "      - name: float16\n"
                                                       "        force_xfail: yes\n"
                                                       "      - name: float32\n"
                                                       "        force_xfail: 'true'\n"
                                                       "    supported_ops: ~\n");
    ASSERT_TRUE(parsed) << parsed.message();
    const GlobalSection& global = parsed->config.global;
    ASSERT_EQ(global.supportedDtypes.size(), 2u);
    EXPECT_TRUE(global.supportedDtypes[0].forceXfail); // YAML 1.1: yes is true
    EXPECT_TRUE(global.supportedDtypes[1].forceXfail);
    EXPECT_TRUE(global.supportedOps.empty()); // null: no list, no filter

    Result<ParsedConfig> twoDocs =
        parseOutcomeConfig(kHeader + "        - names: [a]\n---\nx: 1\n");
    ASSERT_FALSE(twoDocs);
    EXPECT_NE(twoDocs.message().find("more than one document"), std::string::npos)
        << twoDocs.message();

    Result<ParsedConfig> unknownAlias = parseOutcomeConfig(kHeader + "        - names: *nope\n");
    ASSERT_FALSE(unknownAlias);
    EXPECT_NE(unknownAlias.message().find("6:"), std::string::npos) << unknownAlias.message();

    Result<ParsedConfig> cut = parseOutcomeConfig(kHeader + "        - names: ['unclosed\n");
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.message().rfind("YAML syntax error at ", 0), 0u) << cut.message();
}

TEST(ConfigInputTest, AnEmptyDocumentHasNoSuiteAndSaysSo)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig("");
    ASSERT_TRUE(parsed) << parsed.message();
    ASSERT_TRUE(parsed->hasErrors());
    EXPECT_NE(parsed->findings[0].message.find("test_suite_config"), std::string::npos)
        << formatFinding(parsed->findings[0]);
}

} // namespace
} // namespace relayhud::config
