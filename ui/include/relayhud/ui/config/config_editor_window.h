#pragma once
// The outcome-config editor (issue 6): open configs from a local checkout,
// browse files -> entries -> names with their mode, edits and rationale,
// see why a test has its mode and its recent history from the cache, move
// tests between modes with a minimal diff (planModeEdit), review the
// coloured pending diff, save atomically (refusing a file changed on disk),
// undo/redo, copy the edits as a patch, and apply the cache's suggestions.
//
// For the main window: openFile(), openFolder() and revealTest() ("Open in
// config" from a test); construct it with the cache path.
#ifndef Q_MOC_RUN
#include "relayhud/config/config_suggest.h"
#include "relayhud/config/suggestion_groups.h"
#include "relayhud/store/recent_results.h"
#endif
#include "relayhud/ui/config/config_prompts.h"
#include "relayhud/ui/config/rationale_dialog.h"
#include "relayhud/ui/config/suggestions_pane.h"

#include <QMainWindow>
#include <QMap>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QSyntaxHighlighter;
class QTreeView;
class QUndoStack;

namespace relayhud::ui {

class ConfigDetailsPane;
class ConfigDocument;
class ConfigFilterProxy;
class ConfigTreeModel;
struct ConfigNodeRef;

class ConfigEditorWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Action {
        Open,
        OpenFolder,
        Save,
        Reload,
        CopyPatch,
        Undo,
        Redo,
        Promote,
        Demote,
        SetMode,
        Find,
        RevealTest
    };

    // `cachePath` "": no history and no suggestions.
    explicit ConfigEditorWindow(const QString& cachePath, QWidget* parent = nullptr);
    ~ConfigEditorWindow() override;

    // Opens one config (again: the one already open is selected). False,
    // with the reason shown, for a file that cannot be read or parsed.
    bool openFile(const QString& path);
    // Every *.yaml under <folder>/tests/configs (or under the folder itself
    // when it has no tests/configs); returns how many opened.
    int openFolder(const QString& folder);
    // The backend ("org/repo") an open config belongs to: its suggestions
    // then come from that backend's jobs alone. Unset: every job's.
    void setConfigRepo(const QString& path, const QString& repo);
    // Selects the name (or the entry, or the files entry for an unlisted
    // test) that decides the test in the open configs, and shows why. Takes
    // a base name, a report's identity (file::Class::name) and its marks
    // (torch-spyre tags, comma-separated). False when no open config has it.
    // `inConfig`: only in that open config (a backend's own).
    bool revealTest(const QString& baseNameOrIdentity, const QString& marks = {},
                    const QString& inConfig = {});

    // Saves every modified config; false when one was refused (changed on
    // disk: a reload is offered; read-only; ...).
    bool save();
    // The pending edits of every open config as one patch for `patch -p1`
    // in the checkout root.
    QString pendingPatch() const;
    void copyPatch();

    QAction* action(Action which) const;
    QUndoStack* undoStack() const { return m_undo; }
    ConfigTreeModel* model() const { return m_model; }
    QTreeView* treeView() const { return m_tree; }
    QPlainTextEdit* diffView() const { return m_diff; }
    ConfigDetailsPane* detailsPane() const { return m_details; }
    SuggestionsPane* suggestionsPane() const { return m_suggestionsPane; }
    // One move per method (however many jobs argue for it), in group order.
    const std::vector<config::Suggestion>& suggestions(std::size_t doc) const;
    // The same moves grouped by the entry that decides them.
    const std::vector<config::SuggestionGroup>& suggestionGroups(std::size_t doc) const;
    // The selected row, mapped to the model; nullopt when none.
    std::optional<ConfigNodeRef> currentRef() const;

    // Replaceable prompts (tests; embedding): why a test moves, and whether
    // to reload a file that changed on disk. Defaults are dialogs.
    using RationalePrompt = std::function<std::optional<Rationale>(const RationaleRequest&)>;
    using ReloadPrompt = std::function<bool(const QString& path)>;
    // Closing with pending edits: save them, drop them, or stay open. Gets
    // the paths of the configs with pending edits.
    using UnsavedChoice = ui::UnsavedChoice; // config_prompts.h
    using UnsavedPrompt = std::function<UnsavedChoice(const QStringList& modifiedPaths)>;
    void setRationalePrompt(RationalePrompt prompt) { m_askRationale = std::move(prompt); }
    void setReloadPrompt(ReloadPrompt prompt) { m_askReload = std::move(prompt); }
    void setUnsavedPrompt(UnsavedPrompt prompt) { m_askUnsaved = std::move(prompt); }
    // "Apply all": the count and the diff first; true applies.
    using ApplyAllPrompt = std::function<bool(const ApplyAllRequest&)>;
    void setApplyAllPrompt(ApplyAllPrompt prompt) { m_askApplyAll = std::move(prompt); }
    // Promoting a test that never passed in its recent runs: true goes on.
    // Gets the test and "never passed in its last 10 runs".
    using NeverPassedPrompt = std::function<bool(const QString& test, const QString& warning)>;
    void setNeverPassedPrompt(NeverPassedPrompt prompt) { m_askNeverPassed = std::move(prompt); }
    // The open configs with pending edits.
    QStringList modifiedPaths() const;
    // The last error shown to the user (status bar), for tests.
    const QString& lastMessage() const { return m_lastMessage; }

