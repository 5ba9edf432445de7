// The outcome-config editor on a corpus config copied to a temporary
// checkout: moving a test through the action, the pending diff, saving,
// refusing a file changed on disk, undo/redo, revealTest, copy as patch
// (applied with the real `patch`), and suggestions and history from a real
// cache. With RELAYHUD_UI_SHOTS=DIR it also keeps pictures of the window in
// a light and a dark palette.
#include "config_editor_fixture.h"
#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/resolver.h"
#include "relayhud/config/text_diff.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/config/config_details_pane.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/config/config_tree_model.h"
#include "relayhud/ui/config/suggestions_pane.h"
#include "relayhud/ui/window/config_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "sim_session.h"
#include "test_support.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test::config_editor;

TEST_F(ConfigEditor, TheTreeModelPassesTheModelTester)
{
    test::CheckedModel checked(m_window->model());
    ASSERT_TRUE(m_window->openFile(m_path));
    ASSERT_EQ(m_window->model()->rowCount(), 1);
    const QModelIndex file = m_window->model()->index(0, 0);
    EXPECT_GT(m_window->model()->rowCount(file), 5);
    promote(); // a rebuild of the document's rows
    m_window->undoStack()->undo();
    EXPECT_TRUE(checked.warnings().isEmpty()) << checked.warnings().join(u'\n').toStdString();
}

namespace {

int rowsUnder(const QAbstractItemModel& model, const QModelIndex& parent = {})
{
    int rows = model.rowCount(parent);
    for (int r = 0, n = model.rowCount(parent); r < n; ++r)
        rows += rowsUnder(model, model.index(r, 0, parent));
    return rows;
}

} // namespace

TEST_F(ConfigEditor, TheFilterProxyPassesTheModelTester)
{
    auto* proxy = dynamic_cast<ConfigFilterProxy*>(m_window->treeView()->model());
    ASSERT_NE(proxy, nullptr);
    test::CheckedModel checked(proxy);
    ASSERT_TRUE(m_window->openFile(m_path));
    const int all = rowsUnder(*proxy);
    ASSERT_GT(all, 5);
    proxy->setText(QStringLiteral("nosuchname_anywhere"));
    EXPECT_EQ(rowsUnder(*proxy), 0);
    proxy->setText(QStringLiteral("test_is"));
    const int named = rowsUnder(*proxy);
    EXPECT_GT(named, 0);
    EXPECT_LT(named, all);
    proxy->setMode(config::Mode::Skip);
    EXPECT_LE(rowsUnder(*proxy), named);
    proxy->setMode(std::nullopt);
    proxy->setText(QStringLiteral("test_i")); // kPromoted stays listed
    promote(); // a rebuild of the document's rows under an active filter
    m_window->undoStack()->undo();
    proxy->setText({});
    EXPECT_EQ(rowsUnder(*proxy), all);
    EXPECT_TRUE(checked.warnings().isEmpty()) << checked.warnings().join(u'\n').toStdString();
}

TEST_F(ConfigEditor, PromoteShowsPlanModeEditsDiffAndSaveWritesIt)
{
    promote();
    ASSERT_EQ(m_asked.size(), 1u);
    EXPECT_EQ(m_asked[0].move, QStringLiteral("xfail → mandatory_success"));
    const std::string expected = expectedPromotion();
    const std::string diff =
        config::unifiedDiff(m_original.toStdString(), expected, kRelative.toStdString());
    ASSERT_FALSE(diff.empty());
    EXPECT_EQ(m_window->diffView()->toPlainText().toStdString(), diff);
    EXPECT_EQ(m_window->model()->document(0).text(), expected);
    EXPECT_TRUE(m_window->action(ConfigEditorWindow::Action::Save)->isEnabled());
    ASSERT_TRUE(m_window->save()) << m_window->lastMessage().toStdString();
    EXPECT_EQ(readFile(m_path).toStdString(), expected);
    EXPECT_FALSE(m_window->model()->document(0).modified());
    EXPECT_TRUE(m_window->diffView()->toPlainText().isEmpty());
}

