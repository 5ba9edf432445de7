// Tools › Outcome Config Editor from the main window (issue 36): the editor
// opens on what the user is looking at, never empty while the settings name
// a config for it: the selected cell's backend's config with the selected
// test revealed, or with no cell selected the configs of the backends in
// view (Settings › Coverage maps a backend to its config; the demo fills it
// with the simulator's own configs).
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"

namespace relayhud::ui {

ConfigEditorWindow* MainWindow::openConfigEditorHere()
{
    ConfigEditorWindow* editor = openConfigEditor();
    const QModelIndex cell = m_view->currentIndex();
    const QString backend =
        cell.isValid() ? cell.data(MatrixModel::BackendRole).toString() : QString();
    if (backend.isEmpty()) {
        openConfigsInView(*editor);
        return editor;
    }
    const QString path = m_config.settings.outcomeConfigs.value(backend);
    if (path.isEmpty()) {
        m_status->showMessage(
            tr("No outcome config is set for %1 (Settings › Coverage)").arg(backend));
        return editor;
    }
    if (!editor->openFile(path))
        return editor; // the editor's status bar says why
    editor->setConfigRepo(path, backend);
    // The selected test of the cell's run, revealed in this backend's config.
    const qint64 run = cell.data(MatrixModel::RunRowIdRole).toLongLong();
    if (run == 0 || run != m_testsRowId || m_testsPanel->selectedTestId() == 0)
        return editor;
    for (const StoredTestResult& result : m_testsPanel->model().results())
        if (result.testId == m_testsPanel->selectedTestId()) {
            editor->revealTest(toQString(result.identity), toQString(result.marks), path);
            break;
        }
    return editor;
}

void MainWindow::openConfigsInView(ConfigEditorWindow& editor)
{
    QStringList paths;
    QStringList backends;
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        const QString backend =
            m_proxy->headerData(column, Qt::Horizontal, MatrixModel::BackendRole).toString();
        const QString path = m_config.settings.outcomeConfigs.value(backend);
        if (!path.isEmpty() && !paths.contains(path)) {
            paths << path;
            backends << backend;
        }
    }
    for (qsizetype i = 0; i < paths.size(); ++i)
        if (editor.openFile(paths[i]))
            editor.setConfigRepo(paths[i], backends[i]);
    if (paths.isEmpty())
        m_status->showMessage(
            tr("No outcome config is set for the backends in view (Settings › Coverage)"));
}

} // namespace relayhud::ui
