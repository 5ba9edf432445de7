// ConfigEditorWindow: construction, actions, opening, saving and the patch.
// The edits, the cache and the details live in config_editor_edits.cpp.
#include "relayhud/ui/config/config_editor_window.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_details_pane.h"
#include "relayhud/ui/config/config_style.h"
#include "relayhud/ui/config/config_tree_model.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace relayhud::ui {

namespace {

constexpr int kRecentMax = 10;
const QString kRecentKey = QStringLiteral("configEditor/recent");

} // namespace

ConfigEditorWindow::ConfigEditorWindow(const QString& cachePath, QWidget* parent)
    : QMainWindow(parent), m_cachePath(cachePath), m_model(new ConfigTreeModel(this)),
      m_undo(new QUndoStack(this))
{
    setWindowTitle(tr("Outcome configs[*] — RelayHUD")); // [*]: a mark while edits are pending
    m_askRationale = [this](const RationaleRequest& r) { return RationaleDialog::ask(r, this); };
    m_askReload = [this](const QString& path) {
        return QMessageBox::question(
                   this, tr("Changed on disk"),
                   tr("%1 changed on disk since it was opened; your edits were not saved.\n\n"
                      "Reload it from disk (your edits to it are dropped)?")
                       .arg(path))
               == QMessageBox::Yes;
    };
    m_askUnsaved = [this](const QStringList& paths) { return askUnsaved(this, paths); };
    m_askApplyAll = [this](const ApplyAllRequest& r) { return ApplyAllDialog::ask(r, this); };
    m_askNeverPassed = [this](const QString& test, const QString& warning) {
        return askPromoteNeverPassed(test, warning, this);
    };
    buildActions();
    buildMenus();
    buildLayout();
    connect(m_undo, &QUndoStack::cleanChanged, this, [this] { updateActions(); });
    updateActions();
    resize(1500, 900);
    reloadCache();
}

ConfigEditorWindow::~ConfigEditorWindow()
{
    // The stack is a child, destroyed after this class's members: its last
    // cleanChanged must not reach updateActions() on a half-destroyed window.
    m_undo->disconnect(this);
}

void ConfigEditorWindow::buildActions()
{
    m_actions.resize(static_cast<std::size_t>(Action::RevealTest) + 1);
    auto make = [this](Action which, const QString& text, QKeySequence key,
                       QStyle::StandardPixmap icon, const QString& tip, auto slot) {
        auto* a = new QAction(style()->standardIcon(icon), text, this);
        a->setShortcut(key);
        a->setToolTip(tip % QStringLiteral(" (") % key.toString(QKeySequence::NativeText) % u')');
        connect(a, &QAction::triggered, this, slot);
        m_actions[static_cast<std::size_t>(which)] = a;
        return a;
    };
    make(Action::Open, tr("&Open…"), QKeySequence::Open, QStyle::SP_DialogOpenButton,
         tr("Open a config file"), [this] {
             const QString path = QFileDialog::getOpenFileName(
                 this, tr("Open config"), {}, tr("Outcome configs (*.yaml *.yml)"));
             if (!path.isEmpty())
                 openFile(path);
         });
    make(Action::OpenFolder, tr("Open &Folder…"), QKeySequence(tr("Ctrl+Shift+O")),
         QStyle::SP_DirOpenIcon, tr("Open every config under a checkout's tests/configs"), [this] {
             const QString dir = QFileDialog::getExistingDirectory(this, tr("Open checkout"));
             if (!dir.isEmpty())
                 openFolder(dir);
         });
    make(Action::Save, tr("&Save"), QKeySequence::Save, QStyle::SP_DialogSaveButton,
         tr("Save the edited configs"), [this] { save(); });
    make(Action::Reload, tr("&Reload from Disk"), QKeySequence(tr("Ctrl+R")),
         QStyle::SP_BrowserReload, tr("Drop the pending edits of the selected config"), [this] {
             if (const auto ref = currentRef())
                 reloadDocument(ref->doc);
         });
    make(Action::CopyPatch, tr("Copy as &Patch"), QKeySequence(tr("Ctrl+Shift+C")),
         QStyle::SP_FileDialogDetailedView,
         tr("Copy the pending edits as a unified diff for patch -p1"), [this] { copyPatch(); });
    QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_actions[static_cast<std::size_t>(Action::Undo)] = undo;
    QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    m_actions[static_cast<std::size_t>(Action::Redo)] = redo;
    make(Action::Promote, tr("&Promote"), QKeySequence(tr("Alt+Up")), QStyle::SP_ArrowUp,
         tr("Move the selected test to mandatory_success"),
         [this] { moveSelected(config::EditKind::Promote); });
    make(Action::Demote, tr("&Demote"), QKeySequence(tr("Alt+Down")), QStyle::SP_ArrowDown,
         tr("Move the selected test to xfail_strict"),
         [this] { moveSelected(config::EditKind::Demote); });
    make(Action::SetMode, tr("Set &Mode…"), QKeySequence(tr("Ctrl+M")),
         QStyle::SP_FileDialogListView, tr("Move the selected test to any mode"),
         [this] { moveSelected(config::EditKind::SetMode); });
    make(Action::Find, tr("&Filter"), QKeySequence::Find, QStyle::SP_FileDialogContentsView,
         tr("Filter names by text"), [this] {
             m_filterText->setFocus();
             m_filterText->selectAll();
         });
    make(Action::RevealTest, tr("&Reveal Test…"), QKeySequence(tr("Ctrl+T")),
         QStyle::SP_FileDialogDetailedView,
         tr("Show which listing decides a test, as the report names it"), [this] {
             bool ok = false;
             const QString test = QInputDialog::getText(
                 this, tr("Reveal Test"),
                 tr("Test as the report names it (file.py::ClassPRIVATEUSE1::variant):"),
                 QLineEdit::Normal, QString(), &ok);
             if (ok && !test.trimmed().isEmpty())
                 revealTest(test.trimmed(), QString());
         });
}

