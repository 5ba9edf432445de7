#include "sim_faults.h"

#include "sim_random.h"

#include <arpa/inet.h>
#include <charconv>
#include <fcntl.h>
#include <filesystem>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace relayhud::sim {
namespace {

// Independent draws per fault, so raising one rate leaves the others' picks
// unchanged.
double draw(const FaultConfig& config, std::uint64_t request, std::uint64_t salt)
{
    SplitMix64 rng(mixSeed({config.seed, request, salt}));
    return rng.unit();
}

std::string htmlPage(int status, const std::string& reason)
{
    const std::string title = std::to_string(status) + " " + reason;
    return "<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title
           + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
}

int portOf(const sockaddr_storage& address)
{
    if (address.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
    if (address.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
    return -1;
}

bool isConnection(int fd, int localPort, int remotePort)
{
    sockaddr_storage local{};
    sockaddr_storage peer{};
    socklen_t localLength = sizeof local;
    socklen_t peerLength = sizeof peer;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &localLength) != 0
        || getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peerLength) != 0)
        return false;
    return portOf(local) == localPort && portOf(peer) == remotePort;
}

} // namespace

void FaultInjector::configure(const FaultConfig& config)
{
    std::lock_guard lock(m_mutex);
    m_config = config;
}

FaultConfig FaultInjector::config() const
{
    std::lock_guard lock(m_mutex);
    return m_config;
}

FaultKind FaultInjector::decide(std::uint64_t requestNumber) const
{
    return decide(config(), requestNumber);
}

FaultKind FaultInjector::decide(const FaultConfig& config, std::uint64_t requestNumber)
{
    if (draw(config, requestNumber, 1) < config.dropRate)
        return FaultKind::Drop;
    if (config.tooManyEvery > 0
        && requestNumber % static_cast<std::uint64_t>(config.tooManyEvery) == 0)
        return FaultKind::TooMany;
    if (draw(config, requestNumber, 2) < config.errorRate)
        return FaultKind::Error;
    if (draw(config, requestNumber, 3) < config.truncateRate)
        return FaultKind::Truncate;
    return FaultKind::None;
}

ApiResponse faultResponse(FaultKind kind, bool html)
{
    const bool tooMany = kind == FaultKind::TooMany;
    const int status = tooMany ? 429 : 500;
    const std::string reason = tooMany ? "Too Many Requests" : "Internal Server Error";
    ApiResponse out =
        html ? ApiResponse{status, htmlPage(status, reason), "text/html", {}}
             : jsonError(status, tooMany ? "Rate limit exceeded" : "Internal Server Error");
    if (tooMany)
        out.headers.emplace_back("Retry-After", "1");
    return out;
}

// httplib hands handlers no socket, so find ours among the process's open
// descriptors by its two ports. dup2 of /dev/null over it closes the TCP
// connection (the client sees EOF, or a reset, before any byte of answer)
// while the descriptor number stays valid for httplib, whose later write
// fails harmlessly with ENOTSOCK and whose close releases /dev/null.
bool dropConnection(int localPort, int remotePort)
{
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
        const std::string name = entry.path().filename().string();
        int fd = -1;
        const auto [end, parsed] = std::from_chars(name.data(), name.data() + name.size(), fd);
        if (parsed != std::errc() || !isConnection(fd, localPort, remotePort))
            continue;
        const int devNull = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (devNull < 0)
            return false;
        const bool replaced = dup2(devNull, fd) == fd;
        close(devNull);
        return replaced;
    }
    return false;
}

} // namespace relayhud::sim
