// The instance socket trusts no one but its user (issue 35). In the shared
// /tmp another local user could take the socket's name first, receive every
// link and path the user opened, and keep the user's window from appearing.
// Now: the socket's folder must be the user's own (0700, not a link); a
// socket held by another uid gets nothing and is refused, and the window
// opens on its own; the instance hears no other uid. Another uid is `nobody`,
// which needs root (CI runs as root); elsewhere those cases skip.
#include "relayhud/ui/app/instance_channel.h"
#include "relayhud/ui/app/instance_frame.h"
#include "relayhud/ui/app/socket_trust.h"

#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <gmock/gmock.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace relayhud::ui;
using ::testing::HasSubstr;

namespace {

using relayhud::ui::test::kWaitMs;

struct Account {
    uid_t uid;
    gid_t gid;
};

// `nobody`, when this process may become it.
std::optional<Account> nobody()
{
    const passwd* entry = ::getpwnam("nobody");
    if (::geteuid() != 0 || !entry)
        return std::nullopt;
    return Account{entry->pw_uid, entry->pw_gid};
}

sockaddr_un addressOf(const QString& path)
{
    const QByteArray name = QFile::encodeName(path);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name.constData(),
                std::min(sizeof address.sun_path - 1, static_cast<std::size_t>(name.size())));
    return address;
}

// Bytes that arrive on `fd` until it hangs up or `ms` pass.
long drain(int fd, int ms)
{
    long total = 0;
    char buffer[4096];
    pollfd wait{fd, POLLIN, 0};
    while (::poll(&wait, 1, ms) > 0) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        total += n;
    }
    return total;
}

// Runs `body` in a child process as `as` (system calls only: it is forked
// from a threaded process) and reports what it returns on a pipe.
class AsOtherUser {
public:
    template <class Body>
    AsOtherUser(Account as, Body body)
    {
        EXPECT_EQ(::pipe(m_ready), 0);
        EXPECT_EQ(::pipe(m_result), 0);
        m_pid = ::fork();
        if (m_pid != 0)
            return;
        if (::setgroups(0, nullptr) != 0 || ::setgid(as.gid) != 0 || ::setuid(as.uid) != 0)
            ::_exit(3);
        const long result = body(m_ready[1]);
        (void)!::write(m_result[1], &result, sizeof result);
        ::_exit(0);
    }
    ~AsOtherUser()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        for (int fd : {m_ready[0], m_ready[1], m_result[0], m_result[1]})
            ::close(fd);
    }
    bool waitReady() const
    {
        char byte = 0;
        pollfd wait{m_ready[0], POLLIN, 0};
        return ::poll(&wait, 1, kWaitMs) == 1 && ::read(m_ready[0], &byte, 1) == 1;
    }
    // What `body` returned, once the child is done (events run meanwhile).
    std::optional<long> result()
    {
        long value = -1;
        pollfd wait{m_result[0], POLLIN, 0};
        if (!QTest::qWaitFor([&] { return ::poll(&wait, 1, 0) == 1; }, kWaitMs)
            || ::read(m_result[0], &value, sizeof value) != sizeof value)
            return std::nullopt;
        return value;
    }

private:
    pid_t m_pid = -1;
    int m_ready[2] = {-1, -1};
    int m_result[2] = {-1, -1};
};

// A folder both this process and `nobody` may write in: a stand-in for the
// shared /tmp.
class SharedDir {
public:
    SharedDir() { ::chmod(QFile::encodeName(m_dir.path()).constData(), 01777); }
    QString filePath(const QString& name) const { return m_dir.filePath(name); }
    QString path() const { return m_dir.path(); }

private:
    QTemporaryDir m_dir;
};

} // namespace

