#include "relayhud/ui/window/config_coordinator.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/config/config_tree_model.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QFileDialog>

namespace relayhud::ui {

ConfigCoordinator::ConfigCoordinator(Frame frame, QObject* parent) : QObject(parent), m_frame(frame)
{
}

bool ConfigCoordinator::closeEditor() { return !m_editor || m_editor->close(); }

ConfigEditorWindow* ConfigCoordinator::openEditorHere()
{
    ConfigEditorWindow* editor = openEditor();
    const QModelIndex cell = m_frame.view->currentIndex();
    const QString backend =
        cell.isValid() ? cell.data(MatrixModel::BackendRole).toString() : QString();
    if (backend.isEmpty()) {
        openConfigsInView(*editor);
        return editor;
    }
    const QString path = m_frame.settings->outcomeConfigs.value(backend);
    if (path.isEmpty()) {
        m_frame.status->showMessage(
            tr("No outcome config is set for %1 (Settings › Coverage)").arg(backend));
        return editor;
    }
    if (!editor->openFile(path))
        return editor; // the editor's status bar says why
    editor->setConfigRepo(path, backend);
    // The selected test of the cell's run, revealed in this backend's config.
    const CheckRunRow run{cell.data(MatrixModel::RunRowIdRole).toLongLong()};
    if (!run || run != m_frame.tests->shownRun() || !m_frame.tests->panel()->selectedTestId())
        return editor;
    for (const StoredTestResult& result : m_frame.tests->panel()->model().results())
        if (result.testId == m_frame.tests->panel()->selectedTestId()) {
            editor->revealTest(toQString(result.identity), toQString(result.marks), path);
            break;
        }
    return editor;
}

void ConfigCoordinator::openConfigsInView(ConfigEditorWindow& editor)
{
    QStringList paths;
    QStringList backends;
    for (int column = 0; column < m_frame.proxy->columnCount(); ++column) {
        const QString backend =
            m_frame.proxy->headerData(column, Qt::Horizontal, MatrixModel::BackendRole).toString();
        const QString path = m_frame.settings->outcomeConfigs.value(backend);
        if (!path.isEmpty() && !paths.contains(path)) {
            paths << path;
            backends << backend;
        }
    }
    for (qsizetype i = 0; i < paths.size(); ++i)
        if (editor.openFile(paths[i]))
            editor.setConfigRepo(paths[i], backends[i]);
    if (paths.isEmpty())
        m_frame.status->showMessage(
            tr("No outcome config is set for the backends in view (Settings › Coverage)"));
}

ConfigEditorWindow* ConfigCoordinator::openEditor()
{
    if (!m_editor) {
        m_editor = new ConfigEditorWindow(m_frame.settings->effectiveCachePath());
        m_editor->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_editor->show();
    m_editor->raise();
    m_editor->activateWindow();
    return m_editor;
}

bool ConfigCoordinator::openTest(const QString& identity, const QString& marks)
{
    ConfigEditorWindow* editor = openEditor();
    if (editor->revealTest(identity, marks))
        return true;
    // The config Settings › Coverage names for the shown run's backend.
    if (const QString configured = configPathForShownRun(); !configured.isEmpty())
        if (editor->openFile(configured) && editor->revealTest(identity, marks))
            return true;
    if (editor->model()->rowCount() == 0) {
        const QString path =
            QFileDialog::getOpenFileName(editor, tr("Open the backend's outcome config"), QString(),
                                         tr("Outcome configs (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty() && editor->openFile(path) && editor->revealTest(identity, marks))
            return true;
    }
    m_frame.status->showMessage(tr("No open outcome config decides %1").arg(identity));
    return false;
}

bool ConfigCoordinator::openMissingMandatoryTest(const QString& configPath, const QString& name)
{
    ConfigEditorWindow* editor = openEditor();
    if (!configPath.isEmpty() && editor->revealTest(name))
        return true;
    if (!configPath.isEmpty() && editor->openFile(configPath) && editor->revealTest(name))
        return true;
    m_frame.status->showMessage(
        configPath.isEmpty() ? tr("No outcome config is set for this backend (Settings › Coverage)")
                             : tr("%1 has no entry %2").arg(configPath, name));
    return false;
}

// The shown run's backend is its matrix column's.
QString ConfigCoordinator::configPathForShownRun() const
{
    const std::string backend = m_frame.details->shownBackend();
    if (backend.empty())
        return {};
    return m_frame.settings->outcomeConfigs.value(toQString(backend));
}

} // namespace relayhud::ui
