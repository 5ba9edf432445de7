// TestsPanel: counts beside self-reported ones, run states, filtering that
// keeps the selection, lazy tracebacks and histories, and pictures of it in
// light and dark palettes.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_counts_bar.h"
#include "relayhud/ui/tests/tests_filter_bar.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"

#include "test_support.h"
#include "tests_fixtures.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <gmock/gmock.h>

#include <filesystem>
#include <map>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using O = std::optional<TestOutcome>;

namespace {

TestsPanelData runData(std::int64_t ticket = 1)
{
    TestsPanelData data;
    data.ticket = Ticket{ticket};
    data.jobTitle = u"torch-spyre / CI / test (default, 1, 3)"_qs;
    data.run.id = TestRunId{9};
    data.run.label = "artifacts of run 14800012345";
    data.results = {
        test::result(1, "test_ops.py", "TestCommonPRIVATEUSE1",
                     "test_compare_cpu_add_spyre_float16", TestOutcome::Failed,
                     "op__add,dtype__float16", "AssertionError: not close"),
        test::result(2, "test_ops.py", "TestCommonPRIVATEUSE1", "test_compare_cpu_mul_spyre_int8",
                     TestOutcome::Passed, "op__mul,dtype__int8"),
        test::result(3, "test_view_ops.py", "TestViewOpsPRIVATEUSE1", "test_view_spyre",
                     TestOutcome::Passed),
        test::result(4, "test_view_ops.py", "TestViewOpsPRIVATEUSE1", "test_t_spyre",
                     TestOutcome::Error, "", "RuntimeError: <b>device lost</b>"),
        test::result(5, "test_nn.py", "TestNNPRIVATEUSE1", "test_relu_spyre_float16",
                     TestOutcome::XPassStrict, "op__relu,dtype__float16",
                     "XPASS strict: test passed but xfail strict=True"),
        test::result(6, "test_nn.py", "TestNNPRIVATEUSE1", "test_gelu_spyre_float16",
                     TestOutcome::Skipped, "op__gelu,dtype__float16", "not supported"),
    };
    data.results[0].tracebackId = TestMessageId{101};
    data.results[3].tracebackId = TestMessageId{104};
    data.histories = {test::history(1, {O(TestOutcome::Passed), O(TestOutcome::Failed)})};
    data.selfReported = TestCounts{6, 5, 0, 1};
    return data;
}

// A real report (numpy's own JUnit XML with its failures and skips), with
// tracebacks answered as the loader would and synthetic histories for the
// failing tests.
struct CorpusRun {
    TestsPanelData data;
    std::map<std::int64_t, QString> tracebacks;
};

CorpusRun corpusRun(const std::string& path)
{
    CorpusRun run;
    run.data.ticket = Ticket{1};
    run.data.jobTitle = u"numpy / CI / test (default, 1, 1, linux.2xlarge)"_qs;
    run.data.results = test::resultsFromJunit(path);
    auto report = readJunitFile(path);
    if (!report)
        return run;
    using Out = TestOutcome;
    const std::vector<std::vector<O>> patterns{
        {Out::Passed, Out::Passed, Out::Passed, Out::Passed, Out::Passed, Out::Failed},
        {Out::Failed, Out::Failed, Out::Passed, Out::Failed, Out::Failed, Out::Failed},
        {Out::Passed, std::nullopt, Out::Passed, Out::Failed, Out::Passed, Out::Failed},
        {Out::Skipped, Out::Skipped, Out::Passed, Out::Passed, Out::Passed, Out::Failed}};
    for (std::size_t i = 0; i < report->cases.size(); ++i) {
        StoredTestResult& r = run.data.results[i];
        if (!report->cases[i].traceback.text.empty()) {
            r.tracebackId = TestMessageId{1000 + r.testId.value};
            run.tracebacks[r.tracebackId.value] =
                QString::fromStdString(report->cases[i].traceback.text);
        }
        if (isFailingOutcome(r.outcome))
            run.data.histories.push_back(test::history(
                r.testId.value, patterns[run.data.histories.size() % patterns.size()]));
    }
    TestCounts self;
    self.total = static_cast<std::int64_t>(report->declared.tests);
    self.failed = 0; // what a too-green CI claims
    self.skipped = static_cast<std::int64_t>(report->declared.skipped);
    self.passed = self.total - self.skipped;
    run.data.selfReported = self;
    return run;
}

void takePictures(TestsPanel& panel, const QString& name)
{
    panel.resize(1200, 760);
    panel.show();
    QApplication::processEvents();
    const QImage picture = panel.grab().toImage();
    EXPECT_FALSE(picture.isNull());
    test::keepPicture(panel, name);
}

std::int64_t currentTestId(const TestsPanel& panel)
{
    return panel.view()->currentIndex().data(TestsModel::TestIdRole).toLongLong();
}

} // namespace

