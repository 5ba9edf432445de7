#include "net/handle_pool.h"

#include "net/transfer.h"

namespace relayhud::net {
namespace {

// Enough for the usual parallelism; more idle connections only cost sockets.
constexpr std::size_t kMaxIdleHandles = 8;

} // namespace

EasyHandle HandlePool::acquire()
{
    {
        const std::lock_guard lock(m_mutex);
        if (!m_idle.empty()) {
            EasyHandle handle = std::move(m_idle.back());
            m_idle.pop_back();
            return handle;
        }
    }
    ensureCurlInitialised();
    return EasyHandle(curl_easy_init());
}

void HandlePool::release(EasyHandle handle)
{
    if (!handle)
        return;
    curl_easy_reset(handle.get()); // keeps connections, DNS cache and TLS sessions
    const std::lock_guard lock(m_mutex);
    if (m_idle.size() < kMaxIdleHandles)
        m_idle.push_back(std::move(handle));
}

} // namespace relayhud::net
