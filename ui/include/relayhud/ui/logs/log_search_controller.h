#pragma once
// Runs the log search on the engine's workers and hands the matches to the
// GUI thread in batches (one queued call per event loop turn however fast
// they stream). Starting a search cancels the last; updates of an older
// search are dropped by their id.
// moc (Qt 6.4) cannot parse <concepts>, which <compare> in the engine's
// headers brings in; moc needs none of them.
#ifndef Q_MOC_RUN
#include "relayhud/logs/log_search.h"
#endif

#include <QObject>

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace relayhud::ui {

template <class Batch>
class BatchPoster;

class LogSearchController : public QObject {
    Q_OBJECT
public:
    explicit LogSearchController(QObject* parent = nullptr);
    ~LogSearchController() override;

    void setLog(std::shared_ptr<const LogFile> log);
    // Starts `query`; an empty pattern only stops the running search. An
    // error is the pattern's (RE2's message); nothing then runs.
    Result<void> start(const SearchQuery& query);
    void stop();
    // Tail mode: search the lines appended since the search finished.
    void extend();
    // Delivers what the workers reported so far, now (tests).
    void flush();

    bool isActive() const { return static_cast<bool>(m_ticket); }
    // The query searched now; nullopt when none.
    const std::optional<SearchQuery>& query() const { return m_query; }
    bool isRunning() const { return m_running; }
    std::uint64_t matchCount() const { return m_count; }
    // The next match after `from` (wrapping to the first), the previous
    // before it (wrapping to the last).
    std::optional<LineNumber> next(LineNumber from) const;
    std::optional<LineNumber> previous(LineNumber from) const;
    // `from` itself when it matches, else next(from).
    std::optional<LineNumber> firstAtOrAfter(LineNumber from) const;

Q_SIGNALS:
    void matchesAdded(std::span<const relayhud::LineNumber> matches);
    void progressed(qint64 count, bool finished);
    void failed(const QString& message);

private:
    struct Batch {
        Ticket ticket;
        std::vector<LineNumber> matches;
        std::uint64_t count = 0;
        bool finished = false;
        std::string error;
    };
    void take(Batch batch);

    std::shared_ptr<const LogFile> m_log;
    std::unique_ptr<LogSearch> m_search;
    std::shared_ptr<BatchPoster<Batch>> m_poster;
    std::optional<SearchQuery> m_query;
    Ticket m_ticket; // the running search's; none when stopped
    std::uint64_t m_count = 0;
    bool m_running = false;
};

} // namespace relayhud::ui