// Health checks (pytorch/crcr-test) and test commands (TorchedHat) are no
// JUnit cases (real-backends.md 1.3, 1.4): labelled, never compared.
TEST(TestsCountsBar, NeverComparesHealthChecksOrCommandsWithTheArtifacts)
{
    OutcomeCounts artifacts{};
    artifacts[static_cast<std::size_t>(TestOutcome::Passed)] = 1200;
    artifacts[static_cast<std::size_t>(TestOutcome::Failed)] = 3;
    for (CountKind kind : {CountKind::HealthChecks, CountKind::TestCommands}) {
        TestsCountsBar bar;
        bar.setCounts(artifacts, TestCounts{4, 3, 1, 0}, kind);
        EXPECT_THAT(bar.mismatchLines(), IsEmpty());
        EXPECT_TRUE(bar.selfReportedText().contains(toQString(countKindName(kind))))
            << bar.selfReportedText().toStdString();
        EXPECT_TRUE(bar.selfReportedText().contains(u"not compared"_qs));
    }
    TestsCountsBar cases;
    cases.setCounts(artifacts, TestCounts{4, 3, 1, 0}, CountKind::TestCases);
    EXPECT_FALSE(cases.mismatchLines().isEmpty()); // JUnit cases: compared
    EXPECT_TRUE(cases.selfReportedText().startsWith(u"Self-reported (test cases):"_qs));
    TestsCountsBar health;
    health.setCounts(artifacts, TestCounts{4, 3, 1, 0}, CountKind::HealthChecks);
    health.resize(420, 80);
    relayhud::ui::test::keepPictures(health, QStringLiteral("tests_counts_health_checks"));
}

TEST(TestsCountsBar, FlagsEachDisagreementWithTheSelfReportedCounts)
{
    OutcomeCounts artifacts{};
    artifacts[static_cast<std::size_t>(TestOutcome::Passed)] = 1200;
    artifacts[static_cast<std::size_t>(TestOutcome::Failed)] = 3;
    artifacts[static_cast<std::size_t>(TestOutcome::Skipped)] = 10;
    artifacts[static_cast<std::size_t>(TestOutcome::XFailed)] = 2;
    EXPECT_THAT(countMismatches(artifacts, TestCounts{1215, 1212, 0, 12}),
                ElementsAre(u"Self-reported: 0 failed — artifacts: 3 failed"_qs));
    EXPECT_THAT(countMismatches(artifacts, TestCounts{1215, 1200, 3, 12}), IsEmpty());
    artifacts[static_cast<std::size_t>(TestOutcome::Error)] = 1;
    EXPECT_THAT(
        countMismatches(artifacts, TestCounts{2000, 1200, 3, 5}),
        ElementsAre(u"Self-reported: 3 failed — artifacts: 4 failed, error or xpass-strict"_qs,
                    u"Self-reported: 5 skipped — artifacts: 12 skipped or xfailed"_qs,
                    u"Self-reported: 2,000 tests — artifacts: 1,216 tests"_qs));
}

