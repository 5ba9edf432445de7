// Writing a config back: atomic, never over a read-only file or one that
// changed since it was loaded, never a text that does not parse.
#include "config_test_util.h"

#include "relayhud/config/config_file.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

using namespace relayhud::config::test;

const std::string kConfig = "test_suite_config:\n"
                            "  files:\n"
                            "    - path: ${TORCH_ROOT}/test/test_x.py\n";

TEST(ConfigFileTest, SavesAtomicallyAndLeavesNoTemporaryFile)
{
    TempDir dir;
    const auto path = dir.path() / "c.yaml";
    writeText(path, kConfig);
    Result<LoadedConfig> loaded = loadConfigFile(path.string());
    ASSERT_TRUE(loaded) << loaded.message();
    const std::string edited = kConfig + "      unlisted_test_mode: skip\n";
    ASSERT_TRUE(saveConfigFile(*loaded, edited));
    EXPECT_EQ(readText(path), edited);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
        ++files;
    EXPECT_EQ(files, 1u);
}

// A config linked into place is edited where it lives: the link stays a
// link, the file keeps its mode.
TEST(ConfigFileTest, ASymlinkedConfigIsWrittenThroughItsLinkNotReplaced)
{
    TempDir dir;
    const auto real = dir.path() / "checkout" / "ops.yaml";
    std::filesystem::create_directories(real.parent_path());
    writeText(real, kConfig);
    std::filesystem::permissions(
        real, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write
                  | std::filesystem::perms::group_read | std::filesystem::perms::group_write);
    const auto link = dir.path() / "ops.yaml";
    std::filesystem::create_symlink(real, link);
    Result<LoadedConfig> loaded = loadConfigFile(link.string());
    ASSERT_TRUE(loaded) << loaded.message();
    const std::string edited = kConfig + "      unlisted_test_mode: skip\n";
    Result<void> saved = saveConfigFile(*loaded, edited);
    ASSERT_TRUE(saved) << saved.message();
    EXPECT_TRUE(std::filesystem::is_symlink(link)) << "the link was replaced by a file";
    EXPECT_EQ(readText(real), edited);
    EXPECT_EQ(readText(link), edited);
    EXPECT_EQ(std::filesystem::status(real).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write
                  | std::filesystem::perms::group_read | std::filesystem::perms::group_write);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry :
         std::filesystem::directory_iterator(real.parent_path()))
        ++files;
    EXPECT_EQ(files, 1u) << "no temporary file left beside the target";
}

TEST(ConfigFileTest, ReadOnlyFileIsRefusedAndUntouched)
{
    TempDir dir;
    const auto path = dir.path() / "c.yaml";
    writeText(path, kConfig);
    std::filesystem::permissions(path, std::filesystem::perms::owner_read
                                           | std::filesystem::perms::group_read);
    Result<LoadedConfig> loaded = loadConfigFile(path.string());
    ASSERT_TRUE(loaded);
    Result<void> saved = saveConfigFile(*loaded, kConfig + "      unlisted_test_mode: skip\n");
    ASSERT_FALSE(saved);
    EXPECT_NE(saved.message().find("read-only"), std::string::npos) << saved.message();
    EXPECT_EQ(readText(path), kConfig);
}

TEST(ConfigFileTest, FileChangedUnderneathIsRefused)
{
    TempDir dir;
    const auto path = dir.path() / "c.yaml";
    writeText(path, kConfig);
    Result<LoadedConfig> loaded = loadConfigFile(path.string());
    ASSERT_TRUE(loaded);
    const std::string theirs = kConfig + "      unlisted_test_mode: xfail\n";
    writeText(path, theirs);
    Result<void> saved = saveConfigFile(*loaded, kConfig + "      unlisted_test_mode: skip\n");
    ASSERT_FALSE(saved);
    EXPECT_NE(saved.message().find("changed on disk"), std::string::npos) << saved.message();
    EXPECT_EQ(readText(path), theirs);
}

TEST(ConfigFileTest, TextThatDoesNotParseIsNeverWritten)
{
    TempDir dir;
    const auto path = dir.path() / "c.yaml";
    writeText(path, kConfig);
    Result<LoadedConfig> loaded = loadConfigFile(path.string());
    ASSERT_TRUE(loaded);
    Result<void> saved = saveConfigFile(*loaded, kConfig + "  - [unclosed\n");
    ASSERT_FALSE(saved);
    EXPECT_NE(saved.message().find("does not parse"), std::string::npos);
    EXPECT_EQ(readText(path), kConfig);
}

TEST(ConfigFileTest, MissingFileIsAnError)
{
    TempDir dir;
    Result<LoadedConfig> loaded = loadConfigFile((dir.path() / "none.yaml").string());
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.message().find("cannot open"), std::string::npos);
}

} // namespace
} // namespace relayhud::config
