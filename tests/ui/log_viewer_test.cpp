// LogViewer end to end: opening, landmarks (under the model tester), "show
// the test's failure", streaming search counted like the engine counts,
// the grep -C filter, tail mode, and files that are empty, missing or
// deleted while open. Pictures in light and dark palettes for looking.
#include "relayhud/logs/log_search.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/logs/landmarks_model.h"
#include "relayhud/ui/logs/line_jump_edit.h"
#include "relayhud/ui/logs/log_document.h"
#include "relayhud/ui/logs/log_search_bar.h"
#include "relayhud/ui/logs/log_search_controller.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"
#include "relayhud/ui/logs/log_window.h"

#include "log_fixtures.h"
#include "test_support.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <gmock/gmock.h>

#include <fstream>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

std::uint64_t engineCount(const QString& path, const SearchQuery& query)
{
    auto log = LogFile::open(path.toStdString());
    if (!log)
        return ~0ull;
    LogSearch search(*log);
    if (!search.start(query))
        return ~0ull;
    search.wait();
    return search.matchCount();
}

void typeSearch(LogViewer& viewer, const QString& text)
{
    QLineEdit* edit = viewer.searchBar()->textEdit();
    edit->clear();
    QTest::keyClicks(edit, text);
}

// Waits for the search of what the bar holds now to finish; its count.
qint64 searchSettles(LogViewer& viewer)
{
    const LogSearchController* search = viewer.searchController();
    const std::string pattern = viewer.searchBar()->query().pattern;
    const bool settled = QTest::qWaitFor(
        [&] {
            const auto& q = search->query();
            return q && q->pattern == pattern
                   && q->caseSensitive == viewer.searchBar()->query().caseSensitive
                   && q->syntax == viewer.searchBar()->query().syntax && !search->isRunning();
        },
        10000);
    return settled ? static_cast<qint64>(search->matchCount()) : -1;
}

bool hadOrWaits(QSignalSpy& spy, int ms = 10000) { return spy.count() > 0 || spy.wait(ms); }

} // namespace

TEST(LogViewer, OpensAJobLogWithGroupsColoursAndLandmarks)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(200));
    LogViewer viewer;
    test::CheckedModel checked(viewer.landmarksModel());
    QSignalSpy landmarks(&viewer, &LogViewer::landmarksChanged);
    viewer.resize(1100, 600);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, path));
    EXPECT_THAT(checked.warnings(), IsEmpty());
    EXPECT_GE(landmarks.count(), 1);
    LogView* view = viewer.view();
    EXPECT_EQ(view->rowCount(), viewer.document()->file()->lineCount());
    EXPECT_THAT(viewer.statusText().toStdString(), HasSubstr("lines"));
    EXPECT_TRUE(viewer.progressText().isEmpty()) << "indexing is done";

    view->setFolded(LineNumber{5}, true);
    EXPECT_LT(view->rowCount(), viewer.document()->file()->lineCount());
    view->setFolded(LineNumber{5}, false);

    view->viewport()->repaint();
    const DisplayLine* colored = view->lineCache().find(LineNumber{6});
    ASSERT_NE(colored, nullptr);
    EXPECT_FALSE(colored->styles.empty()) << "the command line is cyan and bold";

    LandmarksModel* model = viewer.landmarksModel();
    ASSERT_GE(model->rowCount(), 3);
    std::vector<LandmarkKind> kinds;
    for (int r = 0; r < model->rowCount(); ++r)
        kinds.push_back(model->landmarkAt(r).kind);
    EXPECT_THAT(kinds, ::testing::Contains(LandmarkKind::TestSection));
    EXPECT_THAT(kinds, ::testing::Contains(LandmarkKind::TestFailed));
    // The runner's generic "Process completed with exit code 1." is never one.
    for (int r = 0; r < model->rowCount(); ++r)
        EXPECT_THAT(model->landmarkAt(r).title, ::testing::Not(HasSubstr("exit code")));

    // Clicking a landmark shows its line.
    const QModelIndex second = model->index(1);
    viewer.landmarksView()->setCurrentIndex(second);
    EXPECT_EQ(view->currentLine(), model->landmarkAt(1).line);
    EXPECT_EQ(model->data(second, LandmarksModel::LineRole).toULongLong(),
              model->landmarkAt(1).line.value);
}