TEST(SocketTrust, OnlyAFolderOfTheUsersOwnWithMode0700HoldsTheSocket)
{
    const uid_t me = ::getuid();
    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("relayhud-%1").arg(me));
    // Made 0700 when missing.
    auto made = privateSocketFolder({}, tmp.path(), me);
    ASSERT_TRUE(made) << made.message();
    EXPECT_EQ(*made, folder);
    EXPECT_EQ(privateFolderProblem(folder, me), QString());
    // Someone made it first, open to all: refused, and not "fixed".
    ASSERT_EQ(::chmod(QFile::encodeName(folder).constData(), 0777), 0);
    auto open = privateSocketFolder({}, tmp.path(), me);
    ASSERT_FALSE(open);
    EXPECT_EQ(open.message(),
              QString(folder + QStringLiteral(" has mode 0777, not 0700")).toStdString());
    // A symlink to a good folder: refused (lstat).
    QDir(folder).removeRecursively();
    QTemporaryDir elsewhere;
    ASSERT_TRUE(QFile::link(elsewhere.path(), folder));
    EXPECT_THAT(privateSocketFolder({}, tmp.path(), me).message(), HasSubstr("is a symlink"));
    // $XDG_RUNTIME_DIR that is not the user's own is passed over.
    QFile::remove(folder);
    ASSERT_EQ(::chmod(QFile::encodeName(elsewhere.path()).constData(), 0755), 0);
    EXPECT_EQ(*privateSocketFolder(elsewhere.path(), tmp.path(), me), folder);
    ASSERT_EQ(::chmod(QFile::encodeName(elsewhere.path()).constData(), 0700), 0);
    EXPECT_EQ(*privateSocketFolder(elsewhere.path(), tmp.path(), me), elsewhere.path());
}

TEST(SocketTrust, AFolderAnotherUserOwnsIsRefused)
{
    const auto other = nobody();
    if (!other)
        GTEST_SKIP() << "needs root to make a folder of nobody's";
    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("relayhud-%1").arg(::getuid()));
    ASSERT_EQ(::mkdir(QFile::encodeName(folder).constData(), 0700), 0);
    ASSERT_EQ(::chown(QFile::encodeName(folder).constData(), other->uid, other->gid), 0);
    auto squatted = privateSocketFolder({}, tmp.path(), ::getuid());
    ASSERT_FALSE(squatted);
    EXPECT_EQ(squatted.message(), QStringLiteral("%1 belongs to uid %2, not to you (uid %3)")
                                      .arg(folder)
                                      .arg(other->uid)
                                      .arg(::getuid())
                                      .toStdString());
}

TEST(SocketTrust, APeerOfAnotherUidOrOfNoKnownUidIsRefused)
{
    EXPECT_EQ(peerProblem(1000u, 1000u, QStringLiteral("/run/user/1000/x.sock")), QString());
    EXPECT_EQ(peerProblem(1001u, 1000u, QStringLiteral("/tmp/x.sock")),
              QStringLiteral("refused the instance socket /tmp/x.sock: it is held by uid 1001, "
                             "not by you (uid 1000)"));
    EXPECT_THAT(peerProblem(std::nullopt, 1000u, QStringLiteral("/tmp/x.sock")).toStdString(),
                HasSubstr("cannot tell who holds it"));
    EXPECT_FALSE(peerUid(-1).has_value());
}

// The squat of the issue, end to end: another user listens on the name first.
// The sender checks the owner before a byte goes out, and is alone.
TEST(SocketTrust, ASocketSquattedByAnotherUidGetsNothingAndIsRefused)
{
    const auto other = nobody();
    if (!other)
        GTEST_SKIP() << "needs root to listen as nobody";
    SharedDir shared;
    const QString path = shared.filePath(QStringLiteral("relayhud-squatted.sock"));
    const sockaddr_un address = addressOf(path);
    AsOtherUser squatter(*other, [&address](int ready) -> long {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0
            || ::listen(fd, 4) != 0 || ::write(ready, "r", 1) != 1)
            return -2;
        pollfd wait{fd, POLLIN, 0};
        if (::poll(&wait, 1, kWaitMs) != 1)
            return -3;
        const int client = ::accept(fd, nullptr, nullptr);
        return client < 0 ? -4 : drain(client, 3000); // what it heard
    });
    ASSERT_TRUE(squatter.waitReady());

    InstanceChannel sender(path);
    QSignalSpy refused(&sender, &InstanceChannel::refused);
    QSignalSpy alone(&sender, &InstanceChannel::alone);
    QSignalSpy forwarded(&sender, &InstanceChannel::forwarded);
    sender.forward({QStringLiteral("relayhud://log?path=/home/me/secret.log"),
                    QStringLiteral("/home/me/private/report.xml")});
    ASSERT_TRUE(alone.count() > 0 || alone.wait(kWaitMs));
    EXPECT_EQ(forwarded.count(), 0);
    ASSERT_EQ(refused.count(), 1);
    EXPECT_EQ(refused.first().first().toString(),
              QStringLiteral("refused the instance socket %1: it is held by uid %2, not by you "
                             "(uid %3)")
                  .arg(path)
                  .arg(other->uid)
                  .arg(::getuid()));
    EXPECT_EQ(squatter.result(), std::optional<long>(0)); // not one byte of the links
}

