// The simulator's outcome configs on disk: one file per reporting backend,
// written atomically, and a clear error where the folder cannot be written.
// (What they mean to the verdict is verdict_sim_test.cpp's part.)
#include "relayhud/sim/sim_configs.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace relayhud::sim {
namespace {

const SimDataset& smallWorld()
{
    static const SimDataset data = [] {
        SimConfig config;
        config.commits = 30;
        config.now = 1777914000;
        return buildDataset(config);
    }();
    return data;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

TEST(SimConfigs, FileNamesFollowTheRepository)
{
    EXPECT_EQ(outcomeConfigFileName("torch-spyre/torch-spyre"), "torch-spyre__torch-spyre.yaml");
    EXPECT_EQ(outcomeConfigFileName("Ascend/pytorch"), "Ascend__pytorch.yaml");
}

TEST(SimConfigs, OneConfigPerReportingBackend)
{
    const auto configs = outcomeConfigs(smallWorld());
    std::size_t reporting = 0;
    // The relay's probe repo reports no test counts, and TorchedHat writes no
    // JUnit at all (real-backends.md 1.4): neither has an outcome config.
    for (const Backend& b : smallWorld().backends)
        if (b.level != Level::L1 && b.repo != "pytorch/crcr-test"
            && b.repo != "TorchedHat/pytorch-redhat-ci") {
            ++reporting;
            ASSERT_EQ(configs.count(b.repo), 1U) << b.repo;
            EXPECT_EQ(configs.at(b.repo).find("test_suite_config:\n  labels: [trunk]\n  files:\n"),
                      configs.at(b.repo).find("test_suite_config:"));
        }
    EXPECT_EQ(configs.size(), reporting);
}

TEST(SimConfigs, WritesEveryConfigAndLeavesNoTemporaryFile)
{
    const relayhud::testing::ScratchDir dir("sim-configs");
    const std::string target = dir.file("nested/configs");
    auto written = writeOutcomeConfigs(smallWorld(), target);
    ASSERT_TRUE(written) << written.message();
    const auto configs = outcomeConfigs(smallWorld());
    ASSERT_EQ(written->size(), configs.size());
    for (const auto& [repo, path] : *written) {
        EXPECT_EQ(std::filesystem::path(path).parent_path(), std::filesystem::path(target));
        EXPECT_EQ(std::filesystem::path(path).filename(), outcomeConfigFileName(repo));
        EXPECT_EQ(readAll(path), configs.at(repo));
    }
    // Written again over the old files: same bytes, still no stray files.
    ASSERT_TRUE(writeOutcomeConfigs(smallWorld(), target));
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(target)) {
        EXPECT_EQ(entry.path().extension(), ".yaml") << entry.path();
        ++files;
    }
    EXPECT_EQ(files, configs.size());
}

TEST(SimConfigs, AFolderThatCannotBeCreatedIsAClearError)
{
    const relayhud::testing::ScratchDir dir("sim-configs");
    const std::string blocker = dir.write("a-file", "not a folder");
    auto written = writeOutcomeConfigs(smallWorld(), blocker + "/configs");
    ASSERT_FALSE(written);
    EXPECT_NE(written.message().find("cannot create the config folder"), std::string::npos)
        << written.message();
    EXPECT_NE(written.message().find(blocker), std::string::npos) << written.message();
}

TEST(SimConfigs, AFileThatCannotBeReplacedIsNamed)
{
    const relayhud::testing::ScratchDir dir("sim-configs");
    // A folder where a config file should go: the rename cannot replace it.
    const std::string target = dir.file(outcomeConfigFileName("spyre-labs/spyre-inductor-ci"));
    std::filesystem::create_directories(target + "/keep");
    auto written = writeOutcomeConfigs(smallWorld(), dir.path().string());
    ASSERT_FALSE(written);
    EXPECT_NE(written.message().find(target), std::string::npos) << written.message();
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos)
            << "a temporary file was left: " << entry.path();
}

} // namespace
} // namespace relayhud::sim
