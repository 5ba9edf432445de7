#pragma once
// Triage and the team (issue 38). Tags set in the tests panel (one key, or
// the dialog) or on a cluster become undoable commands; each is shown at once
// and written by the triage worker, and the matrix's marks and the clusters
// follow. Export and import of a team's tags go through the Triage menu. The
// team server's link (Settings › Team) sends the outbox and brings in what
// colleagues tagged. It owns the TriageController, the TeamClient, the undo
// stack, the Edit and Triage menus and the Clusters dock.
#include "relayhud/model/triage_tags.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QDockWidget;
class QMainWindow;
class QMenuBar;
class QTimer;
class QUndoStack;

namespace relayhud::ui {

struct AppSettings;
class ClustersPanel;
class CredentialStore;
class MatrixCoordinator;
class SyncStatusWidget;
class TeamClient;
class TestsCoordinator;
class TriageController;
struct TriageEdit;
struct TriageRequest;

class TriageCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it.
    struct Frame {
        QMainWindow* window = nullptr; // the Clusters dock's, the dialogs' parent
        const AppSettings* settings = nullptr;
        CredentialStore* credentials = nullptr; // the team server's password
        SyncStatusWidget* status = nullptr;
        TestsCoordinator* tests = nullptr;   // the shown run's tests, tagged
        MatrixCoordinator* matrix = nullptr; // Triage › Next untriaged failure
        std::function<void()> reloadMatrix;  // the matrix's triage marks
    };
    explicit TriageCoordinator(Frame frame, QObject* parent = nullptr);

    void buildMenus(QMenuBar* bar); // Edit (undo, redo) and Triage
    // Triage of the shown run's failures: undo with Edit › Undo.
    QUndoStack* undoStack() const { return m_undo; }
    ClustersPanel* clustersPanel() const { return m_clustersPanel; }
    QDockWidget* clustersDock() const { return m_clustersDock; }
    // The link to the team's triage server (Settings › Team, --server).
    TeamClient* team() const { return m_team; }
    TriageController* controller() const { return m_triage; }
    // Re-reads the failure clusters of the recent SHAs (worker).
    void reloadClusters();
    void exportTriage(const QString& path);
    void importTriage(const QString& path); // merges, newest wins
    // The cache moved: the tags, and the undo stack's steps, stay with the old one.
    void setCachePath(const QString& path);
    // Starts, restarts or stops the team link to match the settings and the
    // keychain's password.
    void applyTeamSettings();

signals:
    // A tag (or its undo) reached the cache.
    void triageWritten();
    // An import finished: `error` empty on success.
    void triageImported(const QString& error);
    // The team server's link changed state (connected, offline, unsent).
    void teamViewChanged();
    // A colleague's triage reached this cache and the views re-read it.
    void teamChangesArrived(qint64 applied);
    // The Clusters dock received new clusters.
    void clustersShown(int clusters);

private:
    void connectTeam();
    void buildClustersDock();
    QString triageAuthor() const;
    void onTriageRequested(const TriageRequest& request);
    void onClusterTagRequested(const std::vector<TriageTarget>& targets, const TriageEdit& edit);
    void pushTriage(std::vector<TriageTarget> targets, std::vector<std::optional<TriageTag>> before,
                    const TriageEdit& edit, bool keepNotes);
    void applyTriage(const std::vector<TriageTarget>& targets,
                     const std::vector<std::optional<TriageTag>>& values);
    void showExportTriageDialog();
    void showImportTriageDialog();

    Frame m_frame;
    TriageController* m_triage;
    TeamClient* m_team;
    QUndoStack* m_undo;
    QTimer* m_marksReload; // a burst of tags reloads the matrix once
    ClustersPanel* m_clustersPanel = nullptr;
    QDockWidget* m_clustersDock = nullptr;
};

} // namespace relayhud::ui
