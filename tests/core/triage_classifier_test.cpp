// The classifier's verdict rules on hand-made logs: cleaning, dropped lines,
// last match per rule, priority, captures, raw line numbers.
#include "relayhud/triage/classifier.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace relayhud::triage;

namespace {

constexpr const char* kStamp = "2026-07-29T23:58:10.4613408Z ";

Classifier make(const std::string& toml)
{
    RuleSet set;
    set.addText(toml, "test.toml");
    EXPECT_TRUE(set.problems().empty());
    auto classifier = Classifier::create(std::move(set));
    EXPECT_TRUE(classifier) << classifier.message();
    return std::move(classifier).value();
}

std::string rule(const std::string& name, const std::string& pattern)
{
    return "[[rule]]\nname = '" + name + "'\npattern = '''" + pattern + "'''\n";
}

std::string lines(const std::vector<std::string>& body)
{
    std::string out;
    for (const auto& l : body)
        out += kStamp + l + "\n";
    return out;
}

} // namespace

TEST(TriageClassifier, NoRulesIsAnError) { EXPECT_FALSE(Classifier::create(RuleSet{})); }

TEST(TriageClassifier, NoMatchGivesNothing)
{
    const auto c = make(rule("boom", "^boom"));
    EXPECT_FALSE(c.classifyText(lines({"all fine", "still fine"})));
    EXPECT_FALSE(c.classifyText(""));
}

TEST(TriageClassifier, TimestampIsCleanedBeforeAnchors)
{
    const auto c = make(rule("err", "^(RuntimeError): (.*)"));
    const auto v = c.classifyText(lines({"noise", "RuntimeError: bad thing", "tail"}));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 2u);
    EXPECT_EQ(v->text, "RuntimeError: bad thing");
    EXPECT_EQ(v->captures, (std::vector<std::string>{"RuntimeError", "bad thing"}));
}

TEST(TriageClassifier, AnsiEscapesAreCleaned)
{
    const auto c = make(rule("lint", "^>>> Lint for \\S+:"));
    const auto v =
        c.classifyText(std::string(kStamp) + "\x1b[1m>>>\x1b[0m Lint for \x1b[4ma.py\x1b[0m:\n");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->captures, (std::vector<std::string>{">>> Lint for a.py:"}));
}

TEST(TriageClassifier, WholeMatchWhenNoGroupsAndSkipsGroupsThatDidNotTakePart)
{
    const auto whole = make(rule("w", "fail\\w*"));
    EXPECT_EQ(whole.classifyText("it failed here\n")->captures,
              (std::vector<std::string>{"failed"}));
    const auto optional = make(rule("o", "(a)|(b)"));
    EXPECT_EQ(optional.classifyText("b\n")->captures, (std::vector<std::string>{"b"}));
}

TEST(TriageClassifier, EachRuleTakesItsLastMatchingLine)
{
    const auto c = make(rule("fail", "^FAILED (\\S+)"));
    const auto v = c.classifyText(lines({"FAILED a.py::t1", "x", "FAILED a.py::t2", "y"}));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 3u);
    EXPECT_EQ(v->captures, (std::vector<std::string>{"a.py::t2"}));
}

TEST(TriageClassifier, EveryLineOfTheWinningRuleNamesItsFirstCaptureOnce)
{
    const auto c = make(rule("fail", "^FAILED (\\S+)") + rule("any", "^(\\w+) error"));
    const auto v = c.classifyText(lines({"disk error", "FAILED a.py::t1 - x", "noise",
                                         "FAILED a.py::t2", "FAILED a.py::t1 - again"}));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ruleName, "fail");
    EXPECT_EQ(v->captures, (std::vector<std::string>{"a.py::t1"}));
    EXPECT_EQ(v->named, (std::vector<std::string>{"a.py::t1", "a.py::t2"}));

    // A better rule's line later on starts the list anew.
    const auto high = make(rule("high", "^(high)") + rule("fail", "^FAILED (\\S+)"));
    const auto h = high.classifyText(lines({"FAILED a.py::t1", "high", "FAILED a.py::t2"}));
    ASSERT_TRUE(h);
    EXPECT_EQ(h->named, (std::vector<std::string>{"high"}));
}

TEST(TriageClassifier, NamedTestsSpanBlocksAndStopAtTheBoundWithThePickedLineKept)
{
    const auto c = make(rule("fail", "^FAILED (\\S+)"));
    std::vector<std::string> body{"FAILED a.py::first"};
    body.insert(body.end(), 3000, std::string(60, 'x')); // past one 64 KiB block
    for (int i = 0; i < 100; ++i)
        body.push_back("FAILED a.py::t" + std::to_string(i));
    const auto v = c.classifyText(lines(body));
    ASSERT_TRUE(v);
    ASSERT_EQ(v->named.size(), FailureLine::kMaxNamed);
    EXPECT_EQ(v->named.front(), "a.py::first");
    EXPECT_EQ(v->named[1], "a.py::t0");
    EXPECT_EQ(v->named.back(), "a.py::t99") << "the picked line's test is always named";

    // The file reader gives the same list.
    const auto path = std::filesystem::temp_directory_path() / "relayhud-named-tests.log";
    {
        std::ofstream out(path, std::ios::binary);
        out << lines(body);
    }
    const auto f = c.classifyFile(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(f && *f);
    EXPECT_EQ((*f)->named, v->named);
}

TEST(TriageClassifier, HigherPriorityWinsWhereverItMatches)
{
    const auto c = make(rule("high", "^high") + rule("low", "^low") + rule("lowest", "."));
    const auto v = c.classifyText(lines({"high early", "low later", "low last", "zzz"}));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ruleName, "high");
    EXPECT_EQ(v->ruleIndex, 0u);
    EXPECT_EQ(v->line, 1u);
    const auto lower = c.classifyText(lines({"zzz", "low one", "zzz"}));
    EXPECT_EQ(lower->ruleName, "low");
    EXPECT_EQ(lower->line, 2u);
}

