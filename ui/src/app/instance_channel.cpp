#include "relayhud/ui/app/instance_channel.h"

#include "relayhud/ui/app/socket_trust.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>

#include <unistd.h>

namespace relayhud::ui {

namespace {

constexpr char kTaken = '1';
constexpr int kProbeMs = 500;
constexpr int kReadMs = 5000; // a sender that stops mid-message is dropped

// True when an instance accepts connections under `name`.
bool answers(const QString& name)
{
    QLocalSocket probe;
    probe.connectToServer(name);
    const bool live = probe.waitForConnected(kProbeMs);
    probe.abort();
    return live;
}

// "<private folder>/relayhud-<key>.sock".
Result<QString> socketIn(const QString& key)
{
    auto folder =
        privateSocketFolder(qEnvironmentVariable("XDG_RUNTIME_DIR"), QDir::tempPath(), ::getuid());
    if (!folder)
        return folder.error();
    return QString(*folder % u"/relayhud-" % key % u".sock");
}

} // namespace

InstanceChannel::InstanceChannel(QString serverName, QObject* parent)
    : QObject(parent), m_name(std::move(serverName))
{
}

InstanceChannel::~InstanceChannel()
{
    if (m_server)
        m_server->close(); // removes the socket file
}

Result<QString> InstanceChannel::serverNameFor(const QString& cachePath)
{
    const QFileInfo info(cachePath);
    const QString path =
        info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath());
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha256).toHex().left(16));
    return socketIn(hash);
}

Result<QString> InstanceChannel::demoServerName() { return socketIn(QStringLiteral("demo")); }

void InstanceChannel::forward(const QStringList& arguments, int timeoutMs)
{
    m_forwardDone = false;
    m_client = new QLocalSocket(this);
    m_clientTimeout = new QTimer(this);
    m_clientTimeout->setSingleShot(true);
    connect(m_clientTimeout, &QTimer::timeout, this, [this, timeoutMs] {
        finishForward(false, tr("the running instance did not answer within %1 ms").arg(timeoutMs));
    });
    connect(m_client, &QLocalSocket::connected, this,
            [this, message = instance_frame::encode(arguments)] { onConnected(message); });
    connect(m_client, &QLocalSocket::readyRead, this, [this] {
        if (m_client->read(1) == QByteArray(1, kTaken))
            finishForward(true, {});
    });
    connect(m_client, &QLocalSocket::errorOccurred, this, [this] {
        // The answer may come with the hang-up that follows it.
        const bool taken =
            m_client->bytesAvailable() > 0 && m_client->read(1) == QByteArray(1, kTaken);
        finishForward(taken, m_client->errorString());
    });
    m_clientTimeout->start(timeoutMs);
    m_client->connectToServer(m_name);
}

// Nothing is sent to a socket another user holds.
void InstanceChannel::onConnected(const QByteArray& message)
{
    const QString problem = peerProblem(peerUid(m_client->socketDescriptor()), ::getuid(), m_name);
    if (problem.isEmpty()) {
        m_client->write(message);
        return;
    }
    emit refused(problem);
    finishForward(false, problem);
}

void InstanceChannel::finishForward(bool taken, const QString& why)
{
    if (m_forwardDone)
        return; // the first outcome stands (a hang-up follows every answer)
    m_forwardDone = true;
    m_clientTimeout->stop();
    m_client->disconnect(this);
    m_client->abort();
    m_client->deleteLater();
    m_client = nullptr;
    if (taken)
        emit forwarded();
    else
        emit alone(why);
}

bool InstanceChannel::listen()
{
    if (!m_server) {
        m_server = new QLocalServer(this);
        m_server->setSocketOptions(QLocalServer::UserAccessOption);
        connect(m_server, &QLocalServer::newConnection, this, &InstanceChannel::onNewConnection);
    }
    // A live instance keeps its socket. QLocalServer would take the name over
    // (it binds elsewhere and renames), so ask first.
    if (answers(m_name)) {
        m_error = tr("another instance is listening on %1").arg(m_name);
        return false;
    }
    QLocalServer::removeServer(m_name); // a file left by a crash, if any
    if (m_server->listen(m_name))
        return true;
    m_error = m_server->errorString();
    return false;
}

bool InstanceChannel::isListening() const { return m_server && m_server->isListening(); }

void InstanceChannel::onNewConnection()
{
    while (QLocalSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        // Only this user's own processes are heard.
        if (!peerProblem(peerUid(socket->socketDescriptor()), ::getuid(), m_name).isEmpty()) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readMessage(socket); });
        QTimer::singleShot(kReadMs, socket, [socket] { socket->abort(); });
        readMessage(socket); // it may have written before we accepted
    }
}

void InstanceChannel::readMessage(QLocalSocket* socket)
{
    const QByteArray buffered = socket->peek(socket->bytesAvailable());
    const instance_frame::Decoded message = instance_frame::decode(buffered);
    if (message.state == instance_frame::Decoded::State::NeedMore)
        return;
    if (message.state == instance_frame::Decoded::State::Refused) {
        socket->abort();
        return;
    }
    socket->read(message.consumed);
    socket->write(QByteArray(1, kTaken));
    socket->flush();
    socket->disconnectFromServer();
    emit received(message.arguments);
}

} // namespace relayhud::ui
