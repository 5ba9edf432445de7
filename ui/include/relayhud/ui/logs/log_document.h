#pragma once
// An open log for the GUI: opens it on a worker (a .gz is decompressed
// there), passes the indexer's progress to the GUI thread (merged: at most
// one event per turn of the event loop), and in tail mode polls the file on
// a timer, the poll itself on a worker.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_file.h"
#include "relayhud/util/ticket.h"
#endif

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace relayhud::ui {

template <class Batch>
class BatchPoster;

class LogDocument : public QObject {
    Q_OBJECT
public:
    explicit LogDocument(QObject* parent = nullptr);
    ~LogDocument() override;

    // Opens `path` (closing what was open); opened() says how it went.
    void open(const QString& path, LogOpenOptions options = {});
    void close();
    const std::shared_ptr<LogFile>& file() const { return m_file; }
    QString path() const { return m_path; }
    bool isOpening() const { return m_opening; }
    // The latest progress delivered on this thread.
    const IndexProgress& progress() const { return m_progress; }

    // Tail mode: refresh() every `intervalMs` while on.
    void setFollowing(bool on, int intervalMs = 500);
    bool isFollowing() const { return m_followTimer.isActive(); }
    // One poll now (tests; the timer calls it).
    void poll();

Q_SIGNALS:
    void opened(bool ok, const QString& error);
    // Lines were indexed (lineCount grew) or indexing finished.
    void indexProgressed();
    // The file was truncated or replaced: everything shown is stale; lines
    // are indexed again from the start.
    void contentReset();
    // Something the user should know about the file (deleted, cannot follow).
    void notice(const QString& message);
    // A poll saw the file grow (search and structure can extend).
    void grew();

private:
    struct ProgressBatch {
        IndexProgress latest;
        bool any = false;
    };
    void takeProgress(ProgressBatch batch);
    void takeRefresh(RefreshResult result);

    std::shared_ptr<LogFile> m_file;
    std::shared_ptr<BatchPoster<ProgressBatch>> m_poster;
    QString m_path;
    IndexProgress m_progress;
    Tickets m_opens; // what a worker reports about an older open is dropped
    bool m_opening = false;
    bool m_polling = false;
    bool m_toldDeleted = false;
    QTimer m_followTimer;
};

} // namespace relayhud::ui
