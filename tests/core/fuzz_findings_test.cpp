// What the fuzzers (fuzz/) found, each kept as a case that failed before its
// fix. The inputs themselves also stay in fuzz/regressions/<target>/, which
// the fuzz.<target>.replay tests run through the targets' properties.
#include "relayhud/artifacts/listings.h"
#include "relayhud/net/body_summary.h"
#include "relayhud/triage/rule_set.h"
#include "relayhud/triage/triage_exchange.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace relayhud;

// fuzz_headers: a 300-byte body gave a 203-byte summary ("..." came on top of
// the 200 asked for).
TEST(FuzzFindings, ABodySummaryStaysWithinItsLengthEllipsisIncluded)
{
    const std::string body(300, 'x');
    const std::string summary = net::summarizeBody(body, "text/plain", 200);
    EXPECT_EQ(summary.size(), 200u);
    EXPECT_TRUE(summary.ends_with("...")) << summary;
    EXPECT_EQ(net::summarizeBody(std::string(200, 'y'), "text/plain", 200), std::string(200, 'y'));
    // Never half a UTF-8 character: "é" is two bytes.
    std::string accents;
    for (int i = 0; i < 150; ++i)
        accents += "\xc3\xa9";
    const std::string cut = net::summarizeBody(accents, "text/plain", 200);
    EXPECT_LE(cut.size(), 200u);
    EXPECT_EQ(cut.size() % 2, 1u) << "196 bytes of é and \"...\"";
}

// fuzz_rules: "[!" (a table header whose first key character is neither a
// bare-key character nor a quote) tripped toml++ 3.3's assertion in
// parse_key, which a clang release build turns into an assumption.
TEST(FuzzFindings, ATableHeaderWithoutAKeyIsASyntaxErrorNotAnAssertion)
{
    for (const std::string& text :
         {std::string("[!"), std::string("[\0", 2), std::string("[[!x]]\n"), std::string("[ =]\n"),
          std::string("[\n"), std::string("[[[rule]]]\n")}) {
        triage::RuleSet rules;
        rules.addText(text, "bad.toml");
        EXPECT_TRUE(rules.empty()) << text;
        ASSERT_FALSE(rules.problems().empty()) << text;
        EXPECT_EQ(rules.problems()[0].line, 1u) << text;
    }
    // Only the [[rule]] table with the broken header is lost.
    triage::RuleSet rules;
    rules.addText("[[rule]]\nname = 'a'\npattern = 'x'\n"
                  "[[rule]]\nname = 'b'\npattern = 'y'\n[!]\n"
                  "[[rule]]\nname = 'c'\npattern = 'z'\n",
                  "mixed.toml");
    ASSERT_EQ(rules.size(), 2u);
    EXPECT_EQ(rules.rules()[0].name, "a");
    EXPECT_EQ(rules.rules()[1].name, "c");
    ASSERT_EQ(rules.problems().size(), 1u);
    EXPECT_EQ(rules.problems()[0].line, 7u) << rules.problems()[0].describe();
}

// The check reads TOML's structure: a '[' that starts a line inside a
// multi-line string or array is no table header.
TEST(FuzzFindings, BracketsInsideStringsAndArraysAreNoTableHeaders)
{
    triage::RuleSet rules;
    rules.addText("[[rule]]\nname = 'a'\npattern = '''\n[!x]'''\n"
                  "[[rule]]\nname = \"b\"\npattern = \"\"\"\n[=\\\"x]\"\"\"\n"
                  "[[rule]]\nname = 'c'\npattern = 'z'\nextra = [\n  { k = 1 },\n  [ 2 ],\n]\n",
                  "fine.toml");
    for (const auto& problem : rules.problems())
        ADD_FAILURE() << problem.describe();
    EXPECT_EQ(rules.size(), 3u);
}

// fuzz_triage: a number too large for a double ("99...E99...") made
// nlohmann::json throw out_of_range, which nothing caught.
TEST(FuzzFindings, ANumberTooLargeForADoubleIsNotJsonNotACrash)
{
    const auto tags = triage::parseTriageJson("9999999999999999999999E99999999999999");
    ASSERT_FALSE(tags);
    EXPECT_TRUE(tags.message().starts_with("not JSON")) << tags.message();
    const auto inside =
        triage::parseTriageJson(R"({"format": "relayhud-triage", "version": 1e999, "tags": []})");
    ASSERT_FALSE(inside);
    EXPECT_TRUE(inside.message().starts_with("not JSON")) << inside.message();
}

// A listing field of the wrong type reads as its default: json::value()
// would throw type_error on it.
TEST(FuzzFindings, AListingFieldOfTheWrongTypeReadsAsItsDefault)
{
    const auto page = github::parseArtifactPage(
        R"({"total_count": "2", "artifacts": [
              {"id": 1, "name": 7, "size_in_bytes": "556", "expired": "no"},
              {"id": 2, "name": "b", "size_in_bytes": -4, "expired": true},
              {"id": "3"}, 4, null]})",
        "https://api.github.com/repos/o/r/actions/runs/1/artifacts");
    ASSERT_TRUE(page) << page.message();
    EXPECT_EQ(page->totalCount, 0);
    ASSERT_EQ(page->artifacts.size(), 2u);
    EXPECT_EQ(page->artifacts[0].name, "");
    EXPECT_EQ(page->artifacts[0].sizeInBytes, 0);
    EXPECT_FALSE(page->artifacts[0].expired);
    EXPECT_EQ(page->artifacts[1].sizeInBytes, 0);
    EXPECT_TRUE(page->artifacts[1].expired);
}

} // namespace
