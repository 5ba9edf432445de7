#pragma once
// The Coverage and Charts docks (issue 38). Coverage: the shown run's verdict
// and what it covered, judged only while its tab can be seen (judging reads
// the run's results), and judged again when results arrive that it lacked.
// Charts: the trends of the cache, read again when the tab is next seen after
// a change. The coverage settings (outcome configs, shrink threshold) reach
// both and the matrix's verdict marks.
#include <QObject>

class QDockWidget;
class QModelIndex;
class QMainWindow;

namespace relayhud::ui {

struct AppSettings;
class ChartsPanel;
class CoveragePanel;
class MatrixCoordinator;
class SnapshotLoader;
class SyncStatusWidget;
class TestsCoordinator;

class CoverageCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr;
        const AppSettings* settings = nullptr;
        SyncStatusWidget* status = nullptr;
        TestsCoordinator* tests = nullptr;   // the docks are tabs beside the tests'
        MatrixCoordinator* matrix = nullptr; // the run shown; a chart's commit
        SnapshotLoader* loader = nullptr;    // the matrix's verdict marks
    };
    explicit CoverageCoordinator(Frame frame, QObject* parent = nullptr);

    CoveragePanel* coveragePanel() const { return m_coverage; }
    QDockWidget* coverageDock() const { return m_coverageDock; }
    ChartsPanel* chartsPanel() const { return m_charts; }
    QDockWidget* chartsDock() const { return m_chartsDock; }
    // The settings' outcome configs and cache, to the judges.
    void applySettings();
    // The current cell changed (invalid: none): the panel judges its run
    // when it can be seen.
    void follow(const QModelIndex& current);
    // This run's results were just read from its own run: a judgement made
    // before they were fetched is judged again.
    void resultsRead(qint64 runRowId);
    // An artifact pass stored results: the shown run is judged again.
    void resultsStored();
    // The cache changed (a sync, a tag): the charts read it when next seen.
    void reloadCharts();

private:
    Frame m_frame;
    CoveragePanel* m_coverage;
    QDockWidget* m_coverageDock;
    ChartsPanel* m_charts;
    QDockWidget* m_chartsDock;
};

} // namespace relayhud::ui
