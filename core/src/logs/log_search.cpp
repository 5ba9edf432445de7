#include "relayhud/logs/log_search.h"

#include "logs/log_data.h"
#include "logs/search_run.h"

namespace relayhud {

using namespace logs;

LogSearch::LogSearch(std::shared_ptr<const LogFile> log, unsigned threads)
    : m_log(std::move(log)), m_threads(threads)
{
}

LogSearch::~LogSearch() = default; // the run cancels and joins

Result<Ticket> LogSearch::start(const SearchQuery& query, UpdateFn onUpdate)
{
    auto pattern = CompiledPattern::compile(query);
    if (!pattern)
        return pattern.error();
    // Joining the old run costs at most one block's scan: workers look at the
    // cancel flag between blocks.
    m_run.reset();
    ScanJob job{m_log, std::move(*pattern), m_threads, false, {}};
    const Ticket ticket = m_tickets.next();
    m_run = std::make_shared<SearchRun>(ticket, std::move(job), std::move(onUpdate));
    m_run->start({0, 0});
    return ticket;
}

bool LogSearch::extend()
{
    if (!m_run || m_run->running())
        return false;
    if (m_log->data().index().extent().coveredBytes <= m_run->searchedBytes())
        return false;
    m_run->start(m_run->stoppedAt());
    return true;
}

void LogSearch::cancel()
{
    if (m_run)
        m_run->cancel();
}

void LogSearch::wait() const
{
    if (m_run)
        m_run->wait();
}

Ticket LogSearch::ticket() const { return m_run ? m_run->ticket() : Ticket{}; }
bool LogSearch::running() const { return m_run && m_run->running(); }
std::uint64_t LogSearch::matchCount() const { return m_run ? m_run->matchCount() : 0; }

std::vector<LineNumber> LogSearch::matches() const
{
    return m_run ? m_run->matches() : std::vector<LineNumber>{};
}

std::optional<LineNumber> LogSearch::next(LineNumber from) const
{
    return m_run ? m_run->next(from) : std::nullopt;
}

std::optional<LineNumber> LogSearch::previous(LineNumber from) const
{
    return m_run ? m_run->previous(from) : std::nullopt;
}

} // namespace relayhud