QAction* ConfigEditorWindow::action(Action which) const
{
    return m_actions[static_cast<std::size_t>(which)];
}

void ConfigEditorWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(action(Action::Open));
    file->addAction(action(Action::OpenFolder));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(action(Action::Save));
    file->addAction(action(Action::Reload));
    file->addAction(action(Action::CopyPatch));
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    for (const Action a : {Action::Undo, Action::Redo})
        edit->addAction(action(a));
    edit->addSeparator();
    for (const Action a : {Action::Promote, Action::Demote, Action::SetMode})
        edit->addAction(action(a));
    edit->addSeparator();
    edit->addAction(action(Action::Find));
    edit->addAction(action(Action::RevealTest));
    rebuildRecentMenu();

    QToolBar* bar = addToolBar(tr("Config"));
    bar->setObjectName(QStringLiteral("configToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (const Action a : {Action::Open, Action::OpenFolder, Action::Save})
        bar->addAction(action(a));
    bar->addSeparator();
    for (const Action a : {Action::Undo, Action::Redo})
        bar->addAction(action(a));
    bar->addSeparator();
    for (const Action a : {Action::Promote, Action::Demote, Action::SetMode})
        bar->addAction(action(a));
    bar->addSeparator();
    bar->addAction(action(Action::CopyPatch));
}

void ConfigEditorWindow::buildLayout()
{
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(buildTreeSide());
    split->addWidget(buildDetailsSide());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    setCentralWidget(split);
}

// The config's tree under its filters (text, mode).
QWidget* ConfigEditorWindow::buildTreeSide()
{
    m_proxy = new ConfigFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_tree = new QTreeView(this);
    m_tree->setModel(m_proxy);
    m_tree->setItemDelegate(new ModeChipDelegate(m_tree));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(ConfigTreeModel::NameColumn, 420);
    m_tree->setColumnWidth(ConfigTreeModel::ModeColumn, 150);
    m_tree->setColumnWidth(ConfigTreeModel::EditsColumn, 150);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        for (const Action a : {Action::Promote, Action::Demote, Action::SetMode})
            menu.addAction(action(a));
        menu.exec(m_tree->viewport()->mapToGlobal(pos));
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        updateActions();
        showDetails();
    });

    m_filterText = new QLineEdit(this);
    m_filterText->setPlaceholderText(tr("Filter names, edits and rationale"));
    m_filterText->setClearButtonEnabled(true);
    m_filterMode = new QComboBox(this);
    m_filterMode->addItem(tr("All modes"));
    for (const config::Mode mode : {config::Mode::MandatorySuccess, config::Mode::Xfail,
                                    config::Mode::XfailStrict, config::Mode::Skip})
        m_filterMode->addItem(QLatin1String(config::modeName(mode)), static_cast<int>(mode));
    connect(m_filterText, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setText(text);
        if (!text.isEmpty())
            m_tree->expandAll();
    });
    connect(m_filterMode, &QComboBox::currentIndexChanged, this, [this] {
        const QVariant mode = m_filterMode->currentData();
        m_proxy->setMode(mode.isValid()
                             ? std::optional<config::Mode>(static_cast<config::Mode>(mode.toInt()))
                             : std::nullopt);
        if (mode.isValid())
            m_tree->expandAll();
    });
    auto* left = new QWidget(this);
    auto* filters = new QHBoxLayout;
    filters->addWidget(m_filterText, 1);
    filters->addWidget(m_filterMode);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(filters);
    leftLayout->addWidget(m_tree, 1);
    return left;
}

