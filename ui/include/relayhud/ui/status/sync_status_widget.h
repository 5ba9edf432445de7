#pragma once
// The status bar's sync line: what the sync is doing (with a progress bar),
// when it last succeeded, "offline — <reason>" when the HUD is unreachable,
// and which cache file the window shows.
#include <QWidget>

class QLabel;
class QProgressBar;

namespace relayhud::ui {

class ElidedLabel;

class SyncStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit SyncStatusWidget(QWidget* parent = nullptr);

    void showSyncing(const QString& phase, int done, int total);
    void showSynced(qint64 finishedAt, const QString& summary, const QString& toolTip = {});
    // The relay's health as the HUD's /crcr cards judge it from its probe repo
    // (a dot and a word; the counts in the tooltip). Empty text hides it.
    void showRelayHealth(int state, const QString& word, const QString& toolTip);
    void showOffline(const QString& reason, int retryInSeconds);
    // The cache cannot be read (damaged, not a cache): nothing is shown from
    // it, so no "showing the cache" and no retry countdown.
    void showCacheError(const QString& reason);
    void showLastSync(qint64 finishedAt); // from the cache, before any sync
    // A note that is not about the HUD's reachability (test results, imports).
    void showMessage(const QString& text);
    void setCachePath(const QString& path);
    // The team server's link ("team: connected as alice", "team: offline, 3
    // changes waiting"); `warn` colours it. Empty text hides it.
    void showTeam(const QString& text, const QString& toolTip, bool warn);
    QString teamText() const; // "" when hidden

    QString stateText() const;
    QString stateToolTip() const;
    QString relayHealthText() const; // "" when hidden
    bool isOffline() const { return m_offline; }

private:
    void setState(const QString& text, const QString& toolTip = {});
    QString lastSyncText() const;

    ElidedLabel* m_state;
    QProgressBar* m_progress;
    QLabel* m_lastSync;
    QLabel* m_relayHealth;
    QLabel* m_team;
    ElidedLabel* m_cache;
    qint64 m_lastSyncAt = 0;
    bool m_offline = false;
};

} // namespace relayhud::ui