TEST_F(ConfigEditor, AFileChangedOnDiskIsNotOverwrittenAndAReloadIsOffered)
{
    promote();
    const QByteArray theirs = m_original + "# edited by someone else\n";
    writeFile(m_path, theirs);
    EXPECT_FALSE(m_window->save());
    EXPECT_EQ(m_reloadAsked, QStringList{QFileInfo(m_path).absoluteFilePath()});
    EXPECT_EQ(readFile(m_path), theirs); // nothing written over it
    // The prompt said reload: the editor now shows the disk's text.
    EXPECT_EQ(m_window->model()->document(0).text(), theirs.toStdString());
    EXPECT_FALSE(m_window->model()->document(0).modified());
    EXPECT_EQ(m_window->undoStack()->count(), 0);
}

TEST_F(ConfigEditor, UndoAndRedoRestoreTheExactTexts)
{
    promote();
    const std::string expected = expectedPromotion();
    QUndoStack* undo = m_window->undoStack();
    ASSERT_EQ(undo->count(), 1);
    undo->undo();
    EXPECT_EQ(m_window->model()->document(0).text(), m_original.toStdString());
    EXPECT_TRUE(m_window->diffView()->toPlainText().isEmpty());
    EXPECT_FALSE(m_window->action(ConfigEditorWindow::Action::Save)->isEnabled());
    undo->redo();
    EXPECT_EQ(m_window->model()->document(0).text(), expected);
    // The moved name is selected again after the edit.
    const auto ref = m_window->currentRef();
    ASSERT_TRUE(ref);
    EXPECT_EQ(ref->kind, ConfigNodeRef::Name);
    const auto& cfg = m_window->model()->document(0).parsed().config;
    EXPECT_EQ(cfg.files[0].tests[ref->entry].names[ref->name].name, kPromoted);
    EXPECT_EQ(cfg.files[0].tests[ref->entry].effectiveMode(), config::Mode::MandatorySuccess);
}

TEST_F(ConfigEditor, SetModeAsksForTheTargetMode)
{
    ASSERT_TRUE(m_window->openFile(m_path));
    ASSERT_TRUE(select(kFailing));
    m_setModeTarget = config::Mode::Skip;
    m_window->action(ConfigEditorWindow::Action::SetMode)->trigger();
    ASSERT_EQ(m_asked.size(), 1u);
    EXPECT_EQ(m_asked[0].current, config::Mode::MandatorySuccess);
    const auto ref = m_window->currentRef();
    ASSERT_TRUE(ref);
    const auto& cfg = m_window->model()->document(0).parsed().config;
    EXPECT_EQ(cfg.files[0].tests[ref->entry].effectiveMode(), config::Mode::Skip);
}

TEST_F(ConfigEditor, RevealTestLandsOnTheDecidingEntryAndSaysWhy)
{
    ASSERT_TRUE(m_window->openFile(m_path));
    ASSERT_TRUE(m_window->revealTest(
        QStringLiteral("test/test_torch.py::TestTorchDeviceTypePRIVATEUSE1::test_item_spyre")));
    auto ref = m_window->currentRef();
    ASSERT_TRUE(ref);
    ASSERT_EQ(ref->kind, ConfigNodeRef::Name);
    const auto& cfg = m_window->model()->document(0).parsed().config;
    EXPECT_EQ(cfg.files[0].tests[ref->entry].names[ref->name].name, kPromoted);
    EXPECT_TRUE(m_window->detailsPane()->explanation().contains(QStringLiteral("Outcome: xfail")))
        << m_window->detailsPane()->explanation().toStdString();
    // Filtered out of view first: revealing clears the filter.
    m_window->findChild<QLineEdit*>()->setText(QStringLiteral("no such text"));
    ASSERT_TRUE(m_window->revealTest(QString::fromLatin1(kFailing)));
    ref = m_window->currentRef();
    ASSERT_TRUE(ref);
    EXPECT_EQ(cfg.files[0].tests[ref->entry].names[ref->name].name, kFailing);
    // Not listed: the file's row, and unlisted_test_mode says why.
    ASSERT_TRUE(m_window->revealTest(QStringLiteral("TestTorch::test_not_listed_anywhere")));
    ref = m_window->currentRef();
    ASSERT_TRUE(ref);
    EXPECT_EQ(ref->kind, ConfigNodeRef::File);
    EXPECT_TRUE(m_window->detailsPane()->explanation().contains(QStringLiteral("Outcome: skip")));
    EXPECT_FALSE(m_window->revealTest(QStringLiteral("test/test_other.py::TestX::test_y")));
}