// The selected entry's details over the pending diff and the suggestions.
QWidget* ConfigEditorWindow::buildDetailsSide()
{
    m_details = new ConfigDetailsPane(this);
    m_diff = new QPlainTextEdit(this);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setPlaceholderText(tr("No pending edits."));
    m_diffColours = new DiffHighlighter(m_diff->document());
    m_suggestionsPane = new SuggestionsPane(this);
    connect(m_suggestionsPane, &SuggestionsPane::applyRequested, this,
            [this](const std::vector<SuggestionRef>& refs) { applySuggestionRefs(refs); });
    connect(m_suggestionsPane, &SuggestionsPane::applyAllRequested, this,
            [this](const std::vector<SuggestionRef>& refs) { applySuggestionRefs(refs, true); });
    connect(m_suggestionsPane, &SuggestionsPane::runsChanged, this, [this] { reloadCache(); });
    connect(m_suggestionsPane, &SuggestionsPane::testActivated, this,
            [this](const QString& test) { revealTest(test); });
    auto* tabs = new QTabWidget(this);
    tabs->addTab(m_diff, tr("Pending diff"));
    tabs->addTab(m_suggestionsPane, tr("Suggestions"));

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_details);
    right->addWidget(tabs);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    return right;
}

void ConfigEditorWindow::updateActions()
{
    const std::optional<ConfigNodeRef> ref = currentRef();
    const QModelIndex current = m_proxy->mapToSource(m_tree->currentIndex());
    // A regex listing moves the test revealTest() showed under it, no other.
    const bool revealed = ref && ref->kind == ConfigNodeRef::Name && m_revealed
                          && m_revealed->doc == ref->doc && m_revealed->section == ref->section
                          && m_revealed->entry == ref->entry;
    const bool movable = ref && ref->kind == ConfigNodeRef::Name
                         && (revealed || !current.data(ConfigTreeModel::PatternRole).toBool());
    const auto mode =
        revealed ? m_revealed->mode
                 : static_cast<config::Mode>(current.data(ConfigTreeModel::ModeRole).toInt());
    action(Action::Promote)
        ->setEnabled(movable && (mode == config::Mode::XfailStrict || mode == config::Mode::Xfail));
    action(Action::Demote)->setEnabled(movable && mode == config::Mode::MandatorySuccess);
    action(Action::SetMode)->setEnabled(movable);
    bool modified = false;
    for (std::size_t i = 0; i < m_model->documentCount(); ++i)
        modified = modified || m_model->document(i).modified();
    action(Action::Save)->setEnabled(modified);
    action(Action::CopyPatch)->setEnabled(modified);
    action(Action::Reload)->setEnabled(ref.has_value());
    setWindowModified(modified);
}

void ConfigEditorWindow::updateDiff()
{
    const QString patch = pendingPatch();
    if (patch != m_diff->toPlainText())
        m_diff->setPlainText(patch);
    updateActions();
}

void ConfigEditorWindow::changeEvent(QEvent* event)
{
    // The diff's colours are picked per palette (light or dark).
    if (event->type() == QEvent::PaletteChange && m_diffColours)
        m_diffColours->rehighlight();
    QMainWindow::changeEvent(event);
}

QStringList ConfigEditorWindow::modifiedPaths() const
{
    QStringList paths;
    for (std::size_t doc = 0; doc < m_model->documentCount(); ++doc)
        if (m_model->document(doc).modified())
            paths << m_model->document(doc).path();
    return paths;
}

