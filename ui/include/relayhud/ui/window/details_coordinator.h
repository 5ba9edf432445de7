#pragma once
// The Run details dock (issue 38): the current cell's run, read off the GUI
// thread by the RunDetailsLoader, with what the matrix knows of the cell and
// the cache does not (a PR row's earlier head, the column's level and
// backend), and the run's links to GitHub and the HUD.
#include "relayhud/model/ids.h"
#include "relayhud/model/types.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

class QDockWidget;
class QMainWindow;
class QModelIndex;

namespace relayhud::ui {

struct AppSettings;
class MatrixFilterProxy;
class MatrixModel;
class RunDetailsLoader;
class RunDetailsPanel;
struct RunDetails;

class DetailsCoordinator : public QObject {
    Q_OBJECT
public:
    // The dock goes right of the matrix; `settings` gives the HUD's address
    // for the run's links. All outlive it.
    DetailsCoordinator(QMainWindow* window, const MatrixFilterProxy* proxy,
                       const AppSettings* settings);

    RunDetailsPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    void setCachePath(const QString& path);
    // The current cell changed (invalid: none): its run, read and shown, or
    // what to select.
    void follow(const QModelIndex& current);
    // The backend ("org/repo") of the run shown; empty when none is.
    std::string shownBackend() const;
    void raise();

signals:
    // The panel shows the selected cell's run (read off the GUI thread).
    void runDetailsShown(qint64 runRowId);

private:
    void showRun(CheckRunRow run, const QModelIndex& sourceIndex);
    // A message instead of a run; a read still on its way is dropped.
    void showMessage(const QString& text);
    void onLoaded(const RunDetails& loaded);

    const MatrixFilterProxy* m_proxy;
    const MatrixModel* m_model;
    const AppSettings* m_settings;
    RunDetailsPanel* m_panel;
    QDockWidget* m_dock;
    RunDetailsLoader* m_loader;
    CheckRunRow m_run; // the run asked for; none while a message is shown
    // What the matrix knows of the cell being read that the cache does not:
    // a PR row's earlier head, the column's level.
    struct Context {
        std::optional<UpstreamCommit> commit;
        Level level = Level::Unknown;
        std::string backend; // the column's "org/repo"
    } m_context;
};

} // namespace relayhud::ui