TEST(TriageClassifier, RuleClassComesWithTheVerdict)
{
    const auto c = make("[[rule]]\nname = 'disk'\npattern = 'No space left'\nclass = 'infra'\n");
    EXPECT_EQ(c.classifyText("OSError: No space left on device\n")->impliedClass,
              FailureClass::Infra);
}

TEST(TriageClassifier, BoilerplateLinesAreDropped)
{
    const auto c = make(rule("error", "^##\\[error\\](.*)") + rule("osdc", "OSDC"));
    const auto v = c.classifyText(lines({
        "##[error]the real cause",
        "##[error]Process completed with exit code 1.",
        "##[error]Process completed with exit code 137",
        "[OSDC] Step script exited with code 1",
        "##[error]Executing the custom container implementation failed with exit code 1.",
        "##[error]TypeError: Cannot read properties of null (reading 'jobPod')",
        "##[error][OSDC] Step cancelled by GitHub Actions (received SIGINT).",
    }));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 1u);
    EXPECT_EQ(v->captures, (std::vector<std::string>{"the real cause"}));
    // Lines that only resemble boilerplate are kept.
    const auto kept = c.classifyText(lines({"##[error]Process completed with exit code 1 oops"}));
    ASSERT_TRUE(kept);
    EXPECT_EQ(kept->line, 1u);
}

TEST(TriageClassifier, SccacheLogRegionIsDropped)
{
    const auto c = make(rule("err", "error: (.*)"));
    const auto v = c.classifyText(lines({
        "error: the real one",
        "=================== sccache compilation log ===================",
        "error: inside the sccache log",
        "=========== If your build fails, please take a look at the log above for possible "
        "reasons ===========",
        "Compile requests 10",
    }));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 1u);
    // After the closing banner lines count again.
    const auto after = c.classifyText(lines({
        "+ echo '=================== sccache compilation log ==================='",
        "error: skipped",
        "+ echo '=========== If your build fails, please take a look at the log above for "
        "possible reasons ==========='",
        "error: counted",
    }));
    ASSERT_TRUE(after);
    EXPECT_EQ(after->line, 4u);
    // An unclosed region runs to the end of the log.
    EXPECT_FALSE(c.classifyText(lines({"=================== sccache compilation log "
                                       "===================",
                                       "error: never seen"})));
}

TEST(TriageClassifier, LineNumbersAreTheRawFilesCountingDroppedLines)
{
    const auto c = make(rule("err", "^Error"));
    const auto v = c.classifyText(
        "\r\n"
        + lines({"##[error]Process completed with exit code 2.",
                 "=================== sccache compilation log ===================", "Error inside",
                 "=========== If your build fails, please take a look at the log above for "
                 "possible reasons ==========="})
        + "Error at the end");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 6u);
    EXPECT_EQ(v->text, "Error at the end");
}

TEST(TriageClassifier, CarriageReturnBeforeNewlineIsDropped)
{
    const auto c = make(rule("eol", "done$"));
    const auto v = c.classifyText("a\r\nwe are done\r\nb\r\n");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->line, 2u);
}

TEST(TriageClassifier, FileGivesTheSameVerdictAsText)
{
    const auto c = make(rule("fail", "^FAILED (\\S+)") + rule("err", "Error"));
    std::string log;
    for (int i = 0; i < 400000; ++i)
        log += std::string(kStamp) + "line " + std::to_string(i) + (i % 1000 == 7 ? " Error" : "")
               + "\n";
    log += std::string(kStamp) + "FAILED a.py::last";
    const auto path = std::filesystem::temp_directory_path() / "relayhud_triage_classify.log";
    std::ofstream(path, std::ios::binary) << log;
    const auto fromFile = c.classifyFile(path.string());
    std::filesystem::remove(path);
    ASSERT_TRUE(fromFile);
    ASSERT_TRUE(fromFile->has_value());
    EXPECT_EQ((*fromFile)->line, 400001u);
    EXPECT_EQ((*fromFile)->captures, (std::vector<std::string>{"a.py::last"}));
    EXPECT_EQ((*fromFile)->line, c.classifyText(log)->line);
    EXPECT_FALSE(c.classifyFile("/nonexistent/job.log"));
}

TEST(TriageClassifier, PatternsNeverMatchAcrossLines)
{
    // The rule set runs over blocks of lines; a match only a block has (the
    // pattern spans a line break) must not count.
    const auto c = make(rule("span", "a\\sb") + rule("end", "^x$"));
    EXPECT_FALSE(c.classifyText("a\nb\n"));
    const auto v = c.classifyText("a\nb\nx\n");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ruleName, "end");
    EXPECT_EQ(v->line, 3u);
}

TEST(TriageClassifier, LastMatchAndPriorityHoldAcrossBlocks)
{
    const auto c = make(rule("high", "^high (\\d+)") + rule("low", "^low"));
    std::string log;
    for (int i = 1; i <= 50000; ++i)
        log += (i == 10 || i == 30000 ? "high " + std::to_string(i) : "low " + std::to_string(i))
               + "\n";
    const auto v = c.classifyText(log);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ruleName, "high");
    EXPECT_EQ(v->line, 30000u);
    EXPECT_EQ(v->captures, (std::vector<std::string>{"30000"}));
}