TEST_F(ConfigEditor, CopyAsPatchAppliesWithPatchFromTheCheckoutRoot)
{
    promote();
    m_window->copyPatch();
    const QString patch = QApplication::clipboard()->text();
    ASSERT_TRUE(patch.startsWith(QStringLiteral("--- a/") + kRelative)) << patch.toStdString();
    // A second checkout at the original text takes the patch.
    QTemporaryDir other;
    ASSERT_TRUE(QDir(other.path()).mkpath(QStringLiteral("tests/configs")));
    writeFile(QDir(other.path()).filePath(kRelative), m_original);
    QProcess run;
    run.setWorkingDirectory(other.path());
    run.start(QStringLiteral("patch"), {QStringLiteral("-p1"), QStringLiteral("--quiet")});
    ASSERT_TRUE(run.waitForStarted());
    run.write(patch.toUtf8());
    run.closeWriteChannel();
    ASSERT_TRUE(run.waitForFinished());
    EXPECT_EQ(run.exitCode(), 0) << run.readAllStandardError().toStdString();
    EXPECT_EQ(readFile(QDir(other.path()).filePath(kRelative)).toStdString(), expectedPromotion());
}

TEST_F(ConfigEditor, SuggestionsAndHistoryComeFromTheCache)
{
    ASSERT_TRUE(m_window->openFile(m_path));
    const std::vector<config::Suggestion> suggestions = m_window->suggestions(0); // a copy
    ASSERT_EQ(suggestions.size(), 1u); // test_item is mixed: no suggestion
    EXPECT_EQ("TestTorchDeviceType::" + suggestions[0].baseName, kFailing);
    EXPECT_EQ(suggestions[0].kind, config::EditKind::Demote);
    ASSERT_GE(m_window->suggestionsPane()->rowCount(), 1);
    // Selecting the name shows one strip for its one job, and the evidence.
    ASSERT_TRUE(select(kFailing));
    EXPECT_EQ(m_window->detailsPane()->historyCount(), 1);
    EXPECT_TRUE(m_window->detailsPane()->explanation().contains(QStringLiteral("failed 10/10")))
        << m_window->detailsPane()->explanation().toStdString();
    // Demote prefills the evidence.
    m_window->action(ConfigEditorWindow::Action::Demote)->trigger();
    ASSERT_EQ(m_asked.size(), 1u);
    EXPECT_EQ(m_asked[0].evidence.toStdString(), suggestions[0].evidence);
    m_window->undoStack()->undo();
    // Apply all: one undoable edit, the evidence in the rationale comment.
    const std::string evidence = m_window->suggestions(0)[0].evidence;
    emit m_window->suggestionsPane()->applyRequested(m_window->suggestionsPane()->all());
    EXPECT_EQ(m_window->undoStack()->count(), 1);
    EXPECT_NE(m_window->model()->document(0).text().find(evidence), std::string::npos);
    EXPECT_TRUE(m_window->suggestions(0).empty()); // applied: nothing left to suggest
}

TEST_F(ConfigEditor, OpenFolderOpensEveryConfigUnderTestsConfigs)
{
    ASSERT_TRUE(QDir(m_dir.path()).mkpath(QStringLiteral("tests/configs/sub")));
    writeFile(QDir(m_dir.path()).filePath(QStringLiteral("tests/configs/sub/other.yaml")),
              readFile(QStringLiteral(RELAYHUD_CORPUS_DIR
                                      "/configs/tests__configs__example_test_config.yaml")));
    EXPECT_EQ(m_window->openFolder(m_dir.path()), 2);
    EXPECT_EQ(m_window->model()->rowCount(), 2);
    writeFile(QDir(m_dir.path()).filePath(QStringLiteral("tests/configs/bad.yaml")),
              "test_suite_config: [unclosed\n");
    EXPECT_EQ(m_window->openFolder(m_dir.path()), 2); // the two again, not the broken one
    EXPECT_TRUE(m_window->lastMessage().contains(QStringLiteral("of 3 configs")));
}

