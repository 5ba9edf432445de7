#include "relayhud/ui/triage/team_client.h"

#include "relayhud/store/database.h"
#include "relayhud/store/team_store.h"
#include "relayhud/team/team_server.h"
#include "relayhud/team/team_sync.h"
#include "relayhud/ui/common/format.h"

#include <QDateTime>
#include <QMetaObject>
#include <QSocketNotifier>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <optional>

namespace relayhud::ui {

namespace {

// Bounds connecting, every statement and every lock wait of the link
// (TeamServer::connect): a server or a session holding a lock never keeps
// the worker past it.
constexpr int kConnectTimeoutSeconds = 5;
constexpr int kFirstRetrySeconds = 2;
constexpr int kLongestRetrySeconds = 15;
constexpr int kHeartbeatMs = 60'000;

QString conflictLine(const TeamConflict& c)
{
    const TriageTarget& t = c.local.target;
    const QString where = toQString(t.repo) % u" · " % toQString(t.job) % u" · "
                          % toQString(t.sha.shortSha())
                          % (t.test.empty() ? QString() : u" · " % toQString(t.test));
    const TeamChange& kept = c.remoteWon ? c.remote : c.local;
    const TeamChange& lost = c.remoteWon ? c.local : c.remote;
    return QObject::tr("%1: %2 '%3' by %4 kept over '%5' by %6 (newer)")
        .arg(where, toQString(teamFieldName(c.local.field)), toQString(kept.value),
             toQString(kept.author), toQString(lost.value), toQString(lost.author));
}

} // namespace

QString TeamView::summary() const
{
    switch (state) {
    case State::Off: return {};
    case State::Connecting: return QObject::tr("team: connecting…");
    case State::Connected:
        if (!error.isEmpty())
            return QObject::tr("team: not sent, %n change(s) waiting", nullptr,
                               static_cast<int>(unsent));
        return unsent > 0 ? QObject::tr("team: connected as %1, %n change(s) to send", nullptr,
                                        static_cast<int>(unsent))
                                .arg(user)
                          : QObject::tr("team: connected as %1").arg(user);
    case State::Offline:
        return QObject::tr("team: offline, %n change(s) waiting", nullptr,
                           static_cast<int>(unsent));
    }
    return {};
}

QString TeamView::details() const
{
    QStringList lines;
    if (!where.isEmpty())
        lines << QObject::tr("Team server: %1").arg(where);
    if (!user.isEmpty())
        lines << QObject::tr("Your changes are signed %1").arg(user);
    lines << QObject::tr("Unsent: %1").arg(unsent);
    lines << QObject::tr("Last sync: %1")
                 .arg(lastSyncMs > 0 ? QDateTime::fromMSecsSinceEpoch(lastSyncMs)
                                           .toLocalTime()
                                           .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                     : QObject::tr("never"));
    if (conflicts > 0)
        lines << QObject::tr("Conflicts listed: %1 (relayhud-cli team status shows them)")
                     .arg(conflicts);
    if (!skipped.isEmpty())
        lines << skipped;
    if (!error.isEmpty())
        lines << error;
    if (retryInSeconds > 0)
        lines << QObject::tr("Trying again in %1 s").arg(retryInSeconds);
    return lines.join(u'\n');
}

// Lives on the client's thread; every member is touched there only.
class TeamWorker : public QObject {
public:
    explicit TeamWorker(TeamClient* client)
        : m_client(client), m_soon(new QTimer(this)), m_retry(new QTimer(this)),
          m_heartbeat(new QTimer(this))
    {
        m_soon->setSingleShot(true);
        m_soon->setInterval(0); // a burst of writes syncs once
        m_retry->setSingleShot(true);
        m_heartbeat->setInterval(kHeartbeatMs);
        connect(m_soon, &QTimer::timeout, this, &TeamWorker::syncOnce);
        connect(m_retry, &QTimer::timeout, this, &TeamWorker::syncOnce);
        connect(m_heartbeat, &QTimer::timeout, this, &TeamWorker::syncOnce);
    }

    void begin(quint64 generation, std::string conninfo, std::string password,
               std::string cachePath)
    {
        end();
        m_generation = generation;
        m_conninfo = std::move(conninfo);
        m_password = std::move(password);
        if (m_cachePath != cachePath)
            m_cache.reset();
        m_cachePath = std::move(cachePath);
        m_retryDelay = kFirstRetrySeconds;
        TeamView connecting;
        connecting.state = TeamView::State::Connecting;
        publish(connecting);
        m_heartbeat->start();
        syncOnce();
    }

    void end()
    {
        m_soon->stop();
        m_retry->stop();
        m_heartbeat->stop();
        dropConnection();
        m_conninfo.clear();
        m_password.clear();
    }