TEST(TestsPanel, ShowsCountsSelectsTheWorstFailureAndAsksForItsTexts)
{
    TestsPanel panel;
    QSignalSpy tracebacks(&panel, &TestsPanel::tracebackRequested);
    QSignalSpy histories(&panel, &TestsPanel::historyRequested);
    ASSERT_TRUE(panel.setData(runData()));
    EXPECT_TRUE(panel.isShowingTable());
    EXPECT_EQ(panel.titleText(), u"torch-spyre / CI / test (default, 1, 3)"_qs);
    const TestsCountsBar& counts = *panel.countsBar();
    EXPECT_EQ(counts.outcomeButton(TestOutcome::Failed)->text(), u"1 failed"_qs);
    EXPECT_EQ(counts.outcomeButton(TestOutcome::Passed)->text(), u"2 passed"_qs);
    EXPECT_TRUE(counts.outcomeButton(TestOutcome::XFailed)->isHidden()); // none of them
    EXPECT_EQ(counts.selfReportedText(),
              u"Self-reported: 5 passed · 0 failed · 1 skipped · 6 total"_qs);
    EXPECT_THAT(
        counts.mismatchLines(),
        ElementsAre(u"Self-reported: 0 failed — artifacts: 3 failed, error or xpass-strict"_qs));
    EXPECT_EQ(panel.filterBar()->shownText(), u"6 tests"_qs);
    // Failing first: the failed test is selected and its traceback asked for;
    // it has a history, so none is asked for.
    EXPECT_EQ(currentTestId(panel), 1);
    EXPECT_EQ(panel.detailsView()->identityText(),
              u"test_ops.py::TestCommonPRIVATEUSE1::test_compare_cpu_add_spyre_float16"_qs);
    EXPECT_THAT(tracebacks, ElementsAre(QVariantList{qint64{101}}));
    EXPECT_THAT(histories, IsEmpty());
    EXPECT_EQ(panel.detailsView()->historySummary(),
              u"Failing since 5ba1001 (1 run) · flip rate 100% · the job's run before, of any "
              u"PR, passed"_qs);
    EXPECT_EQ(panel.detailsView()->bodyText(),
              u"AssertionError: not close\n\nLoading traceback…"_qs);
    EXPECT_THAT(panel.model().index(0, 0).data(TestsModel::HistoryBadgeRole).toInt(),
                static_cast<int>(TestsModel::HistoryBadge::NewFailure));
}

TEST(TestsPanel, TakesOnlyTheTracebackOfTheShownTestAsPlainText)
{
    TestsPanel panel;
    panel.setData(runData());
    panel.setTraceback(104, u"not this one"_qs, false, {});
    EXPECT_FALSE(panel.detailsView()->bodyText().contains(u"not this one"_qs));
    panel.setTraceback(101, u"<b>E   AssertionError</b>\n  at <module>"_qs, true,
                       u"/cache/blobs/ab/cdef"_qs);
    EXPECT_EQ(panel.detailsView()->bodyText(),
              u"AssertionError: not close\n\n<b>E   AssertionError</b>\n  at <module>"_qs);
    EXPECT_EQ(panel.detailsView()->cutNote(),
              u"The traceback was cut; the whole text is in /cache/blobs/ab/cdef"_qs);
}