// Issue 14's walk on a regex-heavy real config (torch-spyre's misc shape
// shard B, 18 regex names) where a maintainer put an xfail regex before the
// mandatory ones: the xfail regex shadows `test_transpose_2d.*` (among
// regexes the first in the file wins). Revealing a transpose test selects the
// listing that really decides it; promoting it adds the exact listing that
// wins, and the diff and the outcome after it are what the framework would do.
TEST_F(ConfigEditor, APromotedTestThatAnEarlierRegexShadowsGetsTheListingThatWins)
{
    QByteArray text = readFile(QStringLiteral(
        RELAYHUD_CORPUS_DIR
        "/configs/"
        "tests__configs__torch_spyre_tests__inductor__test_inductor_ops_misc_shape_b_config.yaml"));
    const QByteArray anchor = "      tests:\n";
    const qsizetype at = text.indexOf(anchor);
    ASSERT_GE(at, 0);
    text.insert(at + anchor.size(), "        - names:\n"
                                    "            # the new stick layout breaks transposes (#1234)\n"
                                    "            - TestOps::test_transpose.*\n"
                                    "          mode: xfail\n");
    const QString path = QDir(m_dir.path()).filePath(QStringLiteral("tests/configs/shape_b.yaml"));
    writeFile(path, text);
    ASSERT_TRUE(m_window->openFile(path));
    const QString test =
        QStringLiteral("tests/inductor/test_inductor_ops__oot_wrapper.py::TestOpsPRIVATEUSE1::"
                       "test_transpose_2d_contiguous_spyre");
    ASSERT_TRUE(m_window->revealTest(test, QString()));
    const QString why = m_window->detailsPane()->explanation();
    EXPECT_TRUE(why.contains(QStringLiteral("Outcome: xfail"))) << why.toStdString();
    EXPECT_TRUE(why.contains(
        QStringLiteral("candidate (regex fullmatches): 'TestOps::test_transpose_2d.*'")))
        << why.toStdString();
    m_window->resize(1600, 1000);
    m_window->show();
    QApplication::processEvents();
    test::keepPicture(*m_window, QStringLiteral("config_editor_regex_revealed.png"));

    m_window->action(ConfigEditorWindow::Action::Promote)->trigger();
    ASSERT_EQ(m_asked.size(), 1u);
    EXPECT_TRUE(m_asked[0].move.contains(QStringLiteral("xfail → mandatory_success")))
        << m_asked[0].move.toStdString();
    const std::string after = m_window->model()->document(0).text();
    EXPECT_NE(after, text.toStdString());
    auto parsed = config::parseOutcomeConfig(after);
    ASSERT_TRUE(parsed && !parsed->hasErrors());
    const config::Resolver resolver(parsed->config);
    auto r = resolver.resolve(config::variantOf(config::parseTestQuery(test.toStdString())));
    ASSERT_TRUE(r) << r.message();
    EXPECT_EQ(r->outcome, config::Outcome::MandatorySuccess);
    EXPECT_EQ(r->decision, config::Decision::Exact);
    // Its neighbours under the xfail regex keep xfail.
    auto other = resolver.resolve(
        config::variantOf(config::parseTestQuery("TestOpsPRIVATEUSE1::test_transpose_3d_spyre")));
    ASSERT_TRUE(other);
    EXPECT_EQ(other->outcome, config::Outcome::Xfail);
    EXPECT_NE(after.find("            - TestOps::test_transpose_2d_contiguous\n"
                         "          mode: mandatory_success\n"),
              std::string::npos)
        << after;
    QApplication::processEvents();
    test::keepPicture(*m_window, QStringLiteral("config_editor_regex_promoted.png"));
    if (!qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS")) {
        const QPalette palette = QApplication::palette();
        const QString style = QApplication::style()->name();
        applyDarkPalette(*qApp);
        QApplication::processEvents();
        test::keepPicture(*m_window, QStringLiteral("config_editor_regex_promoted_dark.png"));
        QApplication::setPalette(palette);
        QApplication::setStyle(style);
    }
}

