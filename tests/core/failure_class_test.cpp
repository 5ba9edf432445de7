// The failure-class table (model/failure_class.h): the one place a class is
// named, stored, offered to people and rules, and placed in reports.
#include "relayhud/model/failure_class.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace relayhud::triage {
namespace {

TEST(FailureClassTable, StoredCodesNeverMove)
{
    // Caches written by every earlier version store these numbers
    // (triage_tag.class, job_failure_line.class); renumbering one would
    // re-class every tag on disk.
    const std::pair<FailureClass, std::int64_t> stored[] = {
        {FailureClass::Unset, 0},          {FailureClass::Regression, 1},
        {FailureClass::PreExisting, 2},    {FailureClass::Flaky, 3},
        {FailureClass::Infra, 4},          {FailureClass::BackendBug, 5},
        {FailureClass::TestOrConfig, 6},   {FailureClass::Expected, 7},
        {FailureClass::UnexpectedPass, 8}, {FailureClass::Untriaged, 9},
    };
    for (const auto& [cls, code] : stored) {
        EXPECT_EQ(storedClass(cls), code);
        EXPECT_EQ(classFromStored(code), cls);
    }
    // A class added later takes the next number: every row is its own code.
    for (const FailureClassInfo& info : failureClasses())
        EXPECT_EQ(classFromStored(storedClass(info.value)), info.value);
}

TEST(FailureClassTable, AnUnknownStoredNumberReadsAsNotTriaged)
{
    // A newer RelayHUD's class, or a damaged row: Unset, never a guess.
    const auto firstUnknown = static_cast<std::int64_t>(failureClasses().size());
    for (const std::int64_t code : {std::int64_t{-1}, firstUnknown, firstUnknown + 1,
                                    std::int64_t{256}, std::int64_t{1} << 40})
        EXPECT_EQ(classFromStored(code), FailureClass::Unset) << code;
    EXPECT_FALSE(isKnownClass(static_cast<FailureClass>(200)));
    EXPECT_EQ(failureClassName(static_cast<FailureClass>(200)), "");
}

TEST(FailureClassTable, EveryNamedClassParsesBackFromItsNameAndSlug)
{
    std::set<std::string> names;
    for (const FailureClassInfo& info : failureClasses()) {
        if (info.value == FailureClass::Unset) {
            EXPECT_EQ(info.name, "");
            continue;
        }
        EXPECT_TRUE(names.insert(std::string(info.name)).second) << info.name;
        const bool tagMayCarry = info.taggable || info.value == FailureClass::Untriaged;
        EXPECT_EQ(parseTagClass(info.name).has_value(), tagMayCarry) << info.name;
        if (tagMayCarry) {
            EXPECT_EQ(parseTagClass(failureClassSlug(info.value)), info.value);
            EXPECT_EQ(failureClassInfo(info.value).value, info.value);
        }
    }
    EXPECT_EQ(failureClassSlug(FailureClass::BackendBug), "backend-bug");
    EXPECT_EQ(parseTagClass("PRE_EXISTING"), FailureClass::PreExisting);
    EXPECT_FALSE(parseTagClass(""));
}

TEST(FailureClassTable, PeopleTagEightClassesAndRulesImplyThree)
{
    const std::vector<FailureClass> menu{FailureClass::Regression, FailureClass::PreExisting,
                                         FailureClass::Flaky,      FailureClass::Infra,
                                         FailureClass::BackendBug, FailureClass::TestOrConfig,
                                         FailureClass::Expected,   FailureClass::UnexpectedPass};
    // These eight first, in this order (a class added later goes after them).
    const std::vector<FailureClass> taggable = taggableClasses();
    ASSERT_GE(taggable.size(), menu.size());
    EXPECT_TRUE(std::equal(menu.begin(), menu.end(), taggable.begin()));
    EXPECT_EQ(tagClassNames().rfind("regression, pre-existing, flaky, infra, backend bug, test or "
                                    "config, expected, unexpected pass, untriaged",
                                    0),
              0U)
        << tagClassNames();
    // A log line alone can tell these; a regression needs a baseline.
    EXPECT_EQ(parseRuleClass("infra"), FailureClass::Infra);
    EXPECT_EQ(parseRuleClass("Backend_Bug"), FailureClass::BackendBug);
    EXPECT_EQ(parseRuleClass("test-or-config"), FailureClass::TestOrConfig);
    for (const char* notARuleClass : {"regression", "flaky", "pre-existing", "untriaged", ""})
        EXPECT_FALSE(parseRuleClass(notARuleClass)) << notARuleClass;
}

TEST(FailureClassTable, ReportSections)
{
    EXPECT_EQ(failureClassInfo(FailureClass::Regression).section, ReportSection::Regression);
    EXPECT_EQ(failureClassInfo(FailureClass::PreExisting).section, ReportSection::Broken);
    EXPECT_EQ(failureClassInfo(FailureClass::BackendBug).section, ReportSection::Backend);
    EXPECT_EQ(failureClassInfo(FailureClass::Flaky).section, ReportSection::Flaky);
    EXPECT_EQ(failureClassInfo(FailureClass::Infra).section, ReportSection::Infra);
    for (const FailureClass other :
         {FailureClass::Unset, FailureClass::TestOrConfig, FailureClass::Expected,
          FailureClass::UnexpectedPass, FailureClass::Untriaged})
        EXPECT_EQ(failureClassInfo(other).section, ReportSection::Other);
}

} // namespace
} // namespace relayhud::triage