    void requestSync()
    {
        if (!m_conninfo.empty())
            m_soon->start();
    }

private:
    void syncOnce()
    {
        if (m_conninfo.empty())
            return;
        if (!m_cache) {
            auto opened = Database::open(m_cachePath);
            if (!opened) {
                fail(TeamView::State::Offline, "cannot open the cache: " + opened.message());
                return;
            }
            m_cache = std::move(*opened);
        }
        if (!m_server && !connectServer())
            return;
        auto report = team::syncTeam(*m_cache, *m_server);
        if (!report) {
            // A refusal (rights, schema) on a live connection is not
            // "offline": the server answers and says no.
            if (m_server->connected())
                fail(TeamView::State::Connected, report.message());
            else
                lose(report.message());
            return;
        }
        m_retryDelay = kFirstRetrySeconds;
        // What came while we synced: our own push, or a colleague's that the
        // pull may have missed by a hair. Another round is cheap and sure.
        auto pending = m_server->takeNotifications();
        if (!pending) {
            lose(pending.message());
            return;
        }
        if (*pending > 0)
            m_soon->start();
        publish(viewOf(TeamView::State::Connected, {}));
        if (report->pulled.applied > 0 || !report->pulled.conflicts.empty()) {
            TeamArrival arrival;
            arrival.applied = static_cast<qint64>(report->pulled.applied);
            for (const std::string& author : report->pulled.authors)
                arrival.authors << toQString(author);
            for (const TeamConflict& c : report->pulled.conflicts)
                arrival.conflicts << conflictLine(c);
            const quint64 generation = m_generation;
            QMetaObject::invokeMethod(m_client, [client = m_client, generation, arrival] {
                client->arrive(generation, arrival);
            });
        }
    }

    bool connectServer()
    {
        auto server = team::TeamServer::connect(m_conninfo, kConnectTimeoutSeconds, m_password);
        if (!server) {
            fail(TeamView::State::Offline, server.message());
            return false;
        }
        if (auto listening = server->listen(); !listening) {
            fail(TeamView::State::Offline, listening.message());
            return false;
        }
        m_server.emplace(std::move(*server));
        m_notifier = new QSocketNotifier(static_cast<qintptr>(m_server->socket()),
                                         QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &TeamWorker::onReadable);
        return true;
    }

    void onReadable()
    {
        if (!m_server)
            return;
        auto woken = m_server->takeNotifications();
        if (!woken) {
            lose(woken.message());
            return;
        }
        if (*woken > 0)
            m_soon->start();
    }

    void dropConnection()
    {
        // The notifier watches the connection's socket: gone first.
        delete m_notifier;
        m_notifier = nullptr;
        m_server.reset();
    }

    // The connection broke: offline until a retry reaches the server.
    void lose(const std::string& why)
    {
        dropConnection();
        fail(TeamView::State::Offline, why);
    }

    void fail(TeamView::State state, const std::string& why)
    {
        const int wait = m_retryDelay;
        m_retryDelay = std::min(m_retryDelay * 2, kLongestRetrySeconds);
        m_retry->start(wait * 1000);
        TeamView view = viewOf(state, toQString(why));
        view.retryInSeconds = wait;
        publish(view);
    }

    TeamView viewOf(TeamView::State state, const QString& error)
    {
        TeamView view;
        view.state = state;
        view.error = error;
        if (m_server) {
            view.user = toQString(m_server->user());
            view.where = toQString(m_server->where());
        }
        if (m_cache)
            if (auto status = TeamStore(*m_cache).teamStatus(); status) {
                view.unsent = status->unsent;
                view.lastSyncMs = status->lastSyncMs;
                view.conflicts = status->conflicts;
                view.skipped = toQString(describeTeamSkips(status->skipped));
                if (view.where.isEmpty())
                    view.where = toQString(status->where);
            }
        return view;
    }

    void publish(const TeamView& view)
    {
        const quint64 generation = m_generation;
        QMetaObject::invokeMethod(
            m_client, [client = m_client, generation, view] { client->receive(generation, view); });
    }

    TeamClient* m_client;
    QTimer* m_soon;
    QTimer* m_retry;
    QTimer* m_heartbeat;
    QSocketNotifier* m_notifier = nullptr;
    std::optional<team::TeamServer> m_server;
    std::unique_ptr<Database> m_cache;
    std::string m_conninfo;
    std::string m_password;
    std::string m_cachePath;
    quint64 m_generation = 0;
    int m_retryDelay = kFirstRetrySeconds;
};

TeamClient::TeamClient(QObject* parent) : QObject(parent), m_worker(new TeamWorker(this))
{
    qRegisterMetaType<TeamView>();
    qRegisterMetaType<TeamArrival>();
    m_thread.setObjectName(QStringLiteral("team"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

TeamClient::~TeamClient()
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->end(); });
    m_thread.quit();
    m_thread.wait();
}

void TeamClient::start(const QString& conninfo, const std::string& password,
                       const QString& cachePath)
{
    m_conninfo = conninfo;
    m_password = password;
    m_cachePath = cachePath;
    const quint64 generation = ++m_generation;
    QMetaObject::invokeMethod(m_worker,
                              [worker = m_worker, generation, conninfo = conninfo.toStdString(),
                               password, cache = cachePath.toStdString()] {
                                  worker->begin(generation, conninfo, password, cache);
                              });
}

void TeamClient::stop()
{
    m_conninfo.clear();
    m_password.clear();
    ++m_generation;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->end(); });
    m_view = TeamView{};
    emit viewChanged(m_view);
}

void TeamClient::syncSoon()
{
    if (running())
        QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->requestSync(); });
}

void TeamClient::receive(quint64 generation, const TeamView& view)
{
    if (generation != m_generation)
        return; // from a link since stopped or restarted
    m_view = view;
    emit viewChanged(m_view);
}

void TeamClient::arrive(quint64 generation, const TeamArrival& arrival)
{
    if (generation == m_generation)
        emit changesArrived(arrival);
}

} // namespace relayhud::ui
