// Issue 36, "Never lose work", in the config editor: it opens on the
// selected backend's config with the selected test revealed (or on the
// configs of the backends in view); suggestions are one move per method
// under the entry that decides it, and Apply all shows the count and the
// diff before it changes anything; promoting a test that never passed in
// its recent runs warns first. With RELAYHUD_UI_SHOTS=DIR it keeps pictures
// of the opened editor, the apply-all confirmation and the warning.
#include "config_editor_fixture.h"
#include "sim_session.h"
#include "test_support.h"

#include "relayhud/config/text_diff.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/config/config_details_pane.h"
#include "relayhud/ui/config/config_prompts.h"
#include "relayhud/ui/config/suggestions_pane.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/config_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/util/time.h"

#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest/QTest>

#include <map>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test::config_editor;

namespace {

const std::string kRepo = "torch-spyre/torch-spyre";
const std::string kTestFile = "test/test_torch.py";

// Ten more runs of `job` on the fixture's SHAs, each test with its outcome
// in every run.
void addJob(const QString& cachePath, const std::string& job,
            const std::map<std::string, TestOutcome>& outcomes)
{
    auto cache = Database::open(cachePath.toStdString());
    ASSERT_TRUE(cache) << cache.message();
    for (int n = 1; n <= 10; ++n) {
        CheckRun run;
        run.downstreamRepo = kRepo;
        run.upstreamSha = Sha{std::string(39, 'a') + std::to_string(n % 10)};
        run.workflow = "CI";
        run.jobName = job;
        run.runId = "run-" + job + std::to_string(n);
        run.checkRunId = CheckRunId{"cr-" + job + std::to_string(n)};
        run.reported.status = RunStatus::Completed;
        run.reported.conclusion = Conclusion::Failure;
        UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, 1000 * n, "", ""};
        ASSERT_TRUE(RunStore(**cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
        auto row = RunStore(**cache).checkRunRowFor(run.checkRunId);
        ASSERT_TRUE(row && *row);
        auto writer =
            TestResultStore(**cache).beginTestRun({**row, TestRunSource::Artifacts, "a", "u"});
        ASSERT_TRUE(writer);
        for (const auto& [name, outcome] : outcomes) {
            TestCaseResult c;
            c.file = kTestFile;
            c.className = "TestTorchDeviceTypePRIVATEUSE1";
            c.name = name + "_spyre";
            c.identity = c.file + "::" + c.className + "::" + c.name;
            c.baseName = "TestTorchDeviceType::" + name;
            c.outcome = outcome;
            ASSERT_TRUE((*writer)->add(c));
        }
        ASSERT_TRUE((*writer)->commit({}));
    }
}

// A run of the fixture's job on a commit of today, so that the matrix (the
// last 30 days) shows it: test_item xfails, test_is_signed fails.
void addTodaysRun(const QString& cachePath)
{
    auto cache = Database::open(cachePath.toStdString());
    ASSERT_TRUE(cache) << cache.message();
    CheckRun run;
    run.downstreamRepo = kRepo;
    run.upstreamSha = Sha{std::string(39, 'b') + "1"};
    run.workflow = "CI";
    run.jobName = "test (beta, 1, 1)";
    run.runId = "run-today";
    run.checkRunId = CheckRunId{"cr-today"};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = Conclusion::Failure;
    const EpochSeconds now = nowSeconds() - 3600;
    UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, now, "Today", ""};
    ASSERT_TRUE(RunStore(**cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
    auto row = RunStore(**cache).checkRunRowFor(run.checkRunId);
    ASSERT_TRUE(row && *row);
    auto writer =
        TestResultStore(**cache).beginTestRun({**row, TestRunSource::Artifacts, "a", "u"});
    ASSERT_TRUE(writer);
    for (const auto& [name, outcome] : {std::pair{std::string("test_item"), TestOutcome::XFailed},
                                        {std::string("test_is_signed"), TestOutcome::Failed}}) {
        TestCaseResult c;
        c.file = kTestFile;
        c.className = "TestTorchDeviceTypePRIVATEUSE1";
        c.name = name + "_spyre";
        c.identity = c.file + "::" + c.className + "::" + c.name;
        c.baseName = "TestTorchDeviceType::" + name;
        c.outcome = outcome;
        ASSERT_TRUE((*writer)->add(c));
    }
    ASSERT_TRUE((*writer)->commit({}));
}

QAction* editorAction(MainWindow& window)
{
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("Outcome &Config Editor…"))
            return action;
    return nullptr;
}

QModelIndex firstCellOf(const QAbstractItemModel& model, const QString& backend)
{
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            if (index.data(MatrixModel::RunRowIdRole).toLongLong() != 0
                && index.data(MatrixModel::BackendRole).toString() == backend)
                return index;
        }
    return {};
}

// Reads the cache again and waits until the editor has it.
void reloadEditorCache(ConfigEditorWindow& editor)
{
    QSignalSpy loaded(&editor, &ConfigEditorWindow::cacheLoaded);
    editor.reloadCache();
    if (!editor.hasCache()) {
        ASSERT_TRUE(loaded.wait(10000));
    }
}

} // namespace

