// Rows of the log view: folded groups (against a line-by-line model of the
// same folds) and the "matching lines only" filter (against grep -C on the
// same file, in the same run).
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_search.h"
#include "relayhud/ui/logs/filter_map.h"
#include "relayhud/ui/logs/fold_map.h"

#include "log_fixtures.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gmock/gmock.h>

#include <random>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

std::vector<LogGroup> threeGroups()
{
    return {{LineNumber{2}, LineNumber{5}, "checkout", true},
            {LineNumber{8}, LineNumber{12}, "build", true},
            {LineNumber{15}, LineNumber{19}, "test", false}};
}

// The rows folds leave, line by line: what FoldMap must agree with.
std::vector<std::uint64_t> visibleLines(std::uint64_t lineCount,
                                        const std::vector<LogGroup>& groups,
                                        const std::vector<bool>& folded)
{
    std::vector<std::uint64_t> lines;
    for (std::uint64_t l = 0; l < lineCount; ++l) {
        bool hidden = false;
        for (std::size_t g = 0; g < groups.size(); ++g)
            hidden = hidden || (folded[g] && l > groups[g].start.value && l <= groups[g].end.value);
        if (!hidden)
            lines.push_back(l);
    }
    return lines;
}

} // namespace

TEST(FoldMap, FoldedGroupsHideTheirLinesButNotTheirHeader)
{
    FoldMap map;
    map.setLineCount(20);
    map.setGroups(threeGroups());
    EXPECT_EQ(map.rowCount(), 20u);
    map.setFolded(LineNumber{2}, true);
    map.setFolded(LineNumber{15}, true);
    EXPECT_EQ(map.rowCount(), 20u - 3 - 4);
    EXPECT_EQ(map.rowAt(2).line, LineNumber{2});
    EXPECT_EQ(map.rowAt(3).line, LineNumber{6});
    EXPECT_EQ(map.rowOf(LineNumber{4}), 2u) << "a hidden line stands at its header";
    EXPECT_EQ(map.rowOf(LineNumber{16}), map.rowOf(LineNumber{15}));
    EXPECT_TRUE(map.isFolded(LineNumber{2}));
    map.setFolded(LineNumber{3}, true); // not a header: nothing happens
    EXPECT_EQ(map.rowCount(), 13u);
    EXPECT_EQ(map.groupContaining(LineNumber{10})->title, "build");
    EXPECT_EQ(map.groupContaining(LineNumber{7}), nullptr);
}

TEST(FoldMap, AgreesWithALineByLineModelForEveryFoldCombination)
{
    const auto groups = threeGroups();
    for (int mask = 0; mask < 8; ++mask) {
        FoldMap map;
        map.setLineCount(21);
        map.setGroups(groups);
        std::vector<bool> folded(3);
        for (std::size_t g = 0; g < 3; ++g) {
            folded[g] = (mask >> g) & 1;
            map.setFolded(groups[g].start, folded[g]);
        }
        const auto lines = visibleLines(21, groups, folded);
        ASSERT_EQ(map.rowCount(), lines.size()) << "mask " << mask;
        for (std::uint64_t row = 0; row < lines.size(); ++row) {
            EXPECT_EQ(map.rowAt(row).line.value, lines[row]) << "mask " << mask << " row " << row;
            EXPECT_EQ(map.rowOf(LineNumber{lines[row]}), row);
        }
    }
}

TEST(FoldMap, FoldsSurviveGroupUpdatesAndAGrowingLog)
{
    FoldMap map;
    map.setLineCount(10);
    map.setGroups({{LineNumber{2}, LineNumber{9}, "open", false}});
    map.setFolded(LineNumber{2}, true);
    EXPECT_EQ(map.rowCount(), 3u);
    // The scan saw more lines of the open group.
    map.setLineCount(30);
    map.setGroups({{LineNumber{2}, LineNumber{25}, "open", false}});
    EXPECT_TRUE(map.isFolded(LineNumber{2}));
    EXPECT_EQ(map.rowCount(), 30u - 23);
    map.setAllFolded(false);
    EXPECT_EQ(map.rowCount(), 30u);
    // A group reaching past the lines indexed hides only lines that exist.
    map.setAllFolded(true);
    map.setLineCount(12);
    EXPECT_EQ(map.rowCount(), 3u);
}

