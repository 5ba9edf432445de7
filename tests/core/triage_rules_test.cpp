// Loading rule files: pytorch's format, our `class` key, and bad input named
// by file and line while the good rules still load.
#include "relayhud/triage/rule_set.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace relayhud::triage;

namespace {

std::vector<std::string> names(const RuleSet& set)
{
    std::vector<std::string> out;
    for (const auto& rule : set.rules())
        out.push_back(rule.name);
    return out;
}

// The one problem of `set`, which must mention `part`.
void expectOneProblem(const RuleSet& set, std::size_t line, const std::string& part)
{
    ASSERT_EQ(set.problems().size(), 1u);
    const auto& problem = set.problems().front();
    EXPECT_EQ(problem.file, "rules.toml");
    EXPECT_EQ(problem.line, line) << problem.describe();
    EXPECT_NE(problem.describe().find(part), std::string::npos) << problem.describe();
    EXPECT_EQ(problem.describe().rfind("rules.toml:" + std::to_string(line) + ": ", 0), 0u);
}

constexpr const char* kGood = R"([[rule]]
name = 'first'
pattern = '^first (\w+)'
class = 'infra'

[[rule]]
name = 'second'
pattern = 'second'
)";

} // namespace

TEST(TriageRules, LoadsInFileOrderWithClassAndLines)
{
    RuleSet set;
    set.addText(kGood, "rules.toml");
    EXPECT_TRUE(set.problems().empty());
    ASSERT_EQ(names(set), (std::vector<std::string>{"first", "second"}));
    EXPECT_EQ(set.rules()[0].impliedClass, FailureClass::Infra);
    EXPECT_EQ(set.rules()[1].impliedClass, FailureClass::Unset);
    EXPECT_EQ(set.rules()[0].line, 3u);
    EXPECT_EQ(set.rules()[1].line, 8u);
    EXPECT_EQ(set.rules()[0].pattern, "^first (\\w+)");
}

TEST(TriageRules, SeveralFilesAppendInOrder)
{
    RuleSet set;
    set.addText(kGood, "rules.toml");
    set.addText("[[rule]]\nname = 'third'\npattern = 'x'\nclass = 'backend-bug'\n", "more.toml");
    EXPECT_EQ(names(set), (std::vector<std::string>{"first", "second", "third"}));
    EXPECT_EQ(set.rules()[2].file, "more.toml");
    EXPECT_EQ(set.rules()[2].impliedClass, FailureClass::BackendBug);
}

TEST(TriageRules, InvalidPatternIsNamedAndTheRestLoads)
{
    RuleSet set;
    set.addText(std::string(kGood) + "[[rule]]\nname = 'broken'\npattern = 'a(b'\n", "rules.toml");
    expectOneProblem(set, 11, "rule 'broken': invalid pattern: missing )");
    EXPECT_EQ(names(set), (std::vector<std::string>{"first", "second"}));
}

TEST(TriageRules, LookAroundIsNamed)
{
    RuleSet set;
    set.addText("[[rule]]\nname = 'ahead'\npattern = 'foo(?=bar)'\n" + std::string(kGood),
                "rules.toml");
    expectOneProblem(set, 3, "look-around");
    EXPECT_EQ(names(set), (std::vector<std::string>{"first", "second"}));
    RuleSet behind;
    behind.addText("[[rule]]\nname = 'behind'\npattern = '(?<!x)y'\n", "rules.toml");
    expectOneProblem(behind, 3, "look-around ((?<!...)");
}

TEST(TriageRules, BackReferenceIsNamed)
{
    RuleSet set;
    set.addText(std::string(kGood) + "\n[[rule]]\nname = 'twice'\npattern = '(a)\\1'\n",
                "rules.toml");
    expectOneProblem(set, 12, "back-references (\\1)");
    EXPECT_EQ(set.size(), 2u);
}

TEST(TriageRules, TomlSyntaxErrorLosesOnlyItsTable)
{
    RuleSet set;
    set.addText(std::string(kGood) + "\n[[rule]]\nname = 'bad\npattern = 'x'\n\n"
                    + "[[rule]]\nname = 'after'\npattern = 'after'\n",
                "rules.toml");
    expectOneProblem(set, 11, "TOML");
    EXPECT_EQ(names(set), (std::vector<std::string>{"first", "second", "after"}));
}