// Tools › Outcome Config Editor with a test selected in the tests panel: the
// editor opens on the selected cell's backend's config (Settings › Coverage;
// the demo's simulator fills it) with that test's deciding listing selected
// and its mode explained. With no cell selected it opens the configs of the
// backends in view instead of nothing.
TEST_F(ConfigEditor, OpensOnTheSelectedBackendsConfigWithTheSelectedTestRevealed)
{
    addTodaysRun(m_cachePath);
    SessionConfig session = test::offlineSession(m_cachePath);
    session.settings.outcomeConfigs.insert(QString::fromStdString(kRepo), m_path);
    MainWindow window(std::move(session));
    window.show();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, test::kWaitMs));
    const QModelIndex cell = firstCellOf(window.matrix()->proxy(), QString::fromStdString(kRepo));
    ASSERT_TRUE(cell.isValid());
    QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
    window.matrix()->view()->selectionModel()->setCurrentIndex(cell,
                                                               QItemSelectionModel::ClearAndSelect);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, test::kWaitMs));
    const QString identity =
        QStringLiteral("test/test_torch.py::TestTorchDeviceTypePRIVATEUSE1::test_item_spyre");
    ASSERT_TRUE(window.tests()->panel()->selectIdentity(identity));

    QAction* open = editorAction(window);
    ASSERT_NE(open, nullptr);
    EXPECT_EQ(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    open->trigger();
    ConfigEditorWindow* editor = window.configs()->openEditor(); // the one just opened
    ASSERT_EQ(editor->model()->documentCount(), 1u);
    EXPECT_EQ(QFileInfo(editor->model()->document(0).path()), QFileInfo(m_path));
    const auto ref = editor->currentRef();
    ASSERT_TRUE(ref);
    ASSERT_EQ(ref->kind, ConfigNodeRef::Name);
    const auto& cfg = editor->model()->document(0).parsed().config;
    EXPECT_EQ(cfg.files[0].tests[ref->entry].names[ref->name].name, kPromoted);
    EXPECT_EQ(editor->detailsPane()->title(), identity);
    EXPECT_TRUE(editor->detailsPane()->explanation().contains(QStringLiteral("Outcome: xfail")))
        << editor->detailsPane()->explanation().toStdString();
    editor->resize(1366, 768);
    QApplication::processEvents();
    test::keepPictures(*editor, QStringLiteral("config_editor_opened"));
    ASSERT_TRUE(editor->close());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // WA_DeleteOnClose

    // Nothing selected: the configs of the backends in view.
    window.matrix()->view()->selectionModel()->clearCurrentIndex();
    open->trigger();
    editor = window.configs()->openEditor();
    ASSERT_EQ(editor->model()->documentCount(), 1u);
    EXPECT_EQ(QFileInfo(editor->model()->document(0).path()), QFileInfo(m_path));
    ASSERT_TRUE(editor->close());
}

