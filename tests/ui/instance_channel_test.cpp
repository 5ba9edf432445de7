// One instance per cache: a second process's arguments reach the running one
// over the local socket; with none running it says so; a socket file left by
// a crashed instance is taken over; a live one is not; junk is dropped.
#include "relayhud/ui/app/instance_channel.h"
#include "relayhud/ui/app/launcher.h"
#include "relayhud/ui/app/socket_trust.h"

#include "test_support.h"

#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <gmock/gmock.h>

#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace relayhud::ui;

namespace {

using relayhud::ui::test::kWaitMs;

// What a crashed instance leaves: a socket file nothing accepts on.
bool leaveStaleSocket(const QString& path)
{
    const QByteArray name = QFile::encodeName(path);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (static_cast<std::size_t>(name.size()) >= sizeof address.sun_path)
        return false;
    std::memcpy(address.sun_path, name.constData(), static_cast<std::size_t>(name.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const bool bound =
        fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0
        && ::listen(fd, 1) == 0;
    if (fd >= 0)
        ::close(fd); // no unlink: the file stays, as after a crash
    return bound && QFileInfo::exists(path);
}

class InstanceChannelTest : public ::testing::Test {
protected:
    QString socketPath() const { return m_dir.filePath(QStringLiteral("instance.sock")); }
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(InstanceChannelTest, ASecondInstanceHandsItsArgumentsToTheFirst)
{
    InstanceChannel first(socketPath());
    ASSERT_TRUE(first.listen()) << first.errorString().toStdString();
    QSignalSpy received(&first, &InstanceChannel::received);

    InstanceChannel second(socketPath());
    QSignalSpy forwarded(&second, &InstanceChannel::forwarded);
    QSignalSpy alone(&second, &InstanceChannel::alone);
    const QStringList arguments{QStringLiteral("relayhud://run/41000000123"),
                                QStringLiteral("/tmp/a log with spaces.txt:12"),
                                QStringLiteral("ünïcode")};
    second.forward(arguments);

    ASSERT_TRUE(forwarded.wait(kWaitMs));
    EXPECT_EQ(alone.count(), 0);
    ASSERT_EQ(received.count(), 1);
    EXPECT_EQ(received.first().first().toStringList(), arguments);
}

TEST_F(InstanceChannelTest, WithNoInstanceRunningTheSenderIsAlone)
{
    InstanceChannel lone(socketPath());
    QSignalSpy alone(&lone, &InstanceChannel::alone);
    QSignalSpy forwarded(&lone, &InstanceChannel::forwarded);
    lone.forward({QStringLiteral("relayhud://pr/1")});
    ASSERT_TRUE(alone.count() > 0 || alone.wait(kWaitMs));
    EXPECT_EQ(forwarded.count(), 0);
    EXPECT_FALSE(alone.first().first().toString().isEmpty());
}

TEST_F(InstanceChannelTest, AStaleSocketFromACrashIsRemovedAndTakenOver)
{
    ASSERT_TRUE(leaveStaleSocket(socketPath()));

    InstanceChannel restarted(socketPath());
    QSignalSpy alone(&restarted, &InstanceChannel::alone);
    restarted.forward({QStringLiteral("relayhud://run/1")});
    ASSERT_TRUE(alone.count() > 0 || alone.wait(kWaitMs));
    ASSERT_TRUE(restarted.listen()) << restarted.errorString().toStdString();
    EXPECT_TRUE(restarted.isListening());

    // And it now receives what the next one sends.
    QSignalSpy received(&restarted, &InstanceChannel::received);
    InstanceChannel next(socketPath());
    QSignalSpy forwarded(&next, &InstanceChannel::forwarded);
    next.forward({QStringLiteral("relayhud://sha/1a2b3c4")});
    ASSERT_TRUE(forwarded.wait(kWaitMs));
    ASSERT_EQ(received.count(), 1);
    EXPECT_EQ(received.first().first().toStringList(),
              QStringList{QStringLiteral("relayhud://sha/1a2b3c4")});
}

TEST_F(InstanceChannelTest, ALiveInstanceIsNeverDisplaced)
{
    InstanceChannel first(socketPath());
    ASSERT_TRUE(first.listen());
    InstanceChannel intruder(socketPath());
    EXPECT_FALSE(intruder.listen());
    EXPECT_THAT(intruder.errorString().toStdString(), ::testing::HasSubstr("another instance"));

    QSignalSpy received(&first, &InstanceChannel::received);
    InstanceChannel sender(socketPath());
    QSignalSpy forwarded(&sender, &InstanceChannel::forwarded);
    sender.forward({});
    ASSERT_TRUE(forwarded.wait(kWaitMs));
    EXPECT_EQ(received.count(), 1);
}

TEST_F(InstanceChannelTest, OversizedOrMalformedMessagesAreDropped)
{
    InstanceChannel first(socketPath());
    ASSERT_TRUE(first.listen());
    QSignalSpy received(&first, &InstanceChannel::received);
    const auto send = [&](const QByteArray& bytes) {
        QLocalSocket socket;
        socket.connectToServer(socketPath());
        EXPECT_TRUE(socket.waitForConnected(kWaitMs));
        socket.write(bytes);
        socket.flush();
        // The instance hangs up without an answer.
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return socket.state() == QLocalSocket::UnconnectedState; }, kWaitMs));
        EXPECT_EQ(socket.bytesAvailable(), 0);
    };
    QByteArray huge(4, '\0');
    qToBigEndian(static_cast<quint32>(InstanceChannel::kMaxMessageBytes + 1), huge.data());
    send(huge);
    const QByteArray object = "{\"a\":1}";
    QByteArray notAList(4, '\0');
    qToBigEndian(static_cast<quint32>(object.size()), notAList.data());
    send(notAList + object);
    EXPECT_EQ(received.count(), 0);
}

TEST(InstanceChannelName, OnePerCacheAndUserInAFolderOfTheUsersOwn)
{
    const QByteArray savedRuntime = qgetenv("XDG_RUNTIME_DIR");
    const QByteArray savedTmp = qgetenv("TMPDIR");
    QTemporaryDir runtime; // 0700, this user's
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime.path()));
    const QString a = *InstanceChannel::serverNameFor(QStringLiteral("/home/me/a.sqlite"));
    EXPECT_EQ(a, *InstanceChannel::serverNameFor(QStringLiteral("/home/me/./a.sqlite")));
    EXPECT_NE(a, *InstanceChannel::serverNameFor(QStringLiteral("/home/me/b.sqlite")));
    EXPECT_TRUE(a.startsWith(runtime.path() + QStringLiteral("/relayhud-"))) << a.toStdString();
    // Without XDG_RUNTIME_DIR: a folder of the user's own in the temporary
    // directory, never a name in the shared /tmp itself.
    qunsetenv("XDG_RUNTIME_DIR");
    QTemporaryDir tmp;
    qputenv("TMPDIR", QFile::encodeName(tmp.path()));
    const auto fallback = InstanceChannel::serverNameFor(QStringLiteral("/home/me/a.sqlite"));
    ASSERT_TRUE(fallback) << fallback.message();
    const QString folder = tmp.path() + QStringLiteral("/relayhud-%1").arg(::getuid());
    EXPECT_TRUE(fallback->startsWith(folder + QStringLiteral("/relayhud-")))
        << fallback->toStdString();
    EXPECT_EQ(privateFolderProblem(folder, ::getuid()), QString()); // 0700, this user's
    if (savedTmp.isEmpty())
        qunsetenv("TMPDIR");
    else
        qputenv("TMPDIR", savedTmp);
    if (!savedRuntime.isEmpty())
        qputenv("XDG_RUNTIME_DIR", savedRuntime);
}

