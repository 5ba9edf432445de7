#pragma once
// The main window's watch and notify (issue 17): followed backends, jobs and
// PRs; after each sync, one notification for what is new on them; the
// matrix marks changed cells until visited; a tray icon counts them. It owns
// the WatchController, the tray icon and the Watch menu. The window hands it
// each snapshot, each sync's relay health and each visited cell, and takes
// nothing back but the controller (for the panels that show followed items).
#include "relayhud/model/matrix_snapshot.h"

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMainWindow;
class QMenuBar;
class QSystemTrayIcon;

namespace relayhud::ui {

struct AppSettings;
class MatrixModel;
class MatrixView;
class SyncStatusWidget;
class WatchController;
struct SyncOutcome;

class WatchCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr;
        AppSettings* settings = nullptr; // followed, muted and quiet hours are kept there
        MatrixModel* model = nullptr;
        MatrixView* view = nullptr;
        SyncStatusWidget* status = nullptr;
        // Makes a run's cell current (MatrixCoordinator::selectRun).
        std::function<bool(qint64)> selectRun;
        bool trayIcon = false; // sessions that keep no state (tests, shots) show none
    };
    explicit WatchCoordinator(Frame frame, QObject* parent = nullptr);

    WatchController* controller() const { return m_watch; }
    void buildMenu(QMenuBar* bar);
    // The current cell changed to this run (0: none): seen now.
    void visited(qint64 runRowId);
    // The next snapshot is a sync's: compare it with the shown one.
    // A sync ended well: the next snapshot is its, and its relay health (when
    // the relay's probe gave one) is compared with the last.
    void syncArrived(const SyncOutcome& outcome);
    void snapshotArrived(const MatrixSnapshot& next);
    // After an artifact pass: the evidence on the followed items' new
    // failures (worker); what it attributes to a PR is notified.
    void attributeAwaitedFailures(const QString& cachePath);

private:
    enum class Target { Job, Backend, Pr, Followed };
    QString currentKey(Target target) const;
    void updateActions();
    void showQuietHoursDialog();

    Frame m_frame;
    WatchController* m_watch;
    QSystemTrayIcon* m_tray = nullptr;
    QAction* m_followJob = nullptr;
    QAction* m_followBackend = nullptr;
    QAction* m_followPr = nullptr;
    QAction* m_mute = nullptr;
    bool m_pending = false;  // the next snapshot follows a sync
    QString m_relayDegraded; // non-empty: this sync's relay health got worse
    int m_lastRelayHealth = -1;
};

} // namespace relayhud::ui
