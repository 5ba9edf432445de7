#pragma once
// The backends overview (issue 17) and the integration doctor (issue 20):
// two view tabs in the matrix's place, since they need the window's width
// (issue 38). Each is read when its tab is shown, and again after a sync or
// an artifact pass while it is; a backend or a run chosen in them goes back
// to the matrix.
#include <QObject>

#include <functional>

class QStackedWidget;
class QTabBar;

namespace relayhud::ui {

struct AppSettings;
struct ArtifactAccess;
class BackendsPanel;
class DoctorPanel;
class MatrixCoordinator;
class MatrixFilterProxy;
class SyncStatusWidget;
class WatchController;

class BackendsCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QStackedWidget* stack = nullptr; // the matrix first: the panels are added after it
        QTabBar* tabs = nullptr;         // the view tabs: theirs are added after the matrix's
        MatrixFilterProxy* proxy = nullptr;
        SyncStatusWidget* status = nullptr;
        WatchController* watch = nullptr; // the followed backends
        MatrixCoordinator* matrix = nullptr;
        const AppSettings* settings = nullptr;
        std::function<ArtifactAccess()> access; // the doctor reads the workflows
    };
    explicit BackendsCoordinator(Frame frame, QObject* parent = nullptr);

    BackendsPanel* backendsPanel() const { return m_backends; }
    DoctorPanel* doctorPanel() const { return m_doctor; }
    int backendsTab() const { return m_backendsTab; }
    // The cache changed (a sync, job logs read): the shown one reads again.
    void reload();

private:
    void show(int tab);

    Frame m_frame;
    BackendsPanel* m_backends;
    DoctorPanel* m_doctor;
    int m_backendsTab = -1;
    int m_doctorTab = -1;
};

} // namespace relayhud::ui
