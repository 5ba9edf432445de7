#include "relayhud/ui/app/instance_channel.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>
#include <QtEndian>

#include <optional>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace relayhud::ui {

namespace {

constexpr char kTaken = '1';
constexpr int kProbeMs = 500;
constexpr int kReadMs = 5000; // a sender that stops mid-message is dropped

QByteArray frame(const QStringList& arguments)
{
    const QByteArray body =
        QJsonDocument(QJsonArray::fromStringList(arguments)).toJson(QJsonDocument::Compact);
    QByteArray out(4, '\0');
    qToBigEndian(static_cast<quint32>(body.size()), out.data());
    return out + body;
}

// The arguments, or nullopt for anything but a JSON array of strings.
std::optional<QStringList> arguments(const QByteArray& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isArray())
        return std::nullopt;
    QStringList out;
    for (const QJsonValue& value : doc.array()) {
        if (!value.isString())
            return std::nullopt;
        out << value.toString();
    }
    return out;
}

QString userTag()
{
#ifdef Q_OS_UNIX
    return QString::number(::getuid());
#else
    return qEnvironmentVariable("USERNAME");
#endif
}

// True when an instance accepts connections under `name`.
bool answers(const QString& name)
{
    QLocalSocket probe;
    probe.connectToServer(name);
    const bool live = probe.waitForConnected(kProbeMs);
    probe.abort();
    return live;
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

QString InstanceChannel::serverNameFor(const QString& cachePath)
{
    const QFileInfo info(cachePath);
    const QString path =
        info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath());
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha256).toHex().left(16));
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isDir())
        return runtime % u"/relayhud-" % hash % u".sock";
    return u"relayhud-" % userTag() % u'-' % hash;
}

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
            [this, message = frame(arguments)] { m_client->write(message); });
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
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readMessage(socket); });
        QTimer::singleShot(kReadMs, socket, [socket] { socket->abort(); });
        readMessage(socket); // it may have written before we accepted
    }
}

void InstanceChannel::readMessage(QLocalSocket* socket)
{
    if (socket->bytesAvailable() < 4)
        return;
    const QByteArray head = socket->peek(4);
    const quint32 size = qFromBigEndian<quint32>(head.constData());
    if (size > kMaxMessageBytes) {
        socket->abort();
        return;
    }
    if (socket->bytesAvailable() < 4 + static_cast<qint64>(size))
        return;
    socket->read(4);
    const std::optional<QStringList> taken = arguments(socket->read(size));
    if (!taken) {
        socket->abort();
        return;
    }
    socket->write(QByteArray(1, kTaken));
    socket->flush();
    socket->disconnectFromServer();
    emit received(*taken);
}

} // namespace relayhud::ui
