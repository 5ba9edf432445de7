// LogView over a real LogFile: folding, selection and copy, the copy cap,
// go-to-line, failure stepping, wrap, highlights, the overview bar, and
// hostile lines (100 MB on one line, NUL bytes, invalid UTF-8).
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_structure.h"
#include "relayhud/ui/logs/line_jump_edit.h"
#include "relayhud/ui/logs/log_overview_bar.h"
#include "relayhud/ui/logs/log_view.h"

#include "log_fixtures.h"

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::HasSubstr;

namespace {

class LogViewTest : public ::testing::Test {
protected:
    void open(const std::string& bytes, bool scan = true)
    {
        path = test::writeFile(dir, QStringLiteral("job.log"), bytes);
        auto opened = LogFile::open(path.toStdString());
        ASSERT_TRUE(opened) << opened.message();
        log = *opened;
        log->waitForIndex();
        view.resize(900, 420);
        view.setLogFile(log);
        view.updateLineCount();
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        if (scan) {
            structure = std::make_unique<LogStructure>(log);
            structure->start();
            structure->wait();
            view.setGroups(structure->groups());
            const auto landmarks = structure->landmarks();
            view.addLandmarks(landmarks);
        }
        view.viewport()->repaint();
    }

    QPoint textPoint(int row, int column) const
    {
        const LogRowPainter& p = view.rowPainter();
        return {p.textX() + static_cast<int>(column * p.charWidth()) + 1,
                row * p.lineHeight() + p.lineHeight() / 2};
    }
    QPoint numberPoint(int row) const
    {
        return {view.rowPainter().foldX() - 8, row * view.rowPainter().lineHeight() + 4};
    }
    QPoint foldPoint(int row) const
    {
        const LogRowPainter& p = view.rowPainter();
        return {p.foldX() + p.foldWidth() / 2, row * p.lineHeight() + p.lineHeight() / 2};
    }
    QString copied()
    {
        QSignalSpy done(&view, &LogView::copied);
        QSignalSpy notices(&view, &LogView::notice);
        view.copySelection();
        EXPECT_TRUE(done.count() > 0 || done.wait(5000))
            << (notices.isEmpty() ? std::string("no notice")
                                  : notices.back().at(0).toString().toStdString());
        return QApplication::clipboard()->text();
    }
    QString line(std::uint64_t n) const
    {
        return QString::fromStdString(test::decodedLine(*log, n));
    }

    QTemporaryDir dir;
    QString path;
    std::shared_ptr<LogFile> log;
    std::unique_ptr<LogStructure> structure;
    LogView view;
};

} // namespace

TEST_F(LogViewTest, GroupsFoldByClickKeyboardAndDoubleClick)
{
    open(test::ghaJobLog(40));
    const std::uint64_t all = view.rowCount();
    ASSERT_EQ(all, log->lineCount());
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, foldPoint(0));
    EXPECT_TRUE(view.isFolded(LineNumber{0}));
    EXPECT_EQ(view.rowCount(), all - 4) << "the checkout group's 4 lines hide";
    EXPECT_EQ(view.rowAt(1).line, LineNumber{5}) << "the next row is the next group";

    view.setFocus();
    view.goToLine(LineNumber{5}, false);
    const std::uint64_t before = view.rowCount();
    const LogGroup tests = structure->groups().at(1);
    ASSERT_EQ(tests.start, LineNumber{5});
    QTest::keyClick(&view, Qt::Key_Left);
    EXPECT_TRUE(view.isFolded(LineNumber{5}));
    EXPECT_EQ(view.rowCount(), before - (tests.end.value - tests.start.value));
    QTest::keyClick(&view, Qt::Key_Right);
    EXPECT_FALSE(view.isFolded(LineNumber{5}));
    QTest::keyClick(&view, Qt::Key_Space);
    EXPECT_TRUE(view.isFolded(LineNumber{5}));
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, textPoint(1, 3));
    EXPECT_FALSE(view.isFolded(LineNumber{5}));

    view.setAllFolded(false);
    EXPECT_EQ(view.rowCount(), all);
    // Going to a hidden line unfolds its group.
    view.setAllFolded(true);
    view.goToLine(LineNumber{20}, true);
    EXPECT_FALSE(view.isFolded(LineNumber{5}));
    EXPECT_TRUE(view.isFolded(LineNumber{0})) << "other groups stay folded";
}

