#pragma once
// The config editor tests' world: a checkout (with .git, so the patch root
// is found) holding a copy of a corpus config, and a cache with ten runs of
// one torch-spyre job (test_is_signed fails in every one, test_item passes
// in some), with the editor open on that cache.
#include "relayhud/config/config_edit.h"
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

    // Ten runs of one job, each with its two tests (config_editor_fixture.cpp).
    void fillCache();

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
