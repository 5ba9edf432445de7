#pragma once
// The window's live link to its team's triage server (issue 21), on a
// worker thread with its own cache connection and one server connection:
// it syncs at start, after each local tag write (syncSoon), when the server
// says a colleague pushed (LISTEN/NOTIFY, the connection's socket watched by
// a QSocketNotifier: no polling), and every minute as a safety net. When the
// server cannot be reached it says "offline, N changes waiting", retries
// with a growing pause (2 s to 15 s), and delivers the waiting changes once
// it is back (team/team_sync.h says why exactly once).
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>

#include <memory>
#include <string>

namespace relayhud::ui {

struct TeamView {
    enum class State { Off, Connecting, Connected, Offline };
    State state = State::Off;
    qint64 unsent = 0;     // changes the server has not acknowledged
    qint64 lastSyncMs = 0; // 0: never
    qint64 conflicts = 0;  // listed in the cache
    QString user;          // the server's session user: how the team sees us
    QString where;         // never with the password
    QString error;         // why offline (or why the last sync failed)
    QString skipped;       // "skipped 7 changes the team server holds that ..."; "" when none
    int retryInSeconds = 0;

    // "team: connected as alice", "team: offline, 3 changes waiting", ...
    QString summary() const;
    // Where, who, the last sync, the conflicts, the rows skipped and the
    // error, one per line.
    QString details() const;
};

// What one sync brought from colleagues.
struct TeamArrival {
    qint64 applied = 0;
    QStringList authors;
    QStringList conflicts; // one line each
};

class TeamWorker;

class TeamClient : public QObject {
    Q_OBJECT
public:
    explicit TeamClient(QObject* parent = nullptr);
    ~TeamClient() override;

    // Connects to `conninfo` (libpq conninfo or URI; `password` from the
    // keychain, else PGPASSWORD or ~/.pgpass) for the cache at `cachePath`;
    // a running link to another server or cache is stopped first.
    void start(const QString& conninfo, const std::string& password, const QString& cachePath);
    void stop();
    bool running() const { return !m_conninfo.isEmpty(); }
    const QString& conninfo() const { return m_conninfo; }
    const std::string& password() const { return m_password; }
    const QString& cachePath() const { return m_cachePath; }
    // A local tag was written: push it (and pull) as soon as possible.
    void syncSoon();

    const TeamView& view() const { return m_view; }

signals:
    void viewChanged(const relayhud::ui::TeamView& view);
    // A sync applied colleagues' changes to the cache: views re-read it.
    void changesArrived(const relayhud::ui::TeamArrival& arrival);

private:
    friend class TeamWorker;
    // From the worker, on this thread; a generation not the current one is
    // from a link since stopped or restarted, and dropped.
    void receive(quint64 generation, const TeamView& view);
    void arrive(quint64 generation, const TeamArrival& arrival);

    QThread m_thread;
    TeamWorker* m_worker = nullptr;
    QString m_conninfo;
    std::string m_password;
    QString m_cachePath;
    quint64 m_generation = 0;
    TeamView m_view;
};

} // namespace relayhud::ui

Q_DECLARE_METATYPE(relayhud::ui::TeamView)
Q_DECLARE_METATYPE(relayhud::ui::TeamArrival)
