#include "logs/thread_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace relayhud::logs {

void lowerThreadPriority()
{
#if defined(__linux__)
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
    // On Linux a nice value belongs to a thread, named by its tid. Failing
    // (a sandbox forbidding it) only costs responsiveness, so it is ignored.
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    (void)::setpriority(PRIO_PROCESS, tid, 10);
#endif
}

} // namespace relayhud::logs
