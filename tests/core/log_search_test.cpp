// LogSearch: literal and regex over whole files, Display and Raw text,
// streaming, next/previous, cancellation; TextMatcher and Highlighter.
#include "log_test_support.h"

#include "relayhud/logs/highlighter.h"
#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_search.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <regex>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

SearchQuery literal(std::string p, bool caseSensitive = true, SearchText text = SearchText::Display)
{
    return {std::move(p), SearchSyntax::Literal, caseSensitive, text};
}

SearchQuery regex(std::string p, bool caseSensitive = true, SearchText text = SearchText::Display)
{
    return {std::move(p), SearchSyntax::Regex, caseSensitive, text};
}

std::vector<std::uint64_t> searchLines(const std::shared_ptr<LogFile>& log, const SearchQuery& q)
{
    LogSearch search(log);
    auto id = search.start(q);
    EXPECT_TRUE(id.ok()) << (id.ok() ? "" : id.message());
    search.wait();
    std::vector<std::uint64_t> out;
    for (auto l : search.matches())
        out.push_back(l.value);
    return out;
}

template <class Pred>
std::vector<std::uint64_t> expectedLines(const std::vector<std::string>& lines, Pred pred)
{
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (pred(lines[i]))
            out.push_back(i);
    return out;
}

std::string lowered(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string displayText(const std::string& raw)
{
    std::string out;
    stripEscapes(raw, out);
    return out;
}

// Random lines with words, colours and every kind of line break, so matches
// fall on chunk edges, next to escapes and on "\r\n" lines.
std::string randomLog(std::size_t bytes, unsigned seed)
{
    std::mt19937 rng(seed);
    const char* words[] = {"Error",
                           "error",
                           "FAILED",
                           "passed",
                           "needle",
                           "Needle",
                           "x",
                           "::",
                           "\x1b[31m",
                           "\x1b[0m",
                           "\x1b[1mneed\x1b[0mle",
                           "tail"};
    const char* breaks[] = {"\n", "\n", "\n", "\r\n", "\r"};
    std::string text;
    while (text.size() < bytes) {
        const auto n = rng() % 12;
        for (std::uint32_t w = 0; w < n; ++w)
            text += std::string(words[rng() % 12]) + " ";
        text += breaks[rng() % 5];
    }
    return text;
}

class LogSearchTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_text = randomLog(3 << 20, 11);
        m_lines = referenceLines(m_text);
        m_log = openIndexed(m_dir.write("random.log", m_text));
        ASSERT_TRUE(m_log);
    }
    TempDir m_dir;
    std::string m_text;
    std::vector<std::string> m_lines;
    std::shared_ptr<LogFile> m_log;
};

TEST_F(LogSearchTest, LiteralRawEqualsLineByLine)
{
    const auto want = expectedLines(
        m_lines, [](const std::string& l) { return l.find("needle") != std::string::npos; });
    EXPECT_EQ(searchLines(m_log, literal("needle", true, SearchText::Raw)), want);
    EXPECT_FALSE(want.empty());
}

TEST_F(LogSearchTest, LiteralDisplayMatchesAcrossColours)
{
    const auto want = expectedLines(m_lines, [](const std::string& l) {
        return displayText(l).find("needle") != std::string::npos;
    });
    const auto raw = searchLines(m_log, literal("needle", true, SearchText::Raw));
    EXPECT_EQ(searchLines(m_log, literal("needle")), want);
    EXPECT_GT(want.size(), raw.size()); // "\x1b[1mneed\x1b[0mle" lines
}

TEST_F(LogSearchTest, LiteralIgnoringCase)
{
    const auto want = expectedLines(m_lines, [](const std::string& l) {
        return lowered(displayText(l)).find("needle") != std::string::npos;
    });
    EXPECT_EQ(searchLines(m_log, literal("NEEDLE", false)), want);
}

TEST_F(LogSearchTest, RegexEqualsStdRegexLineByLine)
{
    for (const char* pattern :
         {"^Error", "passed $", "FAILED x+ ::", "(need|tail)le? ", "^$", "[0-9]", "rror.*needle"}) {
        const std::regex re(pattern);
        const auto want = expectedLines(
            m_lines, [&](const std::string& l) { return std::regex_search(displayText(l), re); });
        EXPECT_EQ(searchLines(m_log, regex(pattern)), want) << pattern;
        const auto wantRaw =
            expectedLines(m_lines, [&](const std::string& l) { return std::regex_search(l, re); });
        EXPECT_EQ(searchLines(m_log, regex(pattern, true, SearchText::Raw)), wantRaw) << pattern;
    }
}