    // Re-reads the cache (on a worker); emits cacheLoaded when done.
    void reloadCache();
    // Whether the cache read has finished (well or with an error).
    bool hasCache() const { return m_cache != nullptr; }

signals:
    void cacheLoaded(bool ok);

protected:
    void changeEvent(QEvent* event) override;
    // Pending edits are never dropped without asking (issue 36).
    void closeEvent(QCloseEvent* event) override;

private:
    struct CacheData;
    // The test revealTest() last showed: moving its deciding listing moves
    // that test (a regex listing included), not the listing's own name.
    struct RevealedTest {
        std::size_t doc = 0;
        std::size_t section = 0;
        std::size_t entry = 0;
        std::string test;
        TestMarks marks;
        config::Mode mode = config::Mode::Xfail;
        std::string method;              // its base method, as suggestions name it
        QStringList explanation;         // explainTest's, for the details pane
        std::optional<std::size_t> name; // the listing selected for it
    };

    void buildActions();
    void buildMenus();
    void buildLayout();
    QWidget* buildTreeSide();
    QWidget* buildDetailsSide();
    void updateActions();
    void updateDiff();
    void showMessage(const QString& text);
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    void moveSelected(config::EditKind kind);
    bool applyEdit(std::size_t doc, const std::string& newText, const QString& summary,
                   const QString& focus);
    void textChanged(std::size_t doc, const QString& focus);
    void selectName(std::size_t doc, const QString& baseName);
    void selectSource(const QModelIndex& sourceIndex);
    void showDetails();
    void showFileDetails(const ConfigDocument& doc);
    QStringList nameLines(const ConfigDocument& doc, const ConfigNodeRef& ref,
                          const config::TestEntry& entry, const config::NameItem& item) const;
    void showNameHistory(const config::OutcomeConfig& cfg, const ConfigNodeRef& ref);
    bool reloadDocument(std::size_t doc);

    void cacheReady(std::shared_ptr<const CacheData> read);
    void refreshSuggestions();
    // `confirm`: Apply all, which shows the count and the diff first.
    void applySuggestionRefs(const std::vector<SuggestionRef>& refs, bool confirm = false);
    void applyPlanned(const std::vector<std::vector<config::Suggestion>>& byDoc,
                      const std::string& reason, bool confirm);
    std::vector<SuggestionRow> suggestionRows(std::size_t doc) const;
    // False when the user cancels promoting a test that never passed.
    bool promotionConfirmed(const ConfigNodeRef& ref, const QString& test);
    std::optional<QString> evidenceFor(std::size_t doc, const std::string& method,
                                       config::EditKind kind) const;

    QString m_cachePath;
    ConfigTreeModel* m_model = nullptr;
    ConfigFilterProxy* m_proxy = nullptr;
    QTreeView* m_tree = nullptr;
    QLineEdit* m_filterText = nullptr;
    QComboBox* m_filterMode = nullptr;
    QPlainTextEdit* m_diff = nullptr;
    QSyntaxHighlighter* m_diffColours = nullptr;
    ConfigDetailsPane* m_details = nullptr;
    SuggestionsPane* m_suggestionsPane = nullptr;
    QUndoStack* m_undo = nullptr;
    QMenu* m_recentMenu = nullptr;
    std::vector<QAction*> m_actions;

    std::shared_ptr<const CacheData> m_cache;
    int m_cacheLoadId = 0;
    std::vector<std::vector<config::Suggestion>> m_suggestions; // per document
    std::vector<std::vector<config::SuggestionGroup>> m_groups; // per document
    QMap<QString, QString> m_repoOf;                            // by document path
    std::optional<RevealedTest> m_revealed;

    RationalePrompt m_askRationale;
    ReloadPrompt m_askReload;
    UnsavedPrompt m_askUnsaved;
    ApplyAllPrompt m_askApplyAll;
    NeverPassedPrompt m_askNeverPassed;
    QString m_lastMessage;
};

} // namespace relayhud::ui