namespace {

// A link clicked while the demo runs, or a second `--demo LINK`, reaches the
// demo's window instead of opening another (issue 36): the demo listens on a
// socket of its own, in the same private folder as the caches' sockets.
class DemoLinks : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_savedRuntime = qgetenv("XDG_RUNTIME_DIR");
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
    }
    void TearDown() override
    {
        if (m_savedRuntime.isEmpty())
            qunsetenv("XDG_RUNTIME_DIR");
        else
            qputenv("XDG_RUNTIME_DIR", m_savedRuntime);
    }
    // Starts a launcher with `link` and returns what the running demo received.
    QStringList launch(LaunchOptions::Mode mode, const QString& link)
    {
        const auto name = InstanceChannel::demoServerName();
        EXPECT_TRUE(name) << name.message();
        InstanceChannel demo(*name);
        EXPECT_TRUE(demo.listen()) << demo.errorString().toStdString();
        QSignalSpy received(&demo, &InstanceChannel::received);
        LaunchOptions options;
        options.mode = mode;
        options.cachePath = m_runtime.filePath(QStringLiteral("mine.sqlite"));
        options.openPaths = {link};
        Launcher launcher(options);
        launcher.start();
        EXPECT_TRUE(received.wait(kWaitMs));
        EXPECT_EQ(launcher.window(), nullptr) << "no second window";
        return received.isEmpty() ? QStringList{} : received.takeFirst().at(0).toStringList();
    }
    QTemporaryDir m_runtime;
    QByteArray m_savedRuntime;
};

TEST_F(DemoLinks, TheDemosSocketIsItsOwnInTheUsersFolder)
{
    const auto demo = InstanceChannel::demoServerName();
    ASSERT_TRUE(demo) << demo.message();
    EXPECT_EQ(*demo, m_runtime.filePath(QStringLiteral("relayhud-demo.sock")));
    EXPECT_NE(*demo, *InstanceChannel::serverNameFor(m_runtime.filePath(QStringLiteral("a"))));
}

TEST_F(DemoLinks, ALinkWithNoWindowOnItsCacheReachesTheRunningDemo)
{
    EXPECT_EQ(launch(LaunchOptions::Mode::Normal, QStringLiteral("relayhud://pr/162177")),
              QStringList{QStringLiteral("relayhud://pr/162177")});
}

TEST_F(DemoLinks, ASecondDemoHandsItsLinkToTheFirst)
{
    EXPECT_EQ(launch(LaunchOptions::Mode::Demo, QStringLiteral("relayhud://sha/39678f4b")),
              QStringList{QStringLiteral("relayhud://sha/39678f4b")});
}

} // namespace