TEST(FoldMap, LookupsStayLogarithmicOnManyGroups)
{
    // 100,000 groups of 100 lines, all folded but one: a 10M-line log.
    std::vector<LogGroup> groups;
    for (std::uint64_t g = 0; g < 100'000; ++g)
        groups.push_back({LineNumber{g * 100}, LineNumber{g * 100 + 99}, "g", true});
    FoldMap map;
    map.setLineCount(10'000'000);
    map.setGroups(groups);
    map.setAllFolded(true);
    map.setFolded(LineNumber{5'000'000}, false);
    EXPECT_EQ(map.rowCount(), 10'000'000u - 99'999u * 99);
    EXPECT_EQ(map.rowAt(50'000).line, LineNumber{5'000'000});
    EXPECT_EQ(map.rowAt(50'001).line, LineNumber{5'000'001});
    std::mt19937_64 rng(7);
    for (int i = 0; i < 10'000; ++i) {
        const std::uint64_t row = rng() % map.rowCount();
        EXPECT_EQ(map.rowOf(map.rowAt(row).line), row);
    }
}

namespace {

// The rows of a FilterMap as grep prints them: the lines' text, "--" between
// ranges.
std::vector<std::string> filterRows(const FilterMap& map, const std::vector<std::string>& lines)
{
    std::vector<std::string> rows;
    for (std::uint64_t r = 0; r < map.rowCount(); ++r) {
        const ViewRow v = map.rowAt(r);
        rows.push_back(v.separator ? std::string("--") : lines[v.line.value]);
    }
    return rows;
}

std::vector<std::string> grepRows(const QString& path, const QString& pattern, int context)
{
    QProcess grep;
    grep.start(QStringLiteral("grep"), {QStringLiteral("-F"), QStringLiteral("-C"),
                                        QString::number(context), pattern, path});
    grep.waitForFinished();
    std::vector<std::string> rows;
    const QString out = QString::fromUtf8(grep.readAllStandardOutput());
    for (const QString& line : out.split(u'\n', Qt::SkipEmptyParts))
        rows.push_back(line.toStdString());
    return rows;
}

} // namespace

TEST(FilterMap, RowsEqualGrepWithContextOnTheSameFile)
{
    if (QStandardPaths::findExecutable(QStringLiteral("grep")).isEmpty())
        GTEST_SKIP() << "no grep here";
    // Matches close together (ranges merge), touching (no separator) and far
    // apart (a separator), at the start and at the end of the file.
    std::vector<std::string> lines;
    for (int i = 0; i < 60; ++i)
        lines.push_back("line " + std::to_string(i)
                        + (i == 0 || i == 6 || i == 8 || i == 15 || i == 19 || i == 40 || i == 59
                               ? " HIT"
                               : ""));
    std::string text;
    for (const std::string& l : lines)
        text += l + "\n";
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, QStringLiteral("small.log"), text);
    auto log = LogFile::open(path.toStdString());
    ASSERT_TRUE(log) << log.message();
    (*log)->waitForIndex();
    LogSearch search(*log);
    ASSERT_TRUE(search.start({"HIT", SearchSyntax::Literal, true, SearchText::Display}));
    search.wait();
    const std::vector<LineNumber> matches = search.matches();
    ASSERT_EQ(matches.size(), 7u);
    for (const int context : {0, 1, 2, 3, 5}) {
        FilterMap map(static_cast<std::uint64_t>(context), (*log)->lineCount());
        // Streamed in two batches, as a search delivers them.
        map.addMatches(std::span(matches).first(3));
        map.addMatches(std::span(matches).subspan(3));
        EXPECT_EQ(filterRows(map, lines), grepRows(path, QStringLiteral("HIT"), context))
            << "context " << context;
        for (std::uint64_t r = 0; r < map.rowCount(); ++r) {
            if (const ViewRow v = map.rowAt(r); !v.separator) {
                EXPECT_EQ(map.rowOf(v.line), r) << "context " << context;
            }
        }
    }
}

TEST(FilterMap, AHiddenLineMapsToTheNextShownRange)
{
    FilterMap map(1, 100);
    const std::vector<LineNumber> matches{LineNumber{10}, LineNumber{50}};
    map.addMatches(matches);
    ASSERT_EQ(map.rowCount(), 3u + 1 + 3);
    EXPECT_TRUE(map.rowAt(3).separator);
    EXPECT_EQ(map.rowOf(LineNumber{30}), 4u);
    EXPECT_EQ(map.rowOf(LineNumber{99}), 6u);
    EXPECT_EQ(map.rowOf(LineNumber{0}), 0u);
}