TEST(TestsPanel, AsksForAMissingHistoryAndShowsItWhenItComes)
{
    TestsPanel panel;
    panel.setData(runData());
    QSignalSpy histories(&panel, &TestsPanel::historyRequested);
    QSignalSpy tracebacks(&panel, &TestsPanel::tracebackRequested);
    ASSERT_TRUE(panel.selectTest(TestId{4}));
    EXPECT_THAT(histories, ElementsAre(QVariantList{qint64{4}}));
    EXPECT_THAT(tracebacks, ElementsAre(QVariantList{qint64{104}}));
    EXPECT_EQ(panel.detailsView()->historySummary(), u"Loading history…"_qs);
    panel.setHistory(test::history(3, {O(TestOutcome::Passed)})); // another test: table only
    EXPECT_EQ(panel.detailsView()->historySummary(), u"Loading history…"_qs);
    panel.setHistory(test::history(4, {O(TestOutcome::Error), O(TestOutcome::Error)}));
    EXPECT_EQ(
        panel.detailsView()->historySummary(),
        u"Failing since 5ba1000 (2 runs) · flip rate 0% · the job's run before failed too"_qs);
    EXPECT_EQ(panel.detailsView()->historyStrip().history().points.size(), 2u);
    EXPECT_EQ(panel.model()
                  .indexOfTest(TestId{4})
                  .data(TestsModel::HistoryStripRole)
                  .toByteArray()
                  .size(),
              2);
    // Selecting it again asks for nothing more.
    panel.selectTest(TestId{1});
    panel.selectTest(TestId{4});
    EXPECT_EQ(histories.count(), 1);  // test 1 came with its history; 4 was asked once
    EXPECT_EQ(tracebacks.count(), 3); // 104, then 101 and 104 as each is shown anew
}

TEST(TestsPanel, OutcomeTogglesAndTextFilterTheTable)
{
    TestsPanel panel;
    panel.setData(runData());
    panel.countsBar()->outcomeButton(TestOutcome::Passed)->click();
    EXPECT_EQ(panel.model().rowCount(), 2);
    EXPECT_EQ(panel.filterBar()->shownText(), u"2 of 6 tests"_qs);
    panel.countsBar()->outcomeButton(TestOutcome::Failed)->click();
    EXPECT_EQ(panel.model().rowCount(), 3);
    panel.filterBar()->textEdit()->setText(u"MUL int8"_qs);
    EXPECT_EQ(panel.model().rowCount(), 1);
    panel.countsBar()->outcomeButton(TestOutcome::Passed)->click();
    panel.countsBar()->outcomeButton(TestOutcome::Failed)->click();
    EXPECT_EQ(panel.countsBar()->selectedOutcomes(), 0);
    EXPECT_EQ(panel.model().rowCount(), 1);
    panel.filterBar()->textEdit()->clear();
    QComboBox* op = panel.filterBar()->opCombo();
    ASSERT_FALSE(op->isHidden());
    op->setCurrentIndex(op->findData(u"relu"_qs));
    EXPECT_EQ(op->currentText(), u"relu  (1)"_qs);
    EXPECT_EQ(panel.model().rowCount(), 1);
    EXPECT_EQ(panel.model().index(0, 0).data(TestsModel::TestIdRole).toLongLong(), 5);
}

TEST(TestsPanel, KeepsTheSelectedTestAcrossFiltering)
{
    TestsPanel panel;
    panel.setData(runData());
    ASSERT_TRUE(panel.selectTest(TestId{3}));
    QLineEdit* text = panel.filterBar()->textEdit();
    text->setText(u"test_"_qs);
    EXPECT_EQ(currentTestId(panel), 3);
    text->setText(u"test_relu"_qs); // filters it out: the details stay on it
    EXPECT_FALSE(panel.view()->currentIndex().isValid());
    EXPECT_EQ(panel.detailsView()->testId(), TestId{3});
    text->setText(u"view"_qs); // back: selected again
    EXPECT_EQ(currentTestId(panel), 3);
    panel.view()->sortByColumn(TestsModel::TestColumn, Qt::DescendingOrder);
    EXPECT_EQ(currentTestId(panel), 3);
    panel.filterBar()->groupingCombo()->setCurrentIndex(
        panel.filterBar()->groupingCombo()->findData(static_cast<int>(TestsModel::Grouping::File)));
    EXPECT_EQ(currentTestId(panel), 3);
    EXPECT_TRUE(panel.view()->currentIndex().parent().isValid());
}

