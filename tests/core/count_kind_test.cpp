// What each known backend's counts count: the table of model/count_kind.h,
// its facts from ../shared/specs/real-backends.md sections 1.3-1.5.
#include "relayhud/model/count_kind.h"

#include <gtest/gtest.h>

namespace {

using namespace relayhud;

TEST(CountKind, KnownBackendsAreLabelledWithTheirSource)
{
    // 1.5/3.2: the report job counts the JUnit XML.
    EXPECT_EQ(countKindOf("torch-spyre/torch-spyre").kind, CountKind::TestCases);
    // 1.4: "Pass/fail counts are command counts (one per test command)".
    EXPECT_EQ(countKindOf("TorchedHat/pytorch-redhat-ci").kind, CountKind::TestCommands);
    // 1.3: "counts are health-check outcomes, not tests".
    EXPECT_EQ(countKindOf("pytorch/crcr-test").kind, CountKind::HealthChecks);
    for (const char* repo :
         {"torch-spyre/torch-spyre", "TorchedHat/pytorch-redhat-ci", "pytorch/crcr-test"})
        EXPECT_NE(countKindOf(repo).source.find("real-backends.md"), std::string_view::npos)
            << repo;
    // The allowlist's lookups ignore case (test-infra torchci/lib/crcrAllowlist.ts L40-48).
    EXPECT_EQ(countKindOf("torchedhat/PyTorch-RedHat-CI").kind, CountKind::TestCommands);
}

TEST(CountKind, OtherBackendsAreUnknownAndStillCompared)
{
    const CountKindEntry e = countKindOf("Ascend/pytorch");
    EXPECT_EQ(e.kind, CountKind::Unknown);
    EXPECT_TRUE(e.source.empty());
    EXPECT_EQ(countKindName(e.kind), "test counts");
    EXPECT_TRUE(comparableWithJUnit(CountKind::Unknown));
    EXPECT_TRUE(comparableWithJUnit(CountKind::TestCases));
    EXPECT_FALSE(comparableWithJUnit(CountKind::TestCommands));
    EXPECT_FALSE(comparableWithJUnit(CountKind::HealthChecks));
    EXPECT_EQ(countKindName(CountKind::HealthChecks), "health checks");
    EXPECT_EQ(countKindName(CountKind::TestCommands), "test commands");
}

} // namespace