TEST_F(LogSearchTest, RegexIgnoringCase)
{
    const std::regex re("fail(ed)? x", std::regex::icase);
    const auto want = expectedLines(
        m_lines, [&](const std::string& l) { return std::regex_search(displayText(l), re); });
    EXPECT_EQ(searchLines(m_log, regex("fail(ed)? x", false)), want);
}

TEST_F(LogSearchTest, UpdatesStreamInFileOrder)
{
    LogSearch search(m_log);
    std::mutex mutex;
    std::vector<LineNumber> streamed;
    std::uint64_t lastCount = 0;
    bool finished = false;
    auto id = search.start(literal("x"), [&](const SearchUpdate& u) {
        std::lock_guard lock(mutex);
        streamed.insert(streamed.end(), u.newMatches.begin(), u.newMatches.end());
        EXPECT_GE(u.matchCount, lastCount);
        lastCount = u.matchCount;
        finished = finished || u.finished;
    });
    ASSERT_TRUE(id.ok());
    search.wait();
    EXPECT_TRUE(finished);
    EXPECT_TRUE(std::is_sorted(streamed.begin(), streamed.end()));
    EXPECT_EQ(streamed, search.matches());
    EXPECT_EQ(search.matchCount(), streamed.size());
}

TEST_F(LogSearchTest, NextAndPrevious)
{
    LogSearch search(m_log);
    ASSERT_TRUE(search.start(literal("FAILED")).ok());
    search.wait();
    const auto all = search.matches();
    ASSERT_GT(all.size(), 3U);
    EXPECT_EQ(search.next(LineNumber{0}), all[0].value == 0 ? all[1] : all[0]);
    EXPECT_EQ(search.next(all[1]), all[2]);
    EXPECT_EQ(search.previous(all[2]), all[1]);
    EXPECT_EQ(search.previous(all[0]), std::nullopt);
    EXPECT_EQ(search.next(all.back()), std::nullopt);
}

TEST_F(LogSearchTest, CancelStopsTheStream)
{
    LogSearch search(m_log, 1);
    std::atomic<int> updates{0};
    std::atomic<bool> sawCancelled{false};
    ASSERT_TRUE(search
                    .start(literal("x"),
                           [&](const SearchUpdate& u) {
                               if (++updates == 1)
                                   search.cancel();
                               sawCancelled = sawCancelled || u.cancelled;
                           })
                    .ok());
    search.wait();
    EXPECT_TRUE(sawCancelled);
    EXPECT_EQ(updates.load(), 2); // the first piece, then the cancelled end
    const auto full = searchLines(m_log, literal("x"));
    EXPECT_LT(search.matchCount(), full.size());
}

TEST_F(LogSearchTest, ANewSearchCancelsTheOldOne)
{
    LogSearch search(m_log);
    std::mutex mutex;
    std::vector<Ticket> tickets;
    const auto record = [&](const SearchUpdate& u) {
        std::lock_guard lock(mutex);
        tickets.push_back(u.ticket);
    };
    auto first = search.start(regex("e.*e.*e"), record);
    auto second = search.start(literal("tail"), record);
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_NE(*first, *second);
    {
        std::lock_guard lock(mutex);
        tickets.clear(); // whatever the first said, it said it before start() returned
    }
    search.wait();
    for (const Ticket t : tickets)
        EXPECT_EQ(t, *second);
    EXPECT_EQ(search.ticket(), *second);
    EXPECT_EQ(search.matches().size(), searchLines(m_log, literal("tail")).size());
}

TEST(LogSearch, FollowsTheIndexWhileItGrows)
{
    TempDir dir;
    const std::string text = generatedLog(400000);
    const auto lines = referenceLines(text);
    auto log = LogFile::open(dir.write("gen.log", text));
    ASSERT_TRUE(log.ok());
    LogSearch search(*log);
    ASSERT_TRUE(search.start(literal("PASSED")).ok()); // while indexing
    search.wait();
    const auto want = expectedLines(
        lines, [](const std::string& l) { return l.find("PASSED") != std::string::npos; });
    EXPECT_EQ(search.matchCount(), want.size());
}

TEST(LogSearch, ExtendSearchesAppendedLines)
{
    TempDir dir;
    const auto path = dir.write("tail.log", "a match\nno\n");
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    LogSearch search(log);
    ASSERT_TRUE(search.start(literal("match")).ok());
    search.wait();
    EXPECT_EQ(search.matchCount(), 1U);
    EXPECT_FALSE(search.extend());
    dir.append("tail.log", "another match\nlast match, no newline");
    ASSERT_EQ(log->refresh(), RefreshResult::Grown);
    log->waitForIndex();
    ASSERT_TRUE(search.extend());
    search.wait();
    EXPECT_EQ(search.matches(), (std::vector<LineNumber>{{0}, {2}, {3}}));
}