TEST(TestsPanel, GroupsStayExpandedUnlessTheUserCollapsedThem)
{
    TestsPanel panel;
    panel.setData(runData());
    QComboBox* grouping = panel.filterBar()->groupingCombo();
    grouping->setCurrentIndex(grouping->findData(static_cast<int>(TestsModel::Grouping::File)));
    const TestsModel& model = panel.model();
    ASSERT_EQ(model.rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        EXPECT_TRUE(panel.view()->isExpanded(model.index(row, 0)));
    const QModelIndex views = model.index(2, 0);
    ASSERT_EQ(views.data(TestsModel::GroupNameRole).toString(), u"test_view_ops.py"_qs);
    panel.view()->collapse(views);
    panel.filterBar()->textEdit()->setText(u"spyre"_qs);
    panel.filterBar()->textEdit()->setText(u"view"_qs); // the group vanishes and returns
    panel.filterBar()->textEdit()->clear();
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex group = model.index(row, 0);
        EXPECT_EQ(panel.view()->isExpanded(group),
                  group.data(TestsModel::GroupNameRole).toString() != u"test_view_ops.py"_qs);
    }
}

TEST(TestsPanel, ShowsWhyARunHasNoTests)
{
    TestsPanel panel;
    TestsPanelData data = runData();
    data.results.clear();
    data.run.state = TestRunState::Expired;
    data.run.location = "https://github.com/org/repo/actions/runs/7/artifacts";
    panel.setData(data);
    EXPECT_FALSE(panel.isShowingTable());
    EXPECT_TRUE(
        panel.messageText().startsWith(u"Artifacts expired (GitHub keeps them 90 days)."_qs));
    EXPECT_TRUE(panel.messageText().endsWith(u"actions/runs/7/artifacts"_qs));
    EXPECT_TRUE(panel.countsBar()->outcomeButton(TestOutcome::Failed)->isHidden());
    EXPECT_THAT(panel.countsBar()->mismatchLines(), IsEmpty());

    data.ticket = Ticket{2};
    data.run.state = TestRunState::Unauthorized;
    data.run.message = "401 Bad credentials: set Settings > Artifacts > GitHub token";
    panel.setData(data);
    EXPECT_TRUE(panel.messageText().startsWith(
        u"401 Bad credentials: set Settings > Artifacts > GitHub token"_qs));
    data.ticket = Ticket{3};
    data.run.state = TestRunState::Failed;
    data.run.message = "HTTP 502 from the artifact store";
    panel.setData(data);
    EXPECT_TRUE(panel.messageText().startsWith(
        u"Could not fetch the test results: HTTP 502 from the artifact store"_qs));
    data.ticket = Ticket{4};
    data.run.state = TestRunState::NoReports;
    data.run.message.clear();
    panel.setData(data);
    EXPECT_TRUE(panel.messageText().startsWith(u"The artifacts hold no JUnit report."_qs));
    data.ticket = Ticket{5};
    data.run.state = TestRunState::Stored;
    data.run.warnings = {"report.xml: XML ends unexpectedly at byte 5120; kept the 12 test cases "
                         "before it"};
    panel.setData(data);
    EXPECT_TRUE(panel.messageText().startsWith(u"The reports hold no test cases."_qs));
    EXPECT_THAT(panel.countsBar()->warningLines(),
                ElementsAre(u"report.xml: XML ends unexpectedly at byte 5120; kept the 12 test "
                            u"cases before it"_qs));
    panel.setLoading();
    EXPECT_EQ(panel.messageText(), u"Fetching test results…"_qs);
    panel.setMessage(u"Select a cell to see its tests."_qs);
    EXPECT_EQ(panel.messageText(), u"Select a cell to see its tests."_qs);
    EXPECT_EQ(panel.model().testCount(), 0u);
}

TEST(TestsPanel, DropsALoadOlderThanTheOneShown)
{
    TestsPanel panel;
    ASSERT_TRUE(panel.setData(runData(7)));
    TestsPanelData old = runData(6);
    old.jobTitle = u"stale"_qs;
    EXPECT_FALSE(panel.setData(old));
    EXPECT_EQ(panel.titleText(), u"torch-spyre / CI / test (default, 1, 3)"_qs);
    EXPECT_FALSE(panel.setData(std::shared_ptr<const TestsPanelData>()));
    EXPECT_TRUE(panel.setData(runData(7))); // the same load again is fine
}