TEST_F(LogViewTest, DragSelectsCharactersAndCopyGivesTheDecodedText)
{
    open(test::ghaJobLog(40));
    // Row 8 is "Env:<TAB>PYTORCH_TEST_WITH_SLOW=1<TAB>CUDA=12.4": column 10 is
    // inside the text after the first tab (tabs stop every 8 columns).
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, textPoint(8, 0));
    QTest::mouseMove(view.viewport(), textPoint(8, 10));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, textPoint(8, 10));
    EXPECT_EQ(view.selection().mode(), LogSelection::Mode::Characters);
    EXPECT_EQ(copied(), u"Env:\tPY"_qs);

    // Across lines: from column 2 of row 9 to column 5 of row 10, decoded
    // (the colour escapes and timestamps are not copied).
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, textPoint(9, 2));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::ShiftModifier, textPoint(10, 5));
    EXPECT_EQ(copied(), line(9).mid(2) + u'\n' + line(10).left(5));
    EXPECT_FALSE(QApplication::clipboard()->text().contains(u'\x1b'));
}

TEST_F(LogViewTest, GutterAndShiftArrowsSelectWholeLines)
{
    open(test::ghaJobLog(40));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, numberPoint(3));
    QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::ShiftModifier, numberPoint(5));
    EXPECT_EQ(view.selection().mode(), LogSelection::Mode::Lines);
    EXPECT_EQ(copied(), line(3) + u'\n' + line(4) + u'\n' + line(5) + u'\n');

    view.setFocus();
    view.goToLine(LineNumber{10}, false);
    QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);
    QTest::keyClick(&view, Qt::Key_Down, Qt::ShiftModifier);
    EXPECT_EQ(view.selection().firstLine(), LineNumber{10});
    EXPECT_EQ(view.selection().lastLine(), LineNumber{12});
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    QTest::qWait(50);
    QTRY_COMPARE(QApplication::clipboard()->text(),
                 line(10) + u'\n' + line(11) + u'\n' + line(12) + u'\n');
}

TEST_F(LogViewTest, CopyingMoreThanTheCapIsRefusedWithAMessage)
{
    open(test::ghaJobLog(400));
    QApplication::clipboard()->setText(u"untouched"_qs);
    view.setCopyCap(1000);
    QSignalSpy notices(&view, &LogView::notice);
    QSignalSpy copies(&view, &LogView::copied);
    view.selectAll();
    view.copySelection();
    ASSERT_EQ(notices.count(), 1);
    EXPECT_THAT(notices.front().at(0).toString().toStdString(), HasSubstr("copying is limited to"));
    QTest::qWait(50);
    EXPECT_EQ(copies.count(), 0);
    EXPECT_EQ(QApplication::clipboard()->text(), u"untouched"_qs);
    // Under the cap it copies.
    view.setCopyCap(LogView::kDefaultCopyCap);
    EXPECT_EQ(copied().count(u'\n'), static_cast<qsizetype>(log->lineCount()));
}