// Not a check: pictures for a person to look at (RELAYHUD_UI_SHOTS=DIR).
TEST_F(ConfigEditor, Pictures)
{
    if (qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS"))
        GTEST_SKIP() << "set RELAYHUD_UI_SHOTS=DIR to keep pictures";
    ASSERT_TRUE(m_window->openFile(m_path));
    m_window->resize(1600, 1000);
    m_window->show();
    ASSERT_TRUE(select(kFailing));
    m_window->action(ConfigEditorWindow::Action::Demote)->trigger();
    ASSERT_TRUE(select(kFailing));
    QApplication::processEvents();
    test::keepPicture(*m_window, QStringLiteral("config_editor_light.png"));
    const QPalette palette = QApplication::palette();
    const QString style = QApplication::style()->name();
    applyDarkPalette(*qApp);
    QApplication::processEvents();
    test::keepPicture(*m_window, QStringLiteral("config_editor_dark.png"));
    QApplication::setPalette(palette);
    QApplication::setStyle(style);
}

// Pending edits are never dropped without asking (issue 36): closing asks to
// save, discard or stay; Cancel keeps the window and the edits, Save writes
// them, Discard leaves the file as it was. The real dialog is shown once.
TEST_F(ConfigEditor, ClosingWithPendingEditsAsksToSaveDiscardOrStay)
{
    m_window->show();
    ASSERT_TRUE(m_window->openFile(m_path));
    QStringList asked;
    auto answer = ConfigEditorWindow::UnsavedChoice::Cancel;
    m_window->setUnsavedPrompt([&](const QStringList& paths) {
        asked = paths;
        return answer;
    });
    EXPECT_TRUE(m_window->close()) << "nothing pending: it closes without asking";
    EXPECT_TRUE(asked.isEmpty());

    m_window->show();
    promote();
    ASSERT_EQ(m_window->modifiedPaths().size(), 1);
    EXPECT_FALSE(m_window->close()) << "Cancel keeps the window";
    EXPECT_EQ(asked, m_window->modifiedPaths());
    EXPECT_TRUE(m_window->isVisible());
    EXPECT_EQ(readFile(m_path), m_original) << "nothing written yet";

    answer = ConfigEditorWindow::UnsavedChoice::Save;
    EXPECT_TRUE(m_window->close());
    EXPECT_EQ(readFile(m_path).toStdString(), expectedPromotion()) << "Save wrote the edit";
    EXPECT_TRUE(m_window->modifiedPaths().isEmpty());
}

TEST_F(ConfigEditor, DiscardClosesAndLeavesTheFileAsItWas)
{
    m_window->show();
    promote();
    m_window->setUnsavedPrompt(
        [](const QStringList&) { return ConfigEditorWindow::UnsavedChoice::Discard; });
    EXPECT_TRUE(m_window->close());
    EXPECT_EQ(readFile(m_path), m_original);
}

TEST_F(ConfigEditor, TheUnsavedEditsDialogNamesTheConfigAndDefaultsToSave)
{
    m_window->show();
    promote();
    QString text;
    QString files;
    bool saveIsDefault = false;
    QTimer::singleShot(0, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        ASSERT_NE(box, nullptr);
        text = box->text();
        files = box->informativeText();
        saveIsDefault = box->defaultButton() == box->button(QMessageBox::Save);
        test::keepPictures(*box, QStringLiteral("config_unsaved_prompt"));
        box->button(QMessageBox::Cancel)->click();
    });
    EXPECT_FALSE(m_window->close());
    EXPECT_EQ(text, QStringLiteral("Save your edits to test_torch.yaml before closing?"));
    EXPECT_EQ(files, m_window->modifiedPaths().join(u'\n'));
    EXPECT_TRUE(saveIsDefault);
}

// Quit (the main window's close) closes the editor first: Cancel in its
// prompt keeps both windows open and the edit pending.
TEST_F(ConfigEditor, QuittingWithPendingEditsAsksTheEditorFirst)
{
    MainWindow window(test::offlineSession(m_cachePath));
    window.show();
    ConfigEditorWindow* editor = window.configs()->openEditor();
    editor->setRationalePrompt([](const RationaleRequest& request) {
        return std::optional<Rationale>(Rationale{QStringLiteral("passes now"), request.evidence,
                                                  config::Mode::MandatorySuccess});
    });
    ASSERT_TRUE(editor->openFile(m_path));
    ASSERT_TRUE(selectIn(*editor, kPromoted));
    editor->action(ConfigEditorWindow::Action::Promote)->trigger();
    ASSERT_EQ(editor->modifiedPaths().size(), 1);
    int asked = 0;
    editor->setUnsavedPrompt([&](const QStringList&) {
        ++asked;
        return ConfigEditorWindow::UnsavedChoice::Cancel;
    });
    EXPECT_FALSE(window.close()) << "the quit waits for the editor";
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(editor->isVisible());
    editor->setUnsavedPrompt(
        [](const QStringList&) { return ConfigEditorWindow::UnsavedChoice::Discard; });
    EXPECT_TRUE(window.close());
    EXPECT_EQ(readFile(m_path), m_original);
}