TEST(TriageRules, EmptyFileIsNamed)
{
    RuleSet set;
    set.addText(" \n\n", "rules.toml");
    expectOneProblem(set, 1, "empty");
    EXPECT_TRUE(set.empty());
    RuleSet commentsOnly;
    commentsOnly.addText("# nothing here\n", "rules.toml");
    expectOneProblem(commentsOnly, 1, "no [[rule]]");
}

TEST(TriageRules, DuplicateNameIsNamedAndKeptBehindTheFirst)
{
    RuleSet set;
    set.addText(std::string(kGood) + "\n[[rule]]\nname = 'first'\npattern = 'other'\n",
                "rules.toml");
    expectOneProblem(set, 12, "duplicate rule name 'first' (first defined at rules.toml:3)");
    EXPECT_TRUE(set.problems()[0].ruleKept);
    EXPECT_EQ(names(set), (std::vector<std::string>{"first", "second", "first"}));
    EXPECT_EQ(set.rules()[0].pattern, "^first (\\w+)");
    EXPECT_EQ(set.rules()[2].pattern, "other");
}

TEST(TriageRules, MissingKeysAndUnknownClassAreNamed)
{
    RuleSet noPattern;
    noPattern.addText(std::string(kGood) + "\n[[rule]]\nname = 'lonely'\n", "rules.toml");
    expectOneProblem(noPattern, 10, "rule 'lonely' has no 'pattern'");
    EXPECT_EQ(noPattern.size(), 2u);

    RuleSet noName;
    noName.addText("[[rule]]\npattern = 'x'\n" + std::string(kGood), "rules.toml");
    expectOneProblem(noName, 1, "without a name");
    EXPECT_EQ(noName.size(), 2u);

    RuleSet regression;
    regression.addText("[[rule]]\nname = 'r'\npattern = 'x'\nclass = 'regression'\n", "rules.toml");
    expectOneProblem(regression, 4, "class must be");
    EXPECT_TRUE(regression.empty());
}

TEST(TriageRules, UnreadableFileIsAnError)
{
    RuleSet set;
    const auto loaded = set.addFile("/nonexistent/rules.toml");
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.message().find("/nonexistent/rules.toml"), std::string::npos);
}

TEST(TriageRules, FileProblemsNameThePath)
{
    const auto path = std::filesystem::temp_directory_path() / "relayhud_triage_rules_test.toml";
    std::ofstream(path) << "[[rule]]\nname = 'x'\npattern = '('\n";
    RuleSet set;
    ASSERT_TRUE(set.addFile(path.string()));
    ASSERT_EQ(set.problems().size(), 1u);
    EXPECT_EQ(set.problems()[0].file, path.string());
    EXPECT_EQ(set.problems()[0].line, 3u);
    std::filesystem::remove(path);
}

TEST(TriageRules, PytorchRulesetLoadsClean)
{
    RuleSet set;
    ASSERT_TRUE(set.addFile(RELAYHUD_CORPUS_DIR "/rules/ruleset.toml"));
    // pytorch's own file repeats five names; those are warnings, nothing more.
    EXPECT_EQ(set.problems().size(), 5u);
    for (const auto& problem : set.problems()) {
        EXPECT_TRUE(problem.ruleKept) << problem.describe();
        EXPECT_NE(problem.message.find("duplicate rule name"), std::string::npos);
    }
    EXPECT_EQ(set.size(), 102u);
    EXPECT_EQ(set.rules().front().name, "Operator backwards compatibility");
}

TEST(TriageRules, DefaultRulesLoadCleanAndNameAClass)
{
    const RuleSet set = defaultRuleSet();
    for (const auto& problem : set.problems())
        ADD_FAILURE() << problem.describe();
    EXPECT_GE(set.size(), 25u);
    // Every default rule implies a class but one: a cancellation says the
    // job stopped, not why (issue 37).
    for (const auto& rule : set.rules()) {
        if (rule.name == "Job cancelled")
            EXPECT_EQ(rule.impliedClass, FailureClass::Unset);
        else
            EXPECT_NE(rule.impliedClass, FailureClass::Unset) << rule.name;
    }
}