TEST_F(LogViewTest, CtrlGJumpsToALineOrSelectsARange)
{
    open(test::ghaJobLog(400));
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_G, Qt::ControlModifier);
    auto* jump = view.findChild<LineJumpEdit*>();
    ASSERT_NE(jump, nullptr);
    ASSERT_TRUE(jump->isVisible());
    QTest::keyClicks(jump, u"300"_qs);
    QTest::keyClick(jump, Qt::Key_Return);
    EXPECT_FALSE(jump->isVisible());
    EXPECT_EQ(view.currentLine(), LineNumber{299});
    EXPECT_LE(view.topRow(), 299u);
    EXPECT_GT(view.topRow() + static_cast<std::uint64_t>(view.pageRows()), 299u);

    QTest::keyClick(&view, Qt::Key_G, Qt::ControlModifier);
    QTest::keyClicks(jump, u"20-25"_qs);
    QTest::keyClick(jump, Qt::Key_Return);
    EXPECT_EQ(view.selection().firstLine(), LineNumber{19});
    EXPECT_EQ(view.selection().lastLine(), LineNumber{24});

    QTest::keyClick(&view, Qt::Key_G, Qt::ControlModifier);
    QTest::keyClicks(jump, u"nope"_qs);
    QTest::keyClick(jump, Qt::Key_Return);
    EXPECT_TRUE(jump->isVisible()) << "a bad entry stays to be fixed";
    QTest::keyClick(jump, Qt::Key_Escape);
    EXPECT_FALSE(jump->isVisible());
}

TEST_F(LogViewTest, NAndPStepThroughFailureLandmarks)
{
    open(test::ghaJobLog(60));
    const auto landmarks = structure->landmarks();
    ASSERT_GE(landmarks.size(), 3u);
    view.setFocus();
    view.goToLine(LineNumber{0}, false);
    QTest::keyClick(&view, Qt::Key_N);
    EXPECT_EQ(view.currentLine(), landmarks[0].line);
    QTest::keyClick(&view, Qt::Key_F8);
    EXPECT_EQ(view.currentLine(), landmarks[1].line);
    QTest::keyClick(&view, Qt::Key_P);
    EXPECT_EQ(view.currentLine(), landmarks[0].line);
    QSignalSpy notices(&view, &LogView::notice);
    QTest::keyClick(&view, Qt::Key_F8, Qt::ShiftModifier);
    EXPECT_EQ(notices.count(), 1) << "nothing above the first one";
    view.goToLine(LineNumber{log->lineCount() - 1}, false);
    EXPECT_FALSE(view.stepLandmark(true));
}

TEST_F(LogViewTest, WrapShowsLongLinesOnSeveralRowsAndTimestampsTakeAColumn)
{
    open("short\n" + std::string(700, 'x') + "\n2026-07-29T23:58:10.4613408Z stamped\n", false);
    QSignalSpy frames(&view, &LogView::framePainted);
    view.viewport()->repaint();
    ASSERT_EQ(frames.count(), 1);
    EXPECT_EQ(frames.back().at(0).toInt(), 3);
    EXPECT_GT(view.horizontalScrollBar()->maximum(), 0);
    view.setWrap(true);
    view.viewport()->repaint();
    EXPECT_GT(frames.back().at(0).toInt(), 4) << "700 columns take several rows";
    EXPECT_EQ(view.horizontalScrollBar()->maximum(), 0);
    EXPECT_EQ(view.rowCount(), 3u) << "scrolling stays by line";
    view.setWrap(false);

    const int textX = view.rowPainter().textX();
    view.setTimestampsShown(true);
    EXPECT_GT(view.rowPainter().textX(), textX);
    view.viewport()->repaint();
    EXPECT_EQ(view.lineCache().find(LineNumber{2})->timestamp, u"23:58:10.461"_qs);
}