TEST(TestsPanel, KeepsTheSameTestSelectedOnTheNextRun)
{
    TestsPanel panel;
    panel.setData(runData(1));
    panel.selectTest(TestId{6});
    TestsPanelData next = runData(2);
    std::swap(next.results[0], next.results[5]); // another order, same tests
    panel.setData(next);
    EXPECT_EQ(currentTestId(panel), 6);
}

TEST(TestsPanel, PicturesOfARealReportInLightAndDarkPalettes)
{
    const std::string path =
        std::string(RELAYHUD_CORPUS_DIR) + "/junit/numpy_multiarray_runxfail_strict.xml";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "the shared corpus is not here: " << path;
    CorpusRun run = corpusRun(path);
    ASSERT_EQ(run.data.results.size(), 3159u);
    const QPalette lightPalette = QApplication::palette();
    const QString lightStyle = QApplication::style()->name();
    for (const bool dark : {false, true}) {
        if (dark)
            applyDarkPalette(*qApp);
        TestsPanel panel;
        QObject::connect(&panel, &TestsPanel::tracebackRequested, &panel,
                         [&](qint64 id) { panel.setTraceback(id, run.tracebacks[id], false, {}); });
        ASSERT_TRUE(panel.setData(run.data));
        EXPECT_EQ(panel.countsBar()->outcomeButton(TestOutcome::Failed)->text(), u"6 failed"_qs);
        EXPECT_THAT(panel.countsBar()->mismatchLines(),
                    ElementsAre(u"Self-reported: 0 failed — artifacts: 6 failed"_qs));
        EXPECT_TRUE(panel.detailsView()->bodyText().contains(u"numpy/core/tests/"_qs));
        takePictures(panel, dark ? u"tests_panel_dark.png"_qs : u"tests_panel_light.png"_qs);
        QComboBox* grouping = panel.filterBar()->groupingCombo();
        grouping->setCurrentIndex(
            grouping->findData(static_cast<int>(TestsModel::Grouping::Class)));
        takePictures(panel, dark ? u"tests_panel_grouped_dark.png"_qs
                                 : u"tests_panel_grouped_light.png"_qs);
    }
    QApplication::setStyle(QStyleFactory::create(lightStyle));
    QApplication::setPalette(lightPalette);
}

TEST(TestsPanel, DetailsShowEveryFieldAndCopyAndActivateWork)
{
    TestsPanel panel;
    TestsPanelData data = runData();
    data.results[2].retried = "pod";
    data.results[2].durationSeconds = 12.34;
    panel.setData(data);
    QSignalSpy activated(&panel, &TestsPanel::testActivated);
    ASSERT_TRUE(panel.selectTest(TestId{3}));
    EXPECT_EQ(panel.detailsView()->outcomeText(), u"passed · 12.3 s · retried (pod)"_qs);
    EXPECT_EQ(panel.model().indexOfTest(TestId{3}).data().toString(), u"passed ↻"_qs);
    ASSERT_TRUE(panel.selectTest(TestId{1}));
    panel.view()->setFocus();
    QTest::keyClick(panel.view(), Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(),
              u"test_ops.py::TestCommonPRIVATEUSE1::test_compare_cpu_add_spyre_float16"_qs);
    panel.resize(900, 600);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    const QRect cell = panel.view()->visualRect(panel.view()->currentIndex());
    QWidget* viewport = panel.view()->viewport();
    QTest::mousePress(viewport, Qt::LeftButton, {}, cell.center()); // as Qt's own view tests do
    QTest::mouseDClick(viewport, Qt::LeftButton, {}, cell.center());
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, cell.center());
    EXPECT_THAT(activated, ElementsAre(QVariantList{qint64{1}}));
}

