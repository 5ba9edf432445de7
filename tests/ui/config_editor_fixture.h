#pragma once
// The config editor tests' world: a checkout (with .git, so the patch root
// is found) holding a copy of a corpus config, and a cache with ten runs of
// one torch-spyre job (test_is_signed fails in every one, test_item passes
// in some), with the editor open on that cache.
#include "relayhud/config/config_edit.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/config/config_tree_model.h"

#include <QAbstractProxyModel>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::ui::test::config_editor {

inline const QString kCorpusFile =
    QStringLiteral("tests__configs__upstream_tests_beta__test_torch.yaml");
inline const QString kRelative = QStringLiteral("tests/configs/test_torch.yaml");
inline constexpr const char* kPromoted = "TestTorchDeviceType::test_item"; // xfail, 18 names
inline constexpr const char* kFailing = "TestTorchDeviceType::test_is_signed";

inline QByteArray readFile(const QString& path)
{
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll();
}

inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

// A checkout (with .git, so the patch root is found) holding a copy of the
// corpus config, and a cache with three failing runs of kFailing.
class ConfigEditor : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QDir root(m_dir.path());
        ASSERT_TRUE(root.mkpath(QStringLiteral(".git")));
        ASSERT_TRUE(root.mkpath(QStringLiteral("tests/configs")));
        m_original = readFile(QStringLiteral(RELAYHUD_CORPUS_DIR "/configs/") + kCorpusFile);
        ASSERT_FALSE(m_original.isEmpty());
        m_path = root.filePath(kRelative);
        writeFile(m_path, m_original);
        m_cachePath = root.filePath(QStringLiteral("cache.sqlite"));
        fillCache();
        m_window = std::make_unique<ConfigEditorWindow>(m_cachePath);
        m_window->setRationalePrompt([this](const RationaleRequest& request) {
            m_asked.push_back(request);
            return std::optional<Rationale>(
                Rationale{QStringLiteral("passes now"), request.evidence, m_setModeTarget});
        });
        m_window->setReloadPrompt([this](const QString& path) {
            m_reloadAsked << path;
            return true;
        });
        // The read may finish before the window is returned (then() on a
        // finished future runs at once); otherwise cacheLoaded comes later.
        QSignalSpy loaded(m_window.get(), &ConfigEditorWindow::cacheLoaded);
        if (!m_window->hasCache()) {
            ASSERT_TRUE(loaded.wait(10000));
        }
    }

    void fillCache()
    {
        auto cache = Database::open(m_cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        for (int n = 1; n <= 10; ++n) {
            CheckRun run;
            run.downstreamRepo = "torch-spyre/torch-spyre";
            run.upstreamSha = Sha{std::string(39, 'a') + std::to_string(n % 10)};
            run.workflow = "CI";
            run.jobName = "test (beta, 1, 1)";
            run.runId = "run-" + std::to_string(n);
            run.runAttempt = 1;
            run.checkRunId = CheckRunId{"cr-" + std::to_string(n)};
            run.reported.status = RunStatus::Completed;
            run.reported.conclusion = Conclusion::Failure;
            UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, 1000 * n, "", ""};
            ASSERT_TRUE(RunStore(**cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
            auto row = RunStore(**cache).checkRunRowFor(run.checkRunId);
            ASSERT_TRUE(row && *row);
            auto writer =
                TestResultStore(**cache).beginTestRun({**row, TestRunSource::Artifacts, "a", "u"});
            ASSERT_TRUE(writer);
            for (const auto& [name, outcome] :
                 {std::pair{std::string("test_is_signed"), TestOutcome::Failed},
                  {std::string("test_item"), n % 3 ? TestOutcome::XFailed : TestOutcome::Passed}}) {
                TestCaseResult c;
                c.file = "test/test_torch.py";
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

    // Selects a name in the tree as a user would; false when not listed.
    bool select(const std::string& name) { return selectIn(*m_window, name); }
    static bool selectIn(ConfigEditorWindow& window, const std::string& name)
    {
        ConfigTreeModel* model = window.model();
        const auto& cfg = model->document(0).parsed().config;
        for (std::size_t e = 0; e < cfg.files[0].tests.size(); ++e)
            for (std::size_t n = 0; n < cfg.files[0].tests[e].names.size(); ++n)
                if (cfg.files[0].tests[e].names[n].name == name) {
                    const QModelIndex source = model->indexFor(0, 0, e, n);
                    auto* proxy = qobject_cast<QAbstractProxyModel*>(window.treeView()->model());
                    window.treeView()->setCurrentIndex(proxy->mapFromSource(source));
                    return true;
                }
        return false;
    }

    std::string expectedPromotion() const
    {
        config::EditRequest request{
            kPromoted,    {}, config::EditKind::Promote, config::Mode::MandatorySuccess,
            "passes now", ""};
        auto edit = config::planModeEdit(m_original.toStdString(), request);
        EXPECT_TRUE(edit) << edit.message();
        return edit ? edit->text : std::string();
    }

    void promote()
    {
        ASSERT_TRUE(m_window->openFile(m_path)) << m_window->lastMessage().toStdString();
        ASSERT_TRUE(select(kPromoted));
        QAction* action = m_window->action(ConfigEditorWindow::Action::Promote);
        ASSERT_TRUE(action->isEnabled());
        action->trigger();
    }

    QTemporaryDir m_dir;
    QByteArray m_original;
    QString m_path;
    QString m_cachePath;
    std::unique_ptr<ConfigEditorWindow> m_window;
    std::vector<RationaleRequest> m_asked;
    QStringList m_reloadAsked;
    config::Mode m_setModeTarget = config::Mode::MandatorySuccess;
};

} // namespace relayhud::ui::test::config_editor