TEST_F(LogViewTest, SearchAndRulesHighlightVisibleTextAndTheOverviewShowsWhere)
{
    open(test::ghaJobLog(300));
    const std::vector<LineNumber> matches{LineNumber{20}, LineNumber{250}};
    view.setSearch(SearchQuery{"PASSED", SearchSyntax::Literal, true, SearchText::Display});
    view.addMatches(matches);
    ASSERT_TRUE(view.setHighlightRules({{{"test_op_1", SearchSyntax::Literal, true, {}}, Qt::red},
                                        {{"SKIP+ED", SearchSyntax::Regex, true, {}}, Qt::blue}}));
    view.goToLine(LineNumber{14}, false);
    view.viewport()->repaint();
    const DisplayLine* passed = view.lineCache().find(LineNumber{20});
    ASSERT_NE(passed, nullptr);
    EXPECT_THAT(passed->highlights, ::testing::Contains(::testing::Field(
                                        &ColumnHighlight::rule, LineHighlighter::kSearchRule)));
    const DisplayLine* skipped = view.lineCache().find(LineNumber{14});
    ASSERT_NE(skipped, nullptr);
    ASSERT_TRUE(skipped->display.contains(u"SKIPPED"_qs)) << skipped->display.toStdString();
    EXPECT_THAT(skipped->highlights,
                ::testing::Contains(::testing::Field(&ColumnHighlight::rule, 1)));
    const auto bad = view.setHighlightRules({{{"(", SearchSyntax::Regex, true, {}}, Qt::red}});
    EXPECT_FALSE(bad);

    const OverviewMarks marks = view.overviewMarks(100);
    ASSERT_EQ(marks.rows.size(), 100u);
    const auto count = [&](std::uint8_t bit) {
        return std::count_if(marks.rows.begin(), marks.rows.end(),
                             [bit](std::uint8_t m) { return (m & bit) != 0; });
    };
    EXPECT_EQ(count(LogOverviewBar::Match), 2);
    EXPECT_GE(count(LogOverviewBar::Landmark), 1);
    EXPECT_LT(marks.visibleTop, marks.visibleBottom);
}

TEST_F(LogViewTest, AHundredMegabyteLineIsCutWithAMarkerAndPaintsFast)
{
    std::string bytes(100u << 20, 'a');
    bytes += "\nafter\n";
    open(bytes, false);
    bytes.clear();
    bytes.shrink_to_fit();
    QElapsedTimer timer;
    timer.start();
    view.viewport()->repaint();
    const qint64 firstFrame = timer.elapsed();
    const DisplayLine* huge = view.lineCache().find(LineNumber{0});
    ASSERT_NE(huge, nullptr);
    EXPECT_TRUE(huge->truncated);
    EXPECT_EQ(huge->cutMarker(),
              u"… [line cut: "_qs + QLocale().toString(104'857'600) + u" bytes]"_qs);
    // Scrolled to the far right, where the marker is.
    view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->maximum());
    timer.restart();
    for (int i = 0; i < 10; ++i)
        view.viewport()->repaint();
    const qint64 tenFrames = timer.elapsed();
    EXPECT_LT(firstFrame, 500) << "the first frame reads and decodes the cut line once";
    EXPECT_LT(tenFrames, 200) << "later frames draw only the visible columns";
}

TEST_F(LogViewTest, NulBytesAndInvalidUtf8ShowControlPicturesAndReplacements)
{
    open(std::string("nul\0here", 8) + "\nbad \xff\xfe utf8\n\x07 bell\n", false);
    const DisplayLine* nul = view.lineCache().find(LineNumber{0});
    const DisplayLine* bad = view.lineCache().find(LineNumber{1});
    const DisplayLine* bell = view.lineCache().find(LineNumber{2});
    ASSERT_TRUE(nul && bad && bell);
    EXPECT_EQ(nul->display, u"nul\u2400here"_qs);
    EXPECT_TRUE(bad->display.contains(QChar(0xfffd)));
    EXPECT_TRUE(bell->display.startsWith(QChar(0x2407)));
}

TEST_F(LogViewTest, RepaintsReadOnlyTheLinesOnScreen)
{
    open(test::ghaJobLog(2000), false);
    const std::uint64_t reads = view.lineCache().readCount();
    view.viewport()->repaint();
    EXPECT_EQ(view.lineCache().readCount(), reads) << "a repaint of the same rows reads nothing";
    view.verticalScrollBar()->setValue(1000);
    view.viewport()->repaint();
    EXPECT_EQ(view.lineCache().readCount(), reads + 1) << "one read for a new screen";
    EXPECT_LE(view.lineCache().size(), 2u * static_cast<std::size_t>(view.pageRows() + 1));
}
