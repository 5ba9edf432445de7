#pragma once
// Whom the instance socket (app/instance_channel.h) trusts: only the user who
// runs it. The socket lives in a folder of the user's own (XDG_RUNTIME_DIR,
// or <tmp>/relayhud-<uid> made 0700), checked before use, and each end asks
// the kernel who is at the other (SO_PEERCRED) before it sends or acts: in
// the shared /tmp, another local user who took the name first would receive
// every link and path the user opens, and the user's window would never show.
#include "relayhud/util/result.h"

#include <QString>

#include <optional>

#include <sys/types.h>

namespace relayhud::ui {

// Why `path` cannot hold this user's socket, or empty when it can: it must be
// a folder, not a symlink (lstat), owned by `uid`, mode exactly 0700.
QString privateFolderProblem(const QString& path, uid_t uid);

// The folder for `uid`'s instance sockets: `runtimeDir` ($XDG_RUNTIME_DIR)
// when it passes privateFolderProblem, else `tempDir`/relayhud-<uid>, created
// 0700 if missing and checked the same way. An error (one line) when that
// one is not the user's own: someone else made it first.
Result<QString> privateSocketFolder(const QString& runtimeDir, const QString& tempDir, uid_t uid);

// The uid of the process at the other end of a connected local socket, from
// the kernel (SO_PEERCRED); nullopt when it cannot say.
std::optional<uid_t> peerUid(qintptr socketDescriptor);

// Why the peer `peer` of the socket `name` is not trusted by `uid`, or empty
// when it is (the same user).
QString peerProblem(std::optional<uid_t> peer, uid_t uid, const QString& name);

} // namespace relayhud::ui