// The other way: another user's process writes to the instance, which must
// not act on it (nor answer).
TEST(SocketTrust, TheInstanceDoesNotHearAnotherUid)
{
    const auto other = nobody();
    if (!other)
        GTEST_SKIP() << "needs root to connect as nobody";
    SharedDir shared;
    const QString path = shared.filePath(QStringLiteral("relayhud-instance.sock"));
    InstanceChannel instance(path);
    ASSERT_TRUE(instance.listen()) << instance.errorString().toStdString();
    ASSERT_EQ(::chmod(QFile::encodeName(path).constData(), 0777), 0); // as a careless setup might
    QSignalSpy received(&instance, &InstanceChannel::received);
    const sockaddr_un address = addressOf(path);
    const QByteArray frame = instance_frame::encode({QStringLiteral("relayhud://run/1")});
    AsOtherUser intruder(*other, [&](int) -> long {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
            return -2;
        if (::write(fd, frame.constData(), static_cast<std::size_t>(frame.size())) != frame.size())
            return -3;
        return drain(fd, 3000); // the answer byte, if any
    });
    EXPECT_EQ(intruder.result(), std::optional<long>(0));
    EXPECT_EQ(received.count(), 0);

    // This user is still heard.
    InstanceChannel sender(path);
    QSignalSpy forwarded(&sender, &InstanceChannel::forwarded);
    sender.forward({QStringLiteral("relayhud://run/2")});
    ASSERT_TRUE(forwarded.wait(kWaitMs));
    EXPECT_EQ(received.count(), 1);
}

TEST(InstanceFrame, ArrivesInAnyPiecesAndRoundTrips)
{
    const QStringList arguments{QStringLiteral("relayhud://run/41000000123"),
                                QStringLiteral("/tmp/a \"quoted\" \\\\ log.txt:12"),
                                QStringLiteral("ünïcode"), QString()};
    const QByteArray frame = instance_frame::encode(arguments);
    for (qsizetype n = 0; n < frame.size(); ++n)
        EXPECT_EQ(instance_frame::decode(frame.first(n)).state,
                  instance_frame::Decoded::State::NeedMore)
            << n;
    const auto whole = instance_frame::decode(QByteArray(frame + "trailing"));
    ASSERT_EQ(whole.state, instance_frame::Decoded::State::Complete) << whole.why.toStdString();
    EXPECT_EQ(whole.arguments, arguments);
    EXPECT_EQ(whole.consumed, frame.size());
}

TEST(InstanceFrame, HugeLengthsNestingAndJunkAreRefusedInOneLine)
{
    const auto refusal = [](const QByteArray& bytes) {
        const auto decoded = instance_frame::decode(bytes);
        EXPECT_EQ(decoded.state, instance_frame::Decoded::State::Refused)
            << bytes.toHex().left(40).toStdString();
        EXPECT_FALSE(decoded.why.contains(u'\n'));
        return decoded.why.toStdString();
    };
    const auto framed = [](const QByteArray& body) -> QByteArray {
        QByteArray head(4, '\0');
        qToBigEndian(static_cast<quint32>(body.size()), head.data());
        return head + body;
    };
    // The header alone is enough to refuse 4 GiB: nothing is waited for.
    EXPECT_EQ(refusal(QByteArray("\xff\xff\xff\xff", 4)),
              "a message of 4294967295 bytes; at most 1048576 are taken");
    EXPECT_THAT(refusal(framed(QByteArray(100000, '[') + QByteArray(100000, ']'))),
                HasSubstr("nests"));
    EXPECT_THAT(refusal(framed("[\"a\",[\"b\"]]")), HasSubstr("nests"));
    EXPECT_THAT(refusal(framed("{\"a\":1}")), HasSubstr("not a JSON array"));
    EXPECT_THAT(refusal(framed("[1]")), HasSubstr("not a string"));
    EXPECT_THAT(refusal(framed("[\"a\"")), HasSubstr("not a JSON array"));
    QByteArray many = "[";
    for (int i = 0; i <= instance_frame::kMaxArguments; ++i)
        many += i ? ",\"\"" : "\"\"";
    EXPECT_THAT(refusal(framed(many + "]")), HasSubstr("at most 4096 are taken"));
    // Brackets inside a string are text, not nesting.
    const auto text = instance_frame::decode(framed("[\"[[[{\\\"]]\"]"));
    ASSERT_EQ(text.state, instance_frame::Decoded::State::Complete) << text.why.toStdString();
    EXPECT_EQ(text.arguments, QStringList{QStringLiteral("[[[{\"]]")});
}
