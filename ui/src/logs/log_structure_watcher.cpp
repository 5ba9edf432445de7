#include "relayhud/ui/logs/log_structure_watcher.h"

#include "relayhud/ui/logs/batch_poster.h"

namespace relayhud::ui {

namespace {

constexpr int kRescanMs = 2000; // a rescan reads the whole log: not on every poll

} // namespace

LogStructureWatcher::LogStructureWatcher(QObject* parent) : QObject(parent)
{
    m_rescan.setSingleShot(true);
    connect(&m_rescan, &QTimer::timeout, this, &LogStructureWatcher::restart);
}

LogStructureWatcher::~LogStructureWatcher() = default;

void LogStructureWatcher::start(std::shared_ptr<const LogFile> log)
{
    stop();
    m_log = std::move(log);
    restart();
}

void LogStructureWatcher::stop()
{
    m_scans.expire();
    m_rescan.stop();
    m_structure.reset(); // cancels and joins the scan
    m_poster.reset();
    m_log.reset();
    m_landmarks.clear();
    m_groups.clear();
    m_groupCount = 0;
    m_finished = false;
    m_grewSinceScan = false;
}

void LogStructureWatcher::restart()
{
    if (!m_log)
        return;
    const Ticket scan = m_scans.next();
    m_finished = false;
    m_grewSinceScan = false;
    m_sinceScan.start();
    m_poster = BatchPoster<Batch>::create(this, [this, scan](Batch b) {
        if (m_scans.isNewest(scan))
            take(std::move(b));
    });
    m_structure.reset();
    m_structure = std::make_unique<LogStructure>(m_log);
    m_structure->start([poster = m_poster](const StructureUpdate& u) {
        poster->add([&u](Batch& b) {
            b.landmarks.insert(b.landmarks.end(), u.newLandmarks.begin(), u.newLandmarks.end());
            b.groupCount = u.groupCount;
            b.finished = b.finished || u.finished || !u.error.empty();
        });
    });
}

void LogStructureWatcher::take(Batch batch)
{
    // A rescan finds again what the last scan found: keep only what is new.
    const auto fresh =
        std::find_if(batch.landmarks.begin(), batch.landmarks.end(), [this](const Landmark& l) {
            return m_landmarks.empty() || m_landmarks.back().line < l.line;
        });
    const std::size_t first = m_landmarks.size();
    m_landmarks.insert(m_landmarks.end(), fresh, batch.landmarks.end());
    if (m_landmarks.size() > first)
        Q_EMIT landmarksAdded(first, m_landmarks.size() - first);
    // An open group's end moves as lines come, so groups are read again
    // whenever the scan reports; there are few of them.
    if (m_structure && (batch.groupCount > 0 || batch.groupCount != m_groupCount)) {
        m_groupCount = batch.groupCount;
        m_groups = m_structure->groups();
        Q_EMIT groupsChanged();
    }
    if (batch.finished) {
        m_finished = true;
        Q_EMIT finished();
        if (m_grewSinceScan)
            logGrew();
    }
}

void LogStructureWatcher::logGrew()
{
    m_grewSinceScan = true;
    if (!m_finished || m_rescan.isActive())
        return;
    m_rescan.start(static_cast<int>(std::max<qint64>(0, kRescanMs - m_sinceScan.elapsed())));
}

} // namespace relayhud::ui
