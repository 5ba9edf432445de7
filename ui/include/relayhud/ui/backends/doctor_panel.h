#pragma once
// The integration doctor's page (issue 20): is each backend's CRCR
// integration sound? Backends worst first on the left; on the right the
// selected one's findings: what its rows in the cache show over the window
// (runs never completed, swept zombies, legs sharing a job name, evidence,
// reruns, the relay's queue time) and what its workflows say, each finding
// with its line or its runs and a one-line fix. A runtime finding's runs
// are listed below it; activating one selects it in the matrix. Reads the
// cache and GitHub's contents API on a worker; offline, the workflows kept
// from the last read are shown and said to be so.
#include "relayhud/doctor/examination.h"
#include "relayhud/ui/settings/app_settings.h"

#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QLabel;
class QSplitter;
class QTreeWidget;
class QTreeWidgetItem;

namespace relayhud::ui {

struct DoctorData {
    std::vector<doctor::BackendReport> backends; // worst first (doctor::examineBackends)
    int days = 0;
    QString error;
};

class DoctorPanel : public QWidget {
    Q_OBJECT
public:
    explicit DoctorPanel(QWidget* parent = nullptr);

    // Reads `cachePath` (the last `days` days) and each backend's workflows
    // (through `access`; none asked when `online` is false) on a worker.
    void load(const QString& cachePath, int days, const ArtifactAccess& access, bool online);
    bool isLoading() const { return m_loading; }
    QTreeWidget* backendsList() const { return m_backends; }
    QTreeWidget* findingsTree() const { return m_findings; }
    QTreeWidget* runsList() const { return m_runs; }
    // Selects a backend by repo; false when it is not listed.
    bool selectBackend(const QString& repo);

    // The worker's part, public for tests.
    static DoctorData read(const QString& cachePath, int days, const ArtifactAccess& access,
                           bool online);

signals:
    void loaded(int backends);
    void runActivated(qint64 checkRunRow);

private:
    void setUpBackends();
    void setUpFindings();
    void wire();
    // The backend a row of the backends' list stands for (none: no row, no data).
    const doctor::BackendReport* backendOf(const QTreeWidgetItem* item) const;
    void showLoaded(const std::shared_ptr<const DoctorData>& got);
    void showBackend(const doctor::BackendReport* backend);
    void addRuntimeFindings(const doctor::BackendReport& backend);
    void addWorkflowFindings(const doctor::BackendReport& backend);
    static QTreeWidgetItem* addFinding(QTreeWidgetItem* parent, doctor::Severity severity,
                                       const QString& check, const QString& where,
                                       const QString& what, const QString& fix);
    void showRuns(const doctor::BackendReport* backend, const std::vector<CheckRunRow>& rows);
    static void showCheckout(QTreeWidgetItem* item, const HealthRun& run);

    QLabel* m_summary;
    QSplitter* m_split;
    QTreeWidget* m_backends;
    QTreeWidget* m_findings;
    QLabel* m_fix;
    QTreeWidget* m_runs;
    std::shared_ptr<const DoctorData> m_data;
    quint64 m_request = 0;
    bool m_loading = false;
};

} // namespace relayhud::ui
