#pragma once
// Which request an answer from a worker belongs to. The asker draws a new
// ticket for each request and drops an answer whose ticket is older than the
// newest it drew: that answer is about something no longer asked for (a run
// the user moved away from, a search replaced by the next keystroke, a log
// closed). Tickets of one asker are drawn in order and compared, never
// counted or stored; tickets of two askers mean nothing to each other.
#include <cstdint>

namespace relayhud {

struct Ticket {
    std::int64_t value = 0; // 0: none drawn; a plain number at a Qt signal

    explicit operator bool() const { return value != 0; }
    bool operator==(const Ticket&) const = default;
    bool operator<(const Ticket& other) const { return value < other.value; }
};

// One asker's tickets, drawn on its own thread.
class Tickets {
public:
    Ticket next()
    {
        m_newest = Ticket{m_newest.value + 1};
        return m_newest;
    }
    Ticket newest() const { return m_newest; }
    bool isNewest(Ticket ticket) const { return ticket && ticket == m_newest; }
    // Every ticket drawn so far goes stale (a cancel, a close).
    void expire() { next(); }

private:
    Ticket m_newest;
};

} // namespace relayhud
