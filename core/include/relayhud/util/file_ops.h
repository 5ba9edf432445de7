#pragma once
// POSIX file plumbing shared by extraction and the content cache: owned file
// descriptors, temp files created next to their final name, and the
// write / fsync / rename sequence that keeps half-written files invisible.
#include "relayhud/util/result.h"

#include <ctime>
#include <string>
#include <string_view>
#include <utility>

namespace relayhud::artifacts {

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    void reset(int fd = -1);
    // Hands the descriptor over (to fdopen): this one no longer closes it.
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd = -1;
};

// strerror(err) as a std::string.
std::string errnoText(int err);

// Temp names start with this; scans skip them and stale ones are swept.
inline constexpr std::string_view kTempPrefix = ".relayhud-tmp-";
bool isTempName(std::string_view name);

// An open folder that is not a symlink (O_NOFOLLOW), for the *at() calls.
Result<UniqueFd> openDirectory(const std::string& path);

struct TempFile {
    UniqueFd fd;
    std::string name; // inside the folder it was created in
};
// A new, exclusive (O_EXCL, O_NOFOLLOW) temp file in the folder dirFd.
Result<TempFile> createTempAt(int dirFd, const std::string& dirForMessages);

Result<void> writeAll(int fd, std::string_view bytes, const std::string& what);

// fsyncs the temp file, then renames it over `name` in the same folder. On
// failure the temp file is removed.
Result<void> commitTempAt(int dirFd, TempFile& temp, const std::string& name,
                          const std::string& what);

// dir/name gets `bytes` atomically: temp file in dir, write, fsync, rename,
// fsync of dir. Readers see the old file or the new one, never a part.
Result<void> writeFileAtomic(const std::string& dir, const std::string& name,
                             std::string_view bytes);

// CLOCK_REALTIME with nanoseconds. The kernel's own "now" for file times is
// coarse (a scheduler tick), which would give equal times to uses a few
// milliseconds apart and blur the LRU order.
timespec preciseNow();
// Sets a path's access and modification times to `when` (no symlink follow).
bool setFileTime(const std::string& path, timespec when);

} // namespace relayhud::artifacts