TEST(LogViewer, GoesToATestsFailureSectionEvenWhenAskedBeforeTheLogIsOpen)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(3000));
    LogViewer viewer;
    viewer.resize(1000, 500);
    viewer.show();
    QSignalSpy resolved(&viewer, &LogViewer::testFailureResolved);
    viewer.openFile(path);
    EXPECT_FALSE(viewer.goToTestFailure(QString::fromLatin1(test::kGhaFailedTest)))
        << "not scanned yet: the request waits";
    ASSERT_TRUE(resolved.wait(20000));
    EXPECT_TRUE(resolved.front().at(1).toBool());
    const LineNumber line = viewer.view()->currentLine();
    const std::string text = test::decodedLine(*viewer.document()->file(), line.value);
    EXPECT_THAT(text, HasSubstr("TestTorch.test_sum_neg_dim")) << "the section header";
    EXPECT_THAT(text, HasSubstr("____"));
    EXPECT_EQ(viewer.view()->selection().firstLine(), line);

    // Once scanned, the answer is immediate; a test the log never ran is not found.
    EXPECT_TRUE(viewer.goToTestFailure(u"test_torch.py::TestTorch::test_sum_neg_dim"_qs));
    viewer.goToTestFailure(u"test_nn.py::TestNN::test_never_ran"_qs);
    ASSERT_TRUE(QTest::qWaitFor([&] { return resolved.count() == 3; }, 10000));
    EXPECT_FALSE(resolved.back().at(1).toBool());
}

TEST(LogViewer, SearchStreamsCountsLikeTheEngineAndTypingOnCancels)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(5000));
    LogViewer viewer;
    viewer.resize(1000, 500);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, path));
    QSignalSpy finished(&viewer, &LogViewer::searchFinished);
    // Typed quickly: one search for the last text, after the pause.
    typeSearch(viewer, u"PASS"_qs);
    typeSearch(viewer, u"SKIPPED"_qs);
    ASSERT_TRUE(finished.wait(10000));
    QTest::qWait(LogSearchBar::kDebounceMs * 2);
    ASSERT_EQ(finished.count(), 1) << "the first text never searched";
    const std::uint64_t expected =
        engineCount(path, {"SKIPPED", SearchSyntax::Literal, true, SearchText::Display});
    EXPECT_EQ(finished.back().at(0).toLongLong(), static_cast<qint64>(expected));
    EXPECT_EQ(viewer.view()->matches().size(), expected);
    EXPECT_EQ(viewer.searchBar()->countLabel()->text(),
              QLocale().toString(static_cast<qulonglong>(expected)) + u" matches"_qs);
    // The view went to the first match; Enter goes on to the next.
    const LineNumber first = viewer.view()->currentLine();
    EXPECT_EQ(first, viewer.view()->matches().front());
    QTest::keyClick(viewer.searchBar()->textEdit(), Qt::Key_Return);
    EXPECT_EQ(viewer.view()->currentLine(), viewer.view()->matches().at(1));
    QTest::keyClick(viewer.searchBar()->textEdit(), Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(viewer.view()->currentLine(), first);

    // Regex, case-sensitive then not, as the engine counts it.
    viewer.searchBar()->regexButton()->setChecked(true);
    viewer.searchBar()->caseButton()->setChecked(true);
    typeSearch(viewer, u"test_op_\\d+ passed"_qs);
    EXPECT_EQ(searchSettles(viewer), 0) << "case-sensitive: no lower-case passed";
    viewer.searchBar()->caseButton()->setChecked(false); // searches again at once
    EXPECT_EQ(searchSettles(viewer),
              static_cast<qint64>(engineCount(
                  path, {"test_op_\\d+ passed", SearchSyntax::Regex, false, SearchText::Display})));
    EXPECT_GT(searchSettles(viewer), 0);

    typeSearch(viewer, u"(unclosed"_qs);
    QTest::qWait(LogSearchBar::kDebounceMs * 2);
    EXPECT_EQ(viewer.searchBar()->countLabel()->text(), u"Invalid pattern"_qs);
}

