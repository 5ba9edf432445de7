// YAML nested without end (issue 35): libyaml's scanner does work in
// proportion to the depth for every token, so `[[[...` 40,000 deep took 4.3 s
// and a million deep (2 MB) ran past 120 s, in `config validate` and `doctor`
// alike. Now the depth is checked as libyaml's events stream, and both refuse
// such a file at once, saying where and why.
#include "relayhud/config/outcome_config.h"
#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/yaml/yaml_tree.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace relayhud;

namespace {

constexpr std::size_t kMillion = 1'000'000;

std::string deepFlow(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']') + "\n";
}

template <class Read>
std::chrono::milliseconds timed(Read read)
{
    const auto start = std::chrono::steady_clock::now();
    read();
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now()
                                                                 - start);
}

} // namespace

TEST(YamlDepth, AMillionDeepOutcomeConfigIsRefusedAtOnce)
{
    const std::string text = "model_ops:\n  ops: " + deepFlow(kMillion);
    Result<config::ParsedConfig> parsed = makeError("not run");
    const auto took = timed([&] { parsed = config::parseOutcomeConfig(text); });
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.message().find("YAML error at 2:"), std::string::npos) << parsed.message();
    EXPECT_NE(parsed.message().find("nested deeper than 256 levels; refused"), std::string::npos)
        << parsed.message();
    EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(YamlDepth, AMillionDeepWorkflowIsRefusedAtOnce)
{
    const std::string text = "name: ci\non: push\njobs: " + deepFlow(kMillion);
    Result<doctor::WorkflowLint> lint = makeError("not run");
    const auto took = timed([&] { lint = doctor::lintWorkflow(text); });
    ASSERT_FALSE(lint);
    EXPECT_NE(lint.message().find("nested deeper than 256 levels; refused"), std::string::npos)
        << lint.message();
    EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(YamlDepth, BlockNestingCountsToo)
{
    std::string text;
    for (std::size_t i = 0; i < 300; ++i)
        text += std::string(i * 2, ' ') + "k" + std::to_string(i) + ":\n";
    auto doc = yaml::parseYaml(text);
    ASSERT_FALSE(doc);
    EXPECT_NE(doc.message().find("nested deeper than 256 levels"), std::string::npos);
}

TEST(YamlDepth, NestingUpToTheLimitIsRead)
{
    auto doc = yaml::parseYaml(deepFlow(256));
    ASSERT_TRUE(doc) << doc.message();
    EXPECT_TRUE(doc->root().isSequence());
    yaml::YamlLimits shallow;
    shallow.maxDepth = 3;
    EXPECT_FALSE(yaml::parseYaml("a: [[[1]]]\n", shallow));
    EXPECT_TRUE(yaml::parseYaml("a: [[1]]\n", shallow));
}
