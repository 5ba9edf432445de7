#pragma once
// A loopback HTTP/1.1 server that answers each request with bytes a test
// composes from the request head: for answers httplib composes itself and
// will not let a test choose (a 200 to a Range request, a body cut short
// after its headers). One request per connection (Connection: close).
#include "loopback_servers.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace relayhud::test {

struct RawRequest {
    std::string method;
    std::string target;                         // path and query
    std::map<std::string, std::string> headers; // names lower-cased
    std::string header(const std::string& name) const
    {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

inline std::string rawResponse(int status, const std::string& reason,
                               const std::vector<std::pair<std::string, std::string>>& headers,
                               const std::string& body,
                               std::size_t sendBodyBytes = std::string::npos)
{
    std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\n";
    for (const auto& [name, value] : headers)
        out += name + ": " + value + "\r\n";
    out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
    return out + body.substr(0, sendBodyBytes);
}

class RawHttpServer {
public:
    using Handler = std::function<std::string(const RawRequest&)>;

    explicit RawHttpServer(Handler handler) : m_handler(std::move(handler))
    {
        m_listener = boundSocket(m_port);
        ::listen(m_listener, 16);
        m_thread = std::thread([this] { serve(); });
    }
    ~RawHttpServer()
    {
        m_stopping = true;
        m_thread.join();
        ::close(m_listener);
    }

    std::string url(const std::string& path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }
    std::vector<RawRequest> requests() const
    {
        const std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    void serve()
    {
        while (!m_stopping) {
            pollfd listener{m_listener, POLLIN, 0};
            if (::poll(&listener, 1, 20) <= 0)
                continue;
            const int client = ::accept(m_listener, nullptr, nullptr);
            const RawRequest request = parse(readHead(client));
            {
                const std::lock_guard lock(m_mutex);
                m_requests.push_back(request);
            }
            const std::string reply = m_handler(request);
            ::send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::shutdown(client, SHUT_RDWR);
            ::close(client);
        }
    }

    static std::string readHead(int client)
    {
        std::string head;
        char buffer[4096];
        while (head.find("\r\n\r\n") == std::string::npos) {
            const auto got = ::recv(client, buffer, sizeof buffer, 0);
            if (got <= 0)
                break;
            head.append(buffer, static_cast<std::size_t>(got));
        }
        return head;
    }

    static RawRequest parse(const std::string& head)
    {
        RawRequest request;
        std::size_t lineEnd = head.find("\r\n");
        const std::string first = head.substr(0, lineEnd);
        const auto space = first.find(' ');
        request.method = first.substr(0, space);
        request.target = first.substr(space + 1, first.rfind(' ') - space - 1);
        while (lineEnd != std::string::npos && lineEnd + 2 < head.size()) {
            const auto next = head.find("\r\n", lineEnd + 2);
            const std::string line = head.substr(lineEnd + 2, next - lineEnd - 2);
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(0, colon);
                for (auto& c : name)
                    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                const auto value = line.find_first_not_of(' ', colon + 1);
                request.headers[name] = value == std::string::npos ? "" : line.substr(value);
            }
            lineEnd = next;
        }
        return request;
    }

    Handler m_handler;
    int m_listener = -1;
    int m_port = 0;
    std::thread m_thread;
    std::atomic<bool> m_stopping{false};
    mutable std::mutex m_mutex;
    std::vector<RawRequest> m_requests;
};

} // namespace relayhud::test