TEST(LogViewer, FilterShowsMatchingLinesWithContext)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(400));
    LogViewer viewer;
    viewer.resize(1000, 500);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, path));
    QSignalSpy finished(&viewer, &LogViewer::searchFinished);
    typeSearch(viewer, u"SKIPPED"_qs);
    ASSERT_TRUE(finished.wait(10000));
    const auto matches = viewer.view()->matches().size();
    viewer.searchBar()->filterButton()->setChecked(true);
    EXPECT_TRUE(viewer.view()->isFiltered());
    // SKIPPED every 17 tests: with no context, rows are the matches and a
    // separator between each two.
    EXPECT_EQ(viewer.view()->rowCount(), 2 * matches - 1);
    viewer.searchBar()->contextSpin()->setValue(2);
    EXPECT_EQ(viewer.view()->rowCount(), 5 * matches + (matches - 1));
    viewer.searchBar()->filterButton()->setChecked(false);
    EXPECT_EQ(viewer.view()->rowCount(), viewer.document()->file()->lineCount());
}

TEST(LogViewer, FollowsAFileThatGrowsAndKeepsTheBottomInView)
{
    QTemporaryDir dir;
    std::string text;
    for (int i = 0; i < 200; ++i)
        text += "line " + std::to_string(i) + (i % 50 == 0 ? " HIT" : "") + "\n";
    const QString path = test::writeFile(dir, u"grow.log"_qs, text);
    LogViewer viewer;
    viewer.resize(900, 400);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, path));
    QSignalSpy finished(&viewer, &LogViewer::searchFinished);
    typeSearch(viewer, u"HIT"_qs);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_EQ(finished.back().at(0).toLongLong(), 4);
    viewer.followButton()->setChecked(true);
    EXPECT_TRUE(viewer.view()->isAtBottom());
    {
        std::ofstream out(path.toStdString(), std::ios::app);
        for (int i = 200; i < 1000; ++i)
            out << "line " << i << (i % 50 == 0 ? " HIT" : "") << "\n";
    }
    ASSERT_TRUE(QTest::qWaitFor([&] { return viewer.view()->rowCount() == 1000; }, 10000));
    EXPECT_TRUE(viewer.view()->isAtBottom()) << "it was at the bottom, so it stays there";
    ASSERT_TRUE(QTest::qWaitFor([&] { return viewer.view()->matches().size() == 20; }, 10000))
        << "the search went on over the new lines";
}

TEST(LogViewer, EmptyMissingAndDeletedFiles)
{
    QTemporaryDir dir;
    LogViewer viewer;
    viewer.resize(800, 300);
    viewer.show();
    ASSERT_TRUE(test::openAndSettle(viewer, test::writeFile(dir, u"empty.log"_qs, "")));
    EXPECT_EQ(viewer.view()->rowCount(), 0u);
    EXPECT_EQ(viewer.view()->placeholderText(), u"This log is empty."_qs);
    viewer.view()->viewport()->repaint();

    QSignalSpy opened(&viewer, &LogViewer::opened);
    viewer.openFile(dir.filePath(u"missing.log"_qs));
    ASSERT_TRUE(hadOrWaits(opened));
    EXPECT_FALSE(opened.front().at(0).toBool());
    EXPECT_THAT(viewer.view()->placeholderText().toStdString(), HasSubstr("Cannot open"));

    const QString doomed = test::writeFile(dir, u"doomed.log"_qs, test::ghaJobLog(500));
    ASSERT_TRUE(test::openAndSettle(viewer, doomed));
    viewer.setFollowing(true);
    ASSERT_TRUE(QFile::remove(doomed));
    ASSERT_TRUE(QTest::qWaitFor([&] { return viewer.noticeText().contains(u"deleted"_qs); }, 5000));
    // What was read stays readable: scroll everywhere and search.
    LogView* view = viewer.view();
    view->resetContent();
    view->updateLineCount();
    view->scrollToBottom();
    view->viewport()->repaint();
    EXPECT_EQ(view->rowCount(), viewer.document()->file()->lineCount());
    QSignalSpy finished(&viewer, &LogViewer::searchFinished);
    typeSearch(viewer, u"PASSED"_qs);
    ASSERT_TRUE(finished.wait(10000));
    EXPECT_GT(finished.back().at(0).toLongLong(), 0);
}

