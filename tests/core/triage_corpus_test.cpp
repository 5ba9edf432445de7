// The real-world corpus: pytorch's own rules must pick every marked line (and
// its marked captures); our default rules' agreement is measured and kept.
#include "relayhud/triage/accuracy.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace relayhud::triage;

namespace {

using relayhud::test::readFile;

const std::string kCorpusDir = RELAYHUD_CORPUS_DIR;

Classifier pytorchClassifier()
{
    RuleSet set;
    EXPECT_TRUE(set.addFile(kCorpusDir + "/rules/ruleset.toml"));
    auto c = Classifier::create(std::move(set));
    EXPECT_TRUE(c) << c.message();
    return std::move(c).value();
}

std::vector<std::filesystem::path> fixtures()
{
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::directory_iterator(kCorpusDir + "/logs"))
        out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(TriageMarkedLog, MarksAreStripped)
{
    const auto log = parseMarkedLog("#=SOURCE=# https://x\nfirst\n#=MATCH=# 2026-01-01T00:00:00."
                                    "0000000Z pre \u2039a\x1b[0mb\u203a mid \u2039c\u203a\nlast");
    EXPECT_EQ(log.text, "first\n2026-01-01T00:00:00.0000000Z pre a\x1b[0mb mid c\nlast");
    EXPECT_EQ(log.expectedLine, 2u);
    EXPECT_EQ(log.expectedCaptures, (std::vector<std::string>{"ab", "c"}));
    EXPECT_FALSE(parseMarkedLog("no marks\n").expectedLine);
}

TEST(TriageCorpus, PytorchRulesPickEveryMarkedLineAndCapture)
{
    const auto classifier = pytorchClassifier();
    const auto files = fixtures();
    ASSERT_GE(files.size(), 30u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        const MarkedLog log = parseMarkedLog(readFile(path));
        const auto verdict = classifier.classifyText(log.text);
        if (!log.expectedLine) {
            EXPECT_FALSE(verdict) << "expected no match";
            continue;
        }
        ASSERT_TRUE(verdict) << "no match";
        EXPECT_EQ(verdict->line, *log.expectedLine) << verdict->ruleName;
        if (!log.expectedCaptures.empty()) {
            EXPECT_EQ(verdict->captures, log.expectedCaptures) << verdict->ruleName;
        }
    }
}

TEST(TriageCorpus, PytorchRulesAgreeFullyThroughTheAccuracyReport)
{
    const auto report = measureAccuracy(pytorchClassifier(), kCorpusDir + "/logs");
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->cases.size(), fixtures().size());
    EXPECT_EQ(report->agreeing(), report->cases.size());
    EXPECT_DOUBLE_EQ(report->percent(), 100.0);
}

TEST(TriageCorpus, DefaultRulesAgreement)
{
    auto classifier = Classifier::create(defaultRuleSet());
    ASSERT_TRUE(classifier) << classifier.message();
    const auto report = measureAccuracy(*classifier, kCorpusDir + "/logs");
    ASSERT_TRUE(report) << report.message();
    for (const auto& c : report->cases) {
        if (!c.agrees())
            std::cout << "[ MISS     ] " << c.file << " expected "
                      << (c.expectedLine ? std::to_string(*c.expectedLine) : "none") << " got "
                      << (c.verdict ? std::to_string(c.verdict->line) + " " + c.verdict->ruleName
                                    : "no match")
                      << '\n';
    }
    std::cout << "[ ACCURACY ] default rules: " << report->agreeing() << '/' << report->cases.size()
              << " = " << report->percent() << "%\n";
    // The floor is 85%; the rules reach every fixture today (they were
    // written with this corpus in view, so it is an in-sample figure). A new
    // fixture they miss fails here on purpose: look at it, then adjust.
    EXPECT_GE(report->percent(), 85.0);
    EXPECT_EQ(report->agreeing(), report->cases.size());
}

TEST(TriageCorpus, MissingFolderIsAnError)
{
    EXPECT_FALSE(measureAccuracy(pytorchClassifier(), "/nonexistent/logs"));
}
