#include "relayhud/ui/app/socket_trust.h"

#include <QFile>

#include <cerrno>
#include <cstring>

#include <sys/socket.h>
#include <sys/stat.h>

namespace relayhud::ui {

namespace {

QString errnoText(int err) { return QString::fromLocal8Bit(std::strerror(err)); }

} // namespace

QString privateFolderProblem(const QString& path, uid_t uid)
{
    struct stat info {};
    if (::lstat(QFile::encodeName(path).constData(), &info) != 0)
        return QStringLiteral("%1: %2").arg(path, errnoText(errno));
    if (S_ISLNK(info.st_mode))
        return QStringLiteral("%1 is a symlink, not a folder of your own").arg(path);
    if (!S_ISDIR(info.st_mode))
        return QStringLiteral("%1 is not a folder").arg(path);
    if (info.st_uid != uid)
        return QStringLiteral("%1 belongs to uid %2, not to you (uid %3)")
            .arg(path)
            .arg(info.st_uid)
            .arg(uid);
    if ((info.st_mode & 07777) != 0700)
        return QStringLiteral("%1 has mode %2, not 0700")
            .arg(path)
            .arg(info.st_mode & 07777, 4, 8, QLatin1Char('0'));
    return {};
}

Result<QString> privateSocketFolder(const QString& runtimeDir, const QString& tempDir, uid_t uid)
{
    if (!runtimeDir.isEmpty() && privateFolderProblem(runtimeDir, uid).isEmpty())
        return runtimeDir;
    const QString folder = tempDir + QStringLiteral("/relayhud-") + QString::number(uid);
    // 0700 from the start (mkdir is subject to the umask, which only removes bits).
    if (::mkdir(QFile::encodeName(folder).constData(), 0700) != 0 && errno != EEXIST)
        return makeError(
            QStringLiteral("cannot make %1: %2").arg(folder, errnoText(errno)).toStdString());
    if (const QString problem = privateFolderProblem(folder, uid); !problem.isEmpty())
        return makeError(problem.toStdString());
    return folder;
}

std::optional<uid_t> peerUid(qintptr socketDescriptor)
{
    if (socketDescriptor < 0)
        return std::nullopt;
    ucred credentials{};
    socklen_t length = sizeof credentials;
    if (::getsockopt(static_cast<int>(socketDescriptor), SOL_SOCKET, SO_PEERCRED, &credentials,
                     &length)
            != 0
        || length != sizeof credentials)
        return std::nullopt;
    return credentials.uid;
}

QString peerProblem(std::optional<uid_t> peer, uid_t uid, const QString& name)
{
    if (!peer)
        return QStringLiteral("refused the instance socket %1: cannot tell who holds it").arg(name);
    if (*peer != uid)
        return QStringLiteral("refused the instance socket %1: it is held by uid %2, not by you "
                              "(uid %3)")
            .arg(name)
            .arg(*peer)
            .arg(uid);
    return {};
}

} // namespace relayhud::ui
