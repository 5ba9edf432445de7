#include "relayhud/ui/logs/file_work_pool.h"

#include <QThreadPool>

namespace relayhud::ui {

namespace {

// Enough for a few logs opening at once; each thread is idle-reaped.
constexpr int kFileThreads = 4;

} // namespace

QThreadPool* fileWorkPool()
{
    // Never destroyed: a thread stuck in a read must not hold up exit, as
    // QThreadPool's destructor would wait for it.
    static QThreadPool* const pool = [] {
        auto* made = new QThreadPool;
        made->setObjectName(QStringLiteral("relayhud file work"));
        made->setMaxThreadCount(kFileThreads);
        return made;
    }();
    return pool;
}

} // namespace relayhud::ui
