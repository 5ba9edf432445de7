#pragma once
// The main window's Tests dock (issue 38): the shown run's test results, read
// (or fetched from the run's artifacts) by the TestResultsController off the
// GUI thread, with their tracebacks and histories on demand. It owns the
// panel, its dock and the controller, and keeps which run the dock shows;
// the logs, links, triage and the keyboard walk ask it, and nothing else
// holds that state.
#include "relayhud/model/ids.h"
#include "relayhud/model/triage_tags.h"
#include "relayhud/model/types.h"
#include "relayhud/util/ticket.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QDockWidget;
class QModelIndex;
class QMainWindow;
class QWidget;

namespace relayhud::ui {

class TestResultsController;
class TestsPanel;
struct TestsPanelData;

class TestsCoordinator : public QObject {
    Q_OBJECT
public:
    // Builds the dock under `above` (the run details), right of the matrix.
    TestsCoordinator(QMainWindow* window, QDockWidget* above);

    TestsPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    TestResultsController* controller() const { return m_tests; }

    // The current cell changed (invalid: none): its run's tests, or what to
    // select.
    void follow(const QModelIndex& current);
    // Shows this run's tests (a cache row id; 0: none), fetching its
    // results from its artifacts when the cache has none.
    void showRun(CheckRunRow run);
    // Reads the shown run's tests again (after a tag, an import or a team
    // change); `fetch` also fetches results the cache lacks.
    void reload(bool fetch);
    // After an artifact pass: read again when it stored results, or when
    // the shown run's own read failed meanwhile (the pass held the cache).
    void reloadAfterArtifacts(bool stored);
    // The run the dock shows (0: none), its relay id (empty for an import
    // or before its tests are read) and that run as a triage target.
    CheckRunRow shownRun() const { return m_run; }
    const CheckRunId& shownCheckRunId() const { return m_checkRunId; }
    const std::optional<TriageTarget>& shownTarget() const { return m_base; }
    // The controller's request for the shown run's tests.
    Ticket currentLoad() const { return m_load; }
    void raise();
    // A dock of `panel` as a tab beside the Tests dock, which stays in front;
    // `name` is its object name, which the saved layout knows it by.
    QDockWidget* addTabBeside(const QString& title, const QString& name, QWidget* panel);

signals:
    // The panel received a run's results: how many, how many failing, and
    // how many of those have a history strip.
    void testsShown(qint64 runRowId, int tests, int failing, int histories);
    // ... or could not be read (the panel says why; the next artifact pass
    // reads them again).
    void testsFailed(const QString& reason);
    // The shown run's results were just read from its own run (not an
    // import): a green's verdict judged before they were fetched is stale.
    void runResultsRead(qint64 runRowId);

private:
    void onLoaded(const std::shared_ptr<const TestsPanelData>& loaded);

    QMainWindow* m_window;
    TestsPanel* m_panel;
    QDockWidget* m_dock;
    TestResultsController* m_tests;
    CheckRunRow m_run;
    Ticket m_load;
    bool m_readFailed = false; // the next pass reads it again
    CheckRunId m_checkRunId;   // for links; empty for an import
    std::optional<TriageTarget> m_base;
};

} // namespace relayhud::ui
