#pragma once
// Loopback servers for tests of HTTP clients: an httplib server a test
// scripts with handlers, and a bare TCP server for replies httplib will not
// produce (a Content-Length it does not honour, no reply at all).
#include "relayhud/sim/httplib_quiet.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace relayhud::test {

// A TCP socket bound to an ephemeral loopback port, which is stored in `port`.
inline int boundSocket(int& port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), length);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
    return fd;
}

// A port nothing listens on: bound once by us, then released.
inline int unusedPort()
{
    int port = 0;
    ::close(boundSocket(port));
    return port;
}

// The httplib server a test scripts by registering handlers before start().
class ScriptedServer {
public:
    ~ScriptedServer() { stop(); }

    httplib::Server& http() { return m_server; }

    void start()
    {
        // Without it httplib's separate header and body writes meet the
        // client's delayed ACK on reused connections: 40 ms per request.
        m_server.set_tcp_nodelay(true);
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        while (!m_server.is_running()) // stop() before this point would be lost
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }

    void stop()
    {
        m_stopping = true;
        m_server.stop();
        if (m_thread.joinable())
            m_thread.join();
    }

    std::string url(const std::string& path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }

    // For handlers that stall: returns early when the test ends, so tear-down
    // does not wait for them.
    void stall(std::chrono::milliseconds duration) const
    {
        const auto until = std::chrono::steady_clock::now() + duration;
        while (!m_stopping && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }

private:
    httplib::Server m_server;
    std::thread m_thread;
    std::atomic<bool> m_stopping{false};
    int m_port = 0;
};

// A bare TCP server answering every connection with the same bytes, then
// closing it: for replies httplib will not produce (a Content-Length it does
// not honour, no reply at all).
class RawServer {
public:
    explicit RawServer(std::string reply) : m_reply(std::move(reply))
    {
        m_listener = boundSocket(m_port);
        ::listen(m_listener, 16);
        m_thread = std::thread([this] { serve(); });
    }
    ~RawServer()
    {
        m_stopping = true;
        m_thread.join();
        ::close(m_listener);
    }

    std::string url(const std::string& path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }
    int connections() const { return m_connections; }

private:
    void serve()
    {
        while (!m_stopping) {
            pollfd listener{m_listener, POLLIN, 0};
            if (::poll(&listener, 1, 20) <= 0)
                continue;
            const int client = ::accept(m_listener, nullptr, nullptr);
            ++m_connections;
            readRequest(client);
            ::send(client, m_reply.data(), m_reply.size(), MSG_NOSIGNAL);
            ::shutdown(client, SHUT_RDWR);
            ::close(client);
        }
    }

    // Read the whole request first: closing with unread input would reset
    // the connection instead of ending it.
    static void readRequest(int client)
    {
        std::string request;
        char buffer[1024];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const auto got = ::recv(client, buffer, sizeof buffer, 0);
            if (got <= 0)
                return;
            request.append(buffer, static_cast<std::size_t>(got));
        }
    }

    std::string m_reply;
    int m_listener = -1;
    int m_port = 0;
    std::thread m_thread;
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_connections{0};
};

} // namespace relayhud::test
