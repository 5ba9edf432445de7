#pragma once
// Runs the landmark and group scan of a log and hands its results to the GUI
// thread in batches. In tail mode the scan is started again when the log
// grew (at most every few seconds); landmarks already delivered are not
// delivered twice.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_structure.h"
#include "relayhud/util/ticket.h"
#endif

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>
#include <vector>

namespace relayhud::ui {

template <class Batch>
class BatchPoster;

class LogStructureWatcher : public QObject {
    Q_OBJECT
public:
    explicit LogStructureWatcher(QObject* parent = nullptr);
    ~LogStructureWatcher() override;

    void start(std::shared_ptr<const LogFile> log);
    void stop();
    // The log grew (tail mode): scan again once the running scan is done.
    void logGrew();

    const LogStructure* structure() const { return m_structure.get(); }
    bool isFinished() const { return m_finished; }
    const std::vector<Landmark>& landmarks() const { return m_landmarks; }
    const std::vector<LogGroup>& groups() const { return m_groups; }

Q_SIGNALS:
    void landmarksAdded(std::size_t first, std::size_t count);
    void groupsChanged();
    void finished();

private:
    struct Batch {
        std::vector<Landmark> landmarks;
        std::size_t groupCount = 0;
        bool finished = false;
    };
    void take(Batch batch);
    void restart();

    std::shared_ptr<const LogFile> m_log;
    std::unique_ptr<LogStructure> m_structure;
    std::shared_ptr<BatchPoster<Batch>> m_poster;
    std::vector<Landmark> m_landmarks;
    std::vector<LogGroup> m_groups;
    std::size_t m_groupCount = 0;
    Tickets m_scans; // a batch of an older scan is dropped
    bool m_finished = false;
    bool m_grewSinceScan = false;
    QElapsedTimer m_sinceScan;
    QTimer m_rescan;
};

} // namespace relayhud::ui