TEST(LogViewer, ShowLinesWaitsForTheIndexAndTheWindowOpensLinks)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(2000));
    LogWindow window;
    window.show();
    const auto link = parseLogLink(path + u":1500-1510"_qs);
    ASSERT_TRUE(link);
    window.openLink(*link);
    LogView* view = window.viewer()->view();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return view->selection().firstLine() == LineNumber{1499}; }, 10000));
    EXPECT_EQ(view->selection().lastLine(), LineNumber{1509});
    EXPECT_THAT(window.windowTitle().toStdString(), HasSubstr("job.log"));
    // The link back to the selection is the same link.
    EXPECT_EQ(view->linkToSelection(), link);
}

TEST(LogViewer, PicturesInLightAndDarkPalettes)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"job.log"_qs, test::ghaJobLog(12));
    const QPalette lightPalette = QApplication::palette();
    const QString lightStyle = QApplication::style()->name();
    for (const bool dark : {false, true}) {
        if (dark)
            applyDarkPalette(*qApp);
        LogWindow window;
        window.resize(1280, 800);
        window.show();
        LogViewer* viewer = window.viewer();
        ASSERT_TRUE(test::openAndSettle(*viewer, path));
        QSignalSpy finished(viewer, &LogViewer::searchFinished);
        typeSearch(*viewer, u"Tensor-likes"_qs);
        ASSERT_TRUE(finished.wait(10000));
        viewer->view()->setFolded(LineNumber{0}, true);
        viewer->landmarksView()->setCurrentIndex(viewer->landmarksModel()->index(0));
        viewer->view()->setFocus();
        QApplication::processEvents();
        const QImage picture = window.grab().toImage();
        EXPECT_EQ(picture.size(), window.size() * picture.devicePixelRatio());
        test::keepPicture(window, dark ? u"logview_dark.png"_qs : u"logview_light.png"_qs);
    }
    QApplication::setStyle(QStyleFactory::create(lightStyle));
    QApplication::setPalette(lightPalette);
}

TEST(LogWindow, OpensADroppedFileAndKeepsKeysWhereTheFocusIs)
{
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, u"dropped.log"_qs, test::ghaJobLog(50));
    LogWindow window;
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, {});
    QApplication::sendEvent(&window, &drop);
    LogViewer* viewer = window.viewer();
    EXPECT_EQ(viewer->filePath(), path);
    ASSERT_TRUE(QTest::qWaitFor([&] { return viewer->document()->progress().finished; }, 10000));

    QMimeData folder;
    folder.setUrls({QUrl::fromLocalFile(dir.path())});
    QDragEnterEvent notAFile(QPoint(50, 50), Qt::CopyAction, &folder, Qt::LeftButton, {});
    QApplication::sendEvent(&window, &notAFile);
    EXPECT_FALSE(notAFile.isAccepted()) << "a folder is not a log";

    // Ctrl+A in the search field selects its text, not the whole log.
    QLineEdit* search = viewer->searchBar()->textEdit();
    search->setFocus();
    search->setText(u"abc"_qs);
    QTest::keyClick(search, Qt::Key_A, Qt::ControlModifier);
    EXPECT_EQ(search->selectedText(), u"abc"_qs);
    EXPECT_TRUE(viewer->view()->selection().isEmpty());
    // In the view, Ctrl+G goes to a line (the Go menu's action).
    viewer->view()->setFocus();
    QTest::keyClick(viewer->view(), Qt::Key_G, Qt::ControlModifier);
    auto* jump = viewer->view()->findChild<LineJumpEdit*>();
    ASSERT_NE(jump, nullptr);
    EXPECT_TRUE(jump->isVisible());
}