// A second job argues for the same demotion of test_is_signed (it fails
// there too) and for promoting test_item (it passes in all ten runs there):
// two moves, not three, each under the entry that decides it. Apply all
// asks first with the count and the exact diff; Cancel changes nothing.
TEST_F(ConfigEditor, SuggestionsAreOneMovePerMethodUnderItsEntryAndApplyAllAsksFirst)
{
    addJob(m_cachePath, "test (beta, 1, 2)",
           {{"test_is_signed", TestOutcome::Failed}, {"test_item", TestOutcome::Passed}});
    reloadEditorCache(*m_window);
    ASSERT_TRUE(m_window->openFile(m_path));
    const std::vector<config::Suggestion> moves = m_window->suggestions(0);
    ASSERT_EQ(moves.size(), 2u) << "test_is_signed's demotion once, though two jobs argue it";
    const auto& groups = m_window->suggestionGroups(0);
    ASSERT_EQ(groups.size(), 2u);
    for (const config::SuggestionGroup& group : groups)
        EXPECT_EQ(group.moves.size(), 1u);
    SuggestionsPane* pane = m_window->suggestionsPane();
    EXPECT_EQ(pane->rowCount(), 2);
    EXPECT_EQ(pane->groupCount(), 2);
    const QTreeWidgetItem* heading = pane->list()->topLevelItem(0);
    ASSERT_EQ(heading->childCount(), 1);
    EXPECT_TRUE(heading->text(1).startsWith(QStringLiteral("entry at line ")))
        << heading->text(1).toStdString();
    bool agreed = false;
    for (const config::Suggestion& s : moves)
        if (s.kind == config::EditKind::Demote) {
            EXPECT_NE(s.evidence.find("; 1 more job agrees"), std::string::npos) << s.evidence;
            agreed = true;
        }
    EXPECT_TRUE(agreed);

    const std::string expected =
        config::applySuggestions(m_original.toStdString(), moves, "passes now").text;
    const std::string expectedDiff =
        config::unifiedDiff(m_original.toStdString(), expected, kRelative.toStdString());
    std::optional<ApplyAllRequest> asked;
    m_window->setApplyAllPrompt([&](const ApplyAllRequest& request) {
        asked = request;
        return false;
    });
    QPushButton* applyAll = nullptr;
    for (QPushButton* button : pane->findChildren<QPushButton*>())
        if (button->text().startsWith(QStringLiteral("Apply all")))
            applyAll = button;
    ASSERT_NE(applyAll, nullptr);
    EXPECT_EQ(applyAll->text(), QStringLiteral("Apply all (2)…"));
    applyAll->click();
    ASSERT_TRUE(asked);
    EXPECT_EQ(asked->moves, 2);
    EXPECT_EQ(asked->configs, QStringList{QStringLiteral("test_torch.yaml")});
    EXPECT_EQ(asked->diff.toStdString(), expectedDiff);
    EXPECT_EQ(m_window->model()->document(0).text(), m_original.toStdString())
        << "Cancel changes nothing";
    EXPECT_EQ(m_window->undoStack()->count(), 0);

    // The grouped list, as the Suggestions tab shows it.
    if (auto* tabs = qobject_cast<QTabWidget*>(pane->parentWidget()->parentWidget()))
        tabs->setCurrentWidget(pane);
    m_window->resize(1366, 768);
    m_window->show();
    QApplication::processEvents();
    test::keepPictures(*m_window, QStringLiteral("config_suggestions_grouped"));

    // The real confirmation, once: it names the count and shows the diff.
    m_window->setApplyAllPrompt([this](const ApplyAllRequest& request) {
        return ApplyAllDialog::ask(request, m_window.get());
    });
    m_window->resize(1366, 768);
    m_window->show();
    QString summary;
    QString diff;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<ApplyAllDialog*>(QApplication::activeModalWidget());
        ASSERT_NE(dialog, nullptr);
        summary = dialog->summary();
        diff = dialog->diff();
        test::keepPictures(*dialog, QStringLiteral("config_apply_all_confirm"));
        dialog->applyButton()->click();
    });
    applyAll->click();
    EXPECT_TRUE(summary.startsWith(QStringLiteral("Apply 2 moves to test_torch.yaml?")))
        << summary.toStdString();
    EXPECT_EQ(diff.toStdString(), expectedDiff);
    EXPECT_EQ(m_window->model()->document(0).text(), expected);
    EXPECT_EQ(m_window->undoStack()->count(), 1);
}

// test_diff is xfail in the config and xfailed in all ten runs of a job:
// promoting it warns, naming its history; Cancel keeps the config as it was,
// going on promotes it.
TEST_F(ConfigEditor, PromotingATestThatNeverPassedWarnsNamingItsRuns)
{
    addJob(m_cachePath, "test (beta, 1, 3)", {{"test_diff", TestOutcome::XFailed}});
    reloadEditorCache(*m_window);
    ASSERT_TRUE(m_window->openFile(m_path));
    QStringList warned;
    bool goOn = false;
    m_window->setNeverPassedPrompt([&](const QString& test, const QString& warning) {
        warned << test + u' ' + warning;
        return goOn;
    });
    ASSERT_TRUE(select("TestTorchDeviceType::test_diff"));
    QAction* promote = m_window->action(ConfigEditorWindow::Action::Promote);
    ASSERT_TRUE(promote->isEnabled());
    promote->trigger();
    EXPECT_EQ(warned, QStringList{QStringLiteral(
                          "TestTorchDeviceType::test_diff never passed in its last 10 runs")});
    EXPECT_TRUE(m_asked.empty()) << "cancelled before the reason is asked";
    EXPECT_EQ(m_window->model()->document(0).text(), m_original.toStdString());
    EXPECT_TRUE(m_window->lastMessage().contains(QStringLiteral("Not promoted")));

    goOn = true;
    promote->trigger();
    EXPECT_EQ(warned.size(), 2);
    EXPECT_EQ(m_asked.size(), 1u);
    EXPECT_NE(m_window->model()->document(0).text(), m_original.toStdString());
    m_window->undoStack()->undo();

    // A test that passed in some runs (test_item) promotes without a warning.
    ASSERT_TRUE(select(kPromoted));
    promote->trigger();
    EXPECT_EQ(warned.size(), 2);

    // The real warning, once: Cancel is the default.
    m_window->undoStack()->undo();
    m_window->setNeverPassedPrompt([this](const QString& test, const QString& warning) {
        return askPromoteNeverPassed(test, warning, m_window.get());
    });
    m_window->show();
    ASSERT_TRUE(select("TestTorchDeviceType::test_diff"));
    QString text;
    bool cancelIsDefault = false;
    QTimer::singleShot(0, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        ASSERT_NE(box, nullptr);
        text = box->text();
        cancelIsDefault = box->defaultButton() == box->button(QMessageBox::Cancel);
        test::keepPictures(*box, QStringLiteral("config_never_passed_warning"));
        box->button(QMessageBox::Cancel)->click();
    });
    promote->trigger();
    EXPECT_EQ(text,
              QStringLiteral("TestTorchDeviceType::test_diff never passed in its last 10 runs."));
    EXPECT_TRUE(cancelIsDefault);
    EXPECT_EQ(m_window->model()->document(0).text(), m_original.toStdString());
}
