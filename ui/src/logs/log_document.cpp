#include "relayhud/ui/logs/log_document.h"

#include "relayhud/ui/logs/batch_poster.h"

#include "relayhud/ui/logs/file_work_pool.h"

#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

namespace {

struct OpenOutcome {
    std::shared_ptr<LogFile> file;
    QString error;
};

} // namespace

LogDocument::LogDocument(QObject* parent) : QObject(parent)
{
    connect(&m_followTimer, &QTimer::timeout, this, &LogDocument::poll);
}

LogDocument::~LogDocument() = default;

void LogDocument::open(const QString& path, LogOpenOptions options)
{
    close();
    const Ticket open = m_opens.next();
    m_path = path;
    m_opening = true;
    // Progress can come before open() returns: the poster exists first, and a
    // batch for an older open is dropped by its ticket.
    m_poster = BatchPoster<ProgressBatch>::create(this, [this, open](ProgressBatch batch) {
        if (m_opens.isNewest(open))
            takeProgress(std::move(batch));
    });
    options.onProgress = [poster = m_poster](const IndexProgress& p) {
        poster->add([&p](ProgressBatch& b) {
            b.latest = p;
            b.any = true;
        });
    };
    QtConcurrent::run(fileWorkPool(), [path = path.toStdString(), options = std::move(options)] {
        auto opened = LogFile::open(path, options);
        return opened ? OpenOutcome{std::move(*opened), {}}
                      : OpenOutcome{nullptr, QString::fromStdString(opened.message())};
    }).then(this, [this, open](OpenOutcome outcome) {
        if (!m_opens.isNewest(open))
            return; // another open() came since
        m_opening = false;
        if (!outcome.file) {
            Q_EMIT opened(false, outcome.error);
            return;
        }
        m_file = std::move(outcome.file);
        m_progress = m_file->progress();
        Q_EMIT opened(true, {});
        Q_EMIT indexProgressed();
    });
}

void LogDocument::close()
{
    m_opens.expire();
    m_followTimer.stop();
    m_file.reset();
    m_poster.reset();
    m_progress = {};
    m_opening = false;
    m_toldDeleted = false;
}

void LogDocument::takeProgress(ProgressBatch batch)
{
    if (!m_file || !batch.any)
        return; // open() has not returned yet: it reads progress itself
    // A reset comes with refresh()'s answer (takeRefresh), which says it once.
    m_progress = batch.latest;
    Q_EMIT indexProgressed();
}

void LogDocument::setFollowing(bool on, int intervalMs)
{
    if (on)
        m_followTimer.start(intervalMs);
    else
        m_followTimer.stop();
}

void LogDocument::poll()
{
    if (!m_file || m_polling)
        return;
    m_polling = true;
    const Ticket open = m_opens.newest();
    QtConcurrent::run(fileWorkPool(), [file = m_file] {
        return file->refresh();
    }).then(this, [this, open](RefreshResult result) {
        m_polling = false;
        if (m_opens.isNewest(open))
            takeRefresh(result);
    });
}

void LogDocument::takeRefresh(RefreshResult result)
{
    switch (result) {
    case RefreshResult::Unchanged: return;
    case RefreshResult::Grown: Q_EMIT grew(); return;
    case RefreshResult::Truncated:
    case RefreshResult::Replaced: Q_EMIT contentReset(); return;
    case RefreshResult::Deleted:
        if (!m_toldDeleted)
            Q_EMIT notice(tr("The file was deleted; showing what was read before."));
        m_toldDeleted = true;
        return;
    case RefreshResult::NotFollowable:
        m_followTimer.stop();
        Q_EMIT notice(tr("A compressed log cannot be followed."));
        return;
    }
}

} // namespace relayhud::ui
