#pragma once
// The backends overview (issue 17): the relay's health from its probe repo,
// then one row per backend, worst first: level, the HUD's pass rate and ours
// (labelled), failures, runs, duration, the relay's queue and execution times
// (first attempts), timeouts, what the integration doctor finds in its runs,
// last run, on-calls, followed or not.
// Activating a row shows that backend's columns in the matrix. Loads on a
// worker from the cache file; nothing here reads SQLite on the GUI thread.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/verdict/backend_overview.h"

#include <QSet>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>

class QLabel;
class QTreeWidget;

namespace relayhud::ui {

// The integration doctor's runtime verdict on a backend (doctor/runtime_health.h).
struct BackendDoctorSummary {
    std::size_t runs = 0; // in the window
    std::size_t errors = 0;
    std::size_t warnings = 0;
    QString details;       // one line per error or warning
    QString workflows;     // which workflows were judged: "as last read", "never read"
    bool runsOnly = false; // no workflow was read yet: the runs alone were judged
};

struct BackendsData {
    std::vector<verdict::BackendOverview> backends;
    // The HUD's other aggregates as the last sync kept them (hud-read-api.md
    // R12: the HUD's own definitions), by repo: crcr_nightly_summary, and
    // crcr_success_rate's daily series by event type, oldest day first.
    std::map<std::string, NightlySummary> nightly;
    std::map<std::string, std::map<std::string, std::vector<DailyRate>>> daily;
    bool nightlyAnswered = false;
    bool dailyAnswered = false;
    std::map<std::string, BackendDoctorSummary> doctor; // by repo
    std::optional<RelayHealth> relay;
    bool hudAnswered = false; // crcr_summary was cached for this window
    QString error;
};

class BackendsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BackendsPanel(QWidget* parent = nullptr);

    // Reads `cachePath` on a worker: the runs of the last `days` days, and
    // the workflows the Doctor tab last read (kept copies: never the network).
    void load(const QString& cachePath, int days, const ArtifactAccess& access);
    void setFollowed(const QSet<QString>& keys);
    bool isLoading() const { return m_loading; }
    QTreeWidget* table() const { return m_table; }
    QString relayText() const;

    // The worker's part, public for tests.
    static BackendsData read(const QString& cachePath, int days, const ArtifactAccess& access);

signals:
    void backendActivated(const QString& repo);
    void loaded(int backends);

private:
    void showLoaded(const BackendsData& got);
    void fillRelay(const BackendsData& got);

    QLabel* m_relay;
    QLabel* m_note;
    QTreeWidget* m_table;
    QSet<QString> m_followed;
    std::shared_ptr<const BackendsData> m_data;
    quint64 m_request = 0;
    bool m_loading = false;
};

} // namespace relayhud::ui
