#pragma once
// One window per cache and user: a second `relayhud` (a link clicked in a
// browser, a path from a shell) hands its arguments to the running instance
// over a local socket and exits, and the running one raises its window and
// opens them. The socket's name comes from the cache path, so two caches
// still run side by side.
//
// The message is a 4-byte big-endian length and a JSON array of strings
// (app/instance_frame.h); the running instance answers one byte once it has
// taken them, so the sender knows before it exits. Neither end trusts another
// user (app/socket_trust.h): the sender checks who holds the socket before it
// sends a byte, the instance who sent before it acts.
#include "relayhud/ui/app/instance_frame.h"
#include "relayhud/util/result.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QLocalServer;
class QLocalSocket;
class QTimer;

namespace relayhud::ui {

class InstanceChannel : public QObject {
    Q_OBJECT
public:
    explicit InstanceChannel(QString serverName, QObject* parent = nullptr);
    ~InstanceChannel() override;

    // This user's socket for the instance that shows `cachePath`, in a
    // folder of the user's own (privateSocketFolder: $XDG_RUNTIME_DIR, or
    // <tmp>/relayhud-<uid>); an error when there is none to trust.
    static Result<QString> serverNameFor(const QString& cachePath);
    // This user's socket for the running demo (whose cache is a fresh
    // temporary file no link can name): links reach it when no window shows
    // the user's own cache.
    static Result<QString> demoServerName();
    const QString& serverName() const { return m_name; }

    // Asks a running instance to take `arguments`: forwarded() once it has
    // them, alone(why) when none takes them within `timeoutMs`, refused(why)
    // and then alone(why) when another user holds the socket (nothing is
    // sent). Needs an event loop.
    void forward(const QStringList& arguments, int timeoutMs = 3000);

    // Becomes the instance others forward to. A socket file left by a crashed
    // instance (nothing accepts on it) is removed first; a live one is left
    // alone. False, with errorString(), when it cannot listen.
    bool listen();
    bool isListening() const;
    QString errorString() const { return m_error; }

    static constexpr qint64 kMaxMessageBytes = instance_frame::kMaxBodyBytes;

signals:
    void forwarded();
    void alone(const QString& why);
    void refused(const QString& why);
    void received(const QStringList& arguments);

private:
    void finishForward(bool taken, const QString& why);
    void onConnected(const QByteArray& message);
    void onNewConnection();
    void readMessage(QLocalSocket* socket);

    QString m_name;
    QLocalServer* m_server = nullptr;
    QLocalSocket* m_client = nullptr;
    QTimer* m_clientTimeout = nullptr;
    QString m_error;
    bool m_forwardDone = false;
};

} // namespace relayhud::ui