void ConfigEditorWindow::closeEvent(QCloseEvent* event)
{
    const QStringList paths = modifiedPaths();
    const UnsavedChoice choice = paths.isEmpty() ? UnsavedChoice::Discard : m_askUnsaved(paths);
    // A save that was refused (changed on disk, read-only) keeps the window.
    if (choice == UnsavedChoice::Cancel || (choice == UnsavedChoice::Save && !save())) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void ConfigEditorWindow::showMessage(const QString& text)
{
    m_lastMessage = text;
    statusBar()->showMessage(text, 15000);
}

bool ConfigEditorWindow::openFile(const QString& path)
{
    if (const std::optional<std::size_t> open = m_model->documentFor(path)) {
        selectSource(m_model->indexFor(*open));
        return true;
    }
    Result<ConfigDocument> doc = ConfigDocument::load(path);
    if (!doc) {
        showMessage(tr("Cannot open %1: %2").arg(path, toQString(doc.message())));
        return false;
    }
    const std::size_t index = m_model->addDocument(std::move(*doc));
    m_suggestions.resize(m_model->documentCount());
    rememberRecent(m_model->document(index).path());
    const QModelIndex row = m_model->indexFor(index);
    m_tree->expand(m_proxy->mapFromSource(row));
    selectSource(row);
    refreshSuggestions();
    showMessage(tr("Opened %1").arg(m_model->document(index).path()));
    return true;
}

int ConfigEditorWindow::openFolder(const QString& folder)
{
    const QString configs = QDir(folder).filePath(QStringLiteral("tests/configs"));
    const QString root = QFileInfo(configs).isDir() ? configs : folder;
    QStringList files;
    QDirIterator it(root, {QStringLiteral("*.yaml")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    int opened = 0;
    for (const QString& file : files)
        opened += openFile(file) ? 1 : 0;
    if (opened > 0)
        rememberRecent(QFileInfo(folder).absoluteFilePath());
    showMessage(tr("Opened %1 of %2 configs under %3").arg(opened).arg(files.size()).arg(root));
    return opened;
}

void ConfigEditorWindow::rememberRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kRecentMax)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void ConfigEditorWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path] {
            QFileInfo(path).isDir() ? void(openFolder(path)) : void(openFile(path));
        });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

bool ConfigEditorWindow::save()
{
    bool allSaved = true;
    for (std::size_t doc = 0; doc < m_model->documentCount(); ++doc) {
        const ConfigDocument& document = m_model->document(doc);
        if (!document.modified())
            continue;
        // Asked first so the user can reload; the core's save checks again,
        // atomically with the write.
        Result<config::LoadedConfig> disk = config::loadConfigFile(document.loaded().path);
        if (disk && !(disk->stamp == document.loaded().stamp)) {
            allSaved = false;
            showMessage(
                tr("Not saved: %1 changed on disk since it was opened").arg(document.path()));
            if (m_askReload(document.path()))
                reloadDocument(doc);
            continue;
        }
        if (Result<void> saved = config::saveConfigFile(document.loaded(), document.text());
            !saved) {
            allSaved = false;
            showMessage(tr("Not saved: %1").arg(toQString(saved.message())));
            continue;
        }
        Result<config::LoadedConfig> reread = config::loadConfigFile(document.loaded().path);
        if (!reread || !m_model->resetLoaded(doc, std::move(*reread))) {
            allSaved = false;
            showMessage(tr("Saved %1, but reading it back failed").arg(document.path()));
            continue;
        }
        showMessage(tr("Saved %1").arg(document.path()));
    }
    if (allSaved)
        m_undo->setClean();
    updateDiff();
    return allSaved;
}

bool ConfigEditorWindow::reloadDocument(std::size_t doc)
{
    Result<config::LoadedConfig> disk =
        config::loadConfigFile(m_model->document(doc).loaded().path);
    if (!disk) {
        showMessage(tr("Cannot reload: %1").arg(toQString(disk.message())));
        return false;
    }
    if (Result<void> reset = m_model->resetLoaded(doc, std::move(*disk)); !reset) {
        showMessage(tr("Cannot reload: %1").arg(toQString(reset.message())));
        return false;
    }
    // The commands hold texts of the file as it was; they no longer apply.
    m_undo->clear();
    textChanged(doc, {});
    showMessage(tr("Reloaded %1 from disk").arg(m_model->document(doc).path()));
    return true;
}

QString ConfigEditorWindow::pendingPatch() const
{
    std::string patch;
    for (std::size_t doc = 0; doc < m_model->documentCount(); ++doc)
        patch += m_model->document(doc).pendingDiff();
    return toQString(patch);
}

void ConfigEditorWindow::copyPatch()
{
    const QString patch = pendingPatch();
    QApplication::clipboard()->setText(patch);
    showMessage(patch.isEmpty() ? tr("No pending edits to copy")
                                : tr("Copied the pending edits as a patch (patch -p1 in the "
                                     "checkout root applies it)"));
}

} // namespace relayhud::ui