TEST(LogSearch, CrLfLinesAnchorAtTheirContentEnd)
{
    TempDir dir;
    auto log = openIndexed(dir.write("crlf.log", "one end\r\ntwo\r\nend end\r\nlone\rend"));
    ASSERT_TRUE(log);
    EXPECT_EQ(searchLines(log, regex("end$")), (std::vector<std::uint64_t>{0, 2, 4}));
    EXPECT_EQ(searchLines(log, regex("^end", true, SearchText::Raw)),
              (std::vector<std::uint64_t>{2, 4}));
    EXPECT_EQ(searchLines(log, regex("o.$")), (std::vector<std::uint64_t>{}));
}

TEST(LogSearch, FindsMatchesInsideVeryLongLines)
{
    TempDir dir;
    std::string text = "start\n";
    text.append(5u << 20, 'y');
    text += "NEEDLE at the end\nshort NEEDLE\n";
    text.append(3u << 20, 'z');
    text += "\n";
    auto log = openIndexed(dir.write("long.log", text));
    ASSERT_TRUE(log);
    EXPECT_EQ(searchLines(log, literal("NEEDLE")), (std::vector<std::uint64_t>{1, 2}));
    EXPECT_EQ(searchLines(log, regex("y{10}NEEDLE at the end$")), (std::vector<std::uint64_t>{1}));
    EXPECT_EQ(searchLines(log, regex("^z{5}")), (std::vector<std::uint64_t>{3}));
    EXPECT_EQ(searchLines(log, regex("z{5}$")), (std::vector<std::uint64_t>{3}));
    EXPECT_EQ(searchLines(log, regex("^y+N")), (std::vector<std::uint64_t>{})); // > 64 KiB
    EXPECT_EQ(searchLines(log, regex("^y{3}z")), (std::vector<std::uint64_t>{}));
}

TEST(LogSearch, SpecialPatterns)
{
    TempDir dir;
    auto log = openIndexed(dir.write("small.log", "a\nb\n\nc"));
    ASSERT_TRUE(log);
    EXPECT_EQ(searchLines(log, literal("")), (std::vector<std::uint64_t>{0, 1, 2, 3}));
    EXPECT_EQ(searchLines(log, regex("")), (std::vector<std::uint64_t>{0, 1, 2, 3}));
    EXPECT_EQ(searchLines(log, literal("a\nb")), (std::vector<std::uint64_t>{}));
    EXPECT_EQ(searchLines(log, regex("a\\nb")), (std::vector<std::uint64_t>{}));
    LogSearch search(log);
    auto bad = search.start(regex("(unclosed"));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.message().find("(unclosed"), std::string::npos) << bad.message();
    EXPECT_FALSE(search.start(regex("(a)\\1")).ok()); // RE2 has no backreferences
}

TEST(LogSearch, EmptyFile)
{
    TempDir dir;
    auto log = openIndexed(dir.write("empty.log", ""));
    ASSERT_TRUE(log);
    EXPECT_TRUE(searchLines(log, literal("x")).empty());
    EXPECT_TRUE(searchLines(log, literal("")).empty());
}

TEST(TextMatcher, FindsAllMatchesForHighlighting)
{
    auto m = TextMatcher::compile(literal("ab", false));
    ASSERT_TRUE(m.ok());
    std::vector<TextRange> found;
    m->findAll("xAbxabab", found);
    EXPECT_EQ(found, (std::vector<TextRange>{{1, 2}, {4, 2}, {6, 2}}));
    auto unicode = TextMatcher::compile(literal("ÉTÉ", false));
    ASSERT_TRUE(unicode.ok());
    EXPECT_TRUE(unicode->contains("un été chaud"));
    auto empty = TextMatcher::compile(regex("x*"));
    ASSERT_TRUE(empty.ok());
    found.clear();
    empty->findAll("axxb", found);
    EXPECT_EQ(found, (std::vector<TextRange>{{1, 2}}));
}

TEST(Highlighter, SeveralRulesEarlierWins)
{
    auto h = Highlighter::compile(
        {{literal("error"), 1}, {regex("[a-z]+or"), 2}, {literal("FAIL", false), 3}});
    ASSERT_TRUE(h.ok());
    const auto ranges = h->ranges("an error, a mirror, failed");
    EXPECT_EQ(ranges, (std::vector<HighlightRange>{{3, 5, 1}, {12, 6, 2}, {20, 4, 3}}));
    EXPECT_TRUE(h->ranges("nothing here").empty());
    auto bad = Highlighter::compile({{literal("ok"), 1}, {regex("[z-a]"), 2}});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.message().find("rule 2"), std::string::npos);
}

} // namespace
