#include "relayhud/ui/logs/log_search_controller.h"

#include "relayhud/ui/logs/batch_poster.h"

namespace relayhud::ui {

LogSearchController::LogSearchController(QObject* parent) : QObject(parent)
{
    m_poster = BatchPoster<Batch>::create(this, [this](Batch b) { take(std::move(b)); });
}

LogSearchController::~LogSearchController() = default;

void LogSearchController::setLog(std::shared_ptr<const LogFile> log)
{
    stop();
    m_search.reset(); // cancels and joins
    m_log = std::move(log);
    if (m_log)
        m_search = std::make_unique<LogSearch>(m_log);
}

Result<void> LogSearchController::start(const SearchQuery& query)
{
    stop();
    if (!m_search || query.pattern.empty())
        return {};
    auto ticket = m_search->start(query, [poster = m_poster](const SearchUpdate& u) {
        poster->add([&u](Batch& b) {
            if (u.ticket != b.ticket)
                b = Batch{u.ticket, {}, 0, false, {}}; // an older search's leftovers
            b.matches.insert(b.matches.end(), u.newMatches.begin(), u.newMatches.end());
            b.count = u.matchCount;
            b.finished = b.finished || u.finished;
            if (!u.error.empty())
                b.error = u.error;
        });
    });
    if (!ticket)
        return ticket.error();
    m_ticket = *ticket;
    m_query = query;
    m_running = true;
    return {};
}

void LogSearchController::stop()
{
    if (m_search)
        m_search->cancel();
    m_ticket = {};
    m_query.reset();
    m_count = 0;
    m_running = false;
}

void LogSearchController::extend()
{
    if (m_search && m_ticket && !m_running && m_search->extend())
        m_running = true;
}

void LogSearchController::flush() { m_poster->flush(); }

void LogSearchController::take(Batch batch)
{
    if (batch.ticket != m_ticket || !m_ticket)
        return; // stale: a newer search started since
    if (!batch.matches.empty())
        Q_EMIT matchesAdded(batch.matches);
    m_count = batch.count;
    if (batch.finished)
        m_running = false;
    if (!batch.error.empty()) {
        m_running = false;
        Q_EMIT failed(QString::fromStdString(batch.error));
    }
    Q_EMIT progressed(static_cast<qint64>(m_count), !m_running);
}

std::optional<LineNumber> LogSearchController::next(LineNumber from) const
{
    if (!m_search || !m_ticket)
        return std::nullopt;
    if (auto n = m_search->next(from))
        return n;
    // Wrap to the first match: line 0 itself, else the first after it.
    if (auto first = m_search->previous(LineNumber{1}))
        return first;
    return m_search->next(LineNumber{0});
}

std::optional<LineNumber> LogSearchController::previous(LineNumber from) const
{
    if (!m_search || !m_ticket)
        return std::nullopt;
    if (auto p = m_search->previous(from))
        return p;
    return m_search->previous(LineNumber{~std::uint64_t{0}});
}

std::optional<LineNumber> LogSearchController::firstAtOrAfter(LineNumber from) const
{
    if (from.value > 0)
        return next(LineNumber{from.value - 1});
    return next(LineNumber{~std::uint64_t{0}}); // nothing after the end: wraps to the first
}

} // namespace relayhud::ui
