#pragma once
// Idle libcurl easy handles kept between requests. An easy handle driven by
// curl_easy_perform keeps its connections, DNS answers and TLS sessions, so a
// run of requests to one host (paging through the HUD) pays for the TCP and
// TLS handshakes once. Each handle serves one thread at a time, which is what
// libcurl requires; sharing one connection cache across threads is not
// supported by libcurl.
#include <curl/curl.h>

#include <memory>
#include <mutex>
#include <vector>

namespace relayhud::net {

struct EasyCleanup {
    void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
using EasyHandle = std::unique_ptr<CURL, EasyCleanup>;

class HandlePool {
public:
    HandlePool() = default;
    HandlePool(const HandlePool&) = delete;
    HandlePool& operator=(const HandlePool&) = delete;

    // An idle handle, or a new one; null only when libcurl is out of memory.
    EasyHandle acquire();
    // Takes a handle back once its transfer is finished and it is no longer
    // in a multi handle. Its options are reset here, so that no idle handle
    // points at the buffers of a finished transfer.
    void release(EasyHandle handle);

private:
    std::mutex m_mutex;
    std::vector<EasyHandle> m_idle;
};

} // namespace relayhud::net