TEST(TestsPanel, AJobWithoutArtifactsShowsWhyAndItsOwnTriage)
{
    TestsPanel panel;
    TestsPanelData data;
    data.ticket = Ticket{1};
    data.triageBase = TriageTarget{"org/repo", "CI", "test (default, 1, 1)", Sha{"abc"}, 1, ""};
    TestTriage job;
    job.suggested = triage::FailureClass::Infra;
    job.why = u"the job failed without failing tests; its log's failure line is infra"_qs;
    job.evidence = {u"Log line 812, rule \u201crunner lost\u201d (Infra)"_qs};
    data.triage[TestId{}] = job; // the job's own
    ASSERT_TRUE(panel.setData(data));
    EXPECT_FALSE(panel.isShowingTable());
    EXPECT_TRUE(panel.messageText().startsWith(u"This run has no test results"_qs));
    EXPECT_TRUE(panel.jobTriageText().startsWith(u"Job: Infra (suggested)"_qs))
        << panel.jobTriageText().toStdString();
    EXPECT_TRUE(panel.jobTriageText().contains(u"runner lost"_qs));

    // A tag on the job replaces the suggestion in the bar.
    TestTriage tagged = job;
    tagged.tag =
        TriageTag{*data.triageBase, triage::FailureClass::BackendBug, "driver hang", "", "alice",
                  1'796'126'400'000};
    panel.applyTriage(TestId{0}, tagged);
    EXPECT_TRUE(panel.jobTriageText().startsWith(u"Job: Backend bug (tagged by alice)"_qs))
        << panel.jobTriageText().toStdString();
    EXPECT_TRUE(panel.jobTriageText().contains(u"driver hang"_qs));
}

// Issue 36: a red cell opens on a failure. Another run keeps the selected
// test only where it fails there too.
TEST(TestsPanel, AnotherRunNeverKeepsAPassingTestSelected)
{
    TestsPanel panel;
    panel.setData(runData(1));
    panel.selectTest(TestId{2}); // passing
    ASSERT_EQ(currentTestId(panel), 2);
    TestsPanelData other = runData(2);
    other.run.id = TestRunId{10};
    other.run.checkRunRow = CheckRunRow{77};
    panel.setData(other);
    const StoredTestResult* shown = panel.model().result(panel.view()->currentIndex());
    ASSERT_NE(shown, nullptr);
    EXPECT_TRUE(isFailingOutcome(shown->outcome)) << shown->identity;
    EXPECT_EQ(panel.selectedTestId(), shown->testId);
    EXPECT_EQ(panel.detailsView()->identityText(), toQString(shown->identity));

    panel.selectTest(TestId{4}); // failing: kept in the next run, which fails it too
    TestsPanelData third = runData(3);
    third.run.id = TestRunId{11};
    third.run.checkRunRow = CheckRunRow{78};
    panel.setData(third);
    EXPECT_EQ(currentTestId(panel), 4);
}

// A reload of the run (a tag, a colleague's tag, an artifact pass) shows the
// selected failure's class at once, not at the next click on its row.
TEST(TestsPanel, AReloadedRunShowsTheSelectedFailuresClassAtOnce)
{
    TestsPanel panel;
    TestsPanelData data = runData(1);
    data.triageBase = TriageTarget{"org/repo", "CI", "test (default, 1, 3)", Sha{"abc"}, 1, ""};
    TestTriage suggested;
    suggested.suggested = triage::FailureClass::Flaky;
    data.triage[TestId{1}] = suggested;
    data.triage[TestId{4}] = suggested;
    panel.setData(data);
    panel.selectTest(TestId{4});
    EXPECT_TRUE(panel.detailsView()->triageText().startsWith(u"Flaky (suggested"_qs))
        << panel.detailsView()->triageText().toStdString();

    TestsPanelData tagged = data;
    tagged.ticket = Ticket{2};
    tagged.triage[TestId{4}].tag =
        TriageTag{*data.triageBase, triage::FailureClass::Infra, "", "", "bob", 1'796'126'400'000};
    panel.setData(tagged);
    EXPECT_EQ(currentTestId(panel), 4);
    EXPECT_TRUE(panel.detailsView()->triageText().contains(u"Infra"_qs))
        << panel.detailsView()->triageText().toStdString();
}
