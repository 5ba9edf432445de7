#pragma once
// The Merge gating dock (issue 34, part 8; issue 38): would the merge bot
// block the current row's pull request on a CRCR check, and what would Dr. CI
// list. It follows the current row's PR, is read only while it can be seen,
// and comes to the front when the Pull requests view is chosen, where a row
// is a PR.
#include <QObject>

class QDockWidget;
class QMainWindow;
class QModelIndex;
class QTabBar;

namespace relayhud::ui {

struct AppSettings;
class MatrixFilterProxy;
class MatrixView;
class MergeGatingPanel;
class TestsCoordinator;

class GatingCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr;
        const AppSettings* settings = nullptr; // the cache it reads
        MatrixFilterProxy* proxy = nullptr;
        MatrixView* view = nullptr;        // the current row
        QTabBar* tabs = nullptr;           // the view tabs
        TestsCoordinator* tests = nullptr; // the dock is a tab beside the tests'
    };
    explicit GatingCoordinator(Frame frame, QObject* parent = nullptr);

    MergeGatingPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    // A sync may have changed the PR's runs: what is shown is read again.
    void reload();

private:
    void follow(const QModelIndex& current);
    void load();

    Frame m_frame;
    MergeGatingPanel* m_panel;
    QDockWidget* m_dock;
    PrNumber m_pr; // the current row's PR (none: a push, a nightly), read when the tab is seen
};

} // namespace relayhud::ui
