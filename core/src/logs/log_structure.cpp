#include "relayhud/logs/log_structure.h"

#include "logs/landmark_classifier.h"
#include "logs/log_data.h"
#include "logs/search_run.h"

#include <algorithm>

namespace relayhud {

namespace logs {

// The landmark scan: candidates from scanIndexed(), classified in file order.
class StructureRun {
public:
    StructureRun(std::shared_ptr<const LogFile> log, unsigned threads, LogStructure::UpdateFn fn)
        : m_log(std::move(log)), m_threads(threads), m_onUpdate(std::move(fn))
    {
        m_thread = std::thread([this] { run({0, 0}); });
    }
    ~StructureRun()
    {
        m_cancelled = true;
        m_thread.join();
    }
    StructureRun(const StructureRun&) = delete;
    StructureRun& operator=(const StructureRun&) = delete;

    void wait() const
    {
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_finished; });
    }
    bool finished() const
    {
        std::lock_guard lock(m_mutex);
        return m_finished;
    }
    // Goes on from the end of the last complete line scanned; false when a
    // scan is running or the log has no new line.
    bool resume()
    {
        Checkpoint from;
        {
            std::lock_guard lock(m_mutex);
            if (!m_finished || m_log->data().index().extent().coveredBytes <= m_scannedBytes)
                return false;
            from = m_stoppedAt;
        }
        m_thread.join();
        {
            std::lock_guard lock(m_mutex);
            m_classifier.forgetFrom(from.line);
            m_finished = false;
        }
        m_thread = std::thread([this, from] { run(from); });
        return true;
    }
    template <class F>
    auto read(F f) const
    {
        std::lock_guard lock(m_mutex);
        return f(m_classifier);
    }

private:
    void run(Checkpoint from);
    void take(ScanSink& piece, std::uint64_t scanned, std::uint64_t total);

    std::shared_ptr<const LogFile> m_log;
    unsigned m_threads;
    LogStructure::UpdateFn m_onUpdate;
    std::atomic<bool> m_cancelled{false};
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_done;
    bool m_finished = false;
    Checkpoint m_stoppedAt;
    std::uint64_t m_scannedBytes = 0; // the indexed size when the scan stopped
    LandmarkClassifier m_classifier;
    std::thread m_thread;
};

void StructureRun::take(ScanSink& piece, std::uint64_t scanned, std::uint64_t total)
{
    std::vector<Landmark> fresh;
    std::size_t landmarks = 0;
    std::size_t groups = 0;
    {
        std::lock_guard lock(m_mutex);
        const std::size_t before = m_classifier.landmarks().size();
        for (std::size_t i = 0; i < piece.lines.size(); ++i)
            m_classifier.feed(piece.lines[i], piece.texts[i]);
        const auto& all = m_classifier.landmarks();
        fresh.assign(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
        landmarks = all.size();
        groups = m_classifier.groups().size();
    }
    if (m_onUpdate)
        m_onUpdate({fresh, landmarks, groups, scanned, total, false, {}});
}

void StructureRun::run(Checkpoint from)
{
    SearchQuery query{LandmarkClassifier::candidatePattern(), SearchSyntax::Regex, true,
                      SearchText::Display};
    auto pattern = CompiledPattern::compile(query);
    StructureUpdate last;
    if (pattern) {
        ScanJob job{m_log, std::move(*pattern), m_threads, true,
                    [this](ScanSink& piece, std::uint64_t scanned, std::uint64_t total) {
                        take(piece, scanned, total);
                    }};
        job.background = true;
        const auto stopped = scanIndexed(job, from, m_cancelled);
        if (!stopped)
            last.error = stopped.message();
        // Go on later before the unterminated last line: it may still grow.
        const IndexExtent e = m_log->data().index().extent();
        const Checkpoint complete{e.terminators, e.tailStart};
        std::lock_guard lock(m_mutex);
        m_scannedBytes = e.coveredBytes;
        m_stoppedAt = stopped && stopped->offset > complete.offset ? complete
                      : stopped                                    ? *stopped
                                                                   : m_stoppedAt;
    } else {
        last.error = pattern.message(); // a bug in candidatePattern(), not user input
    }
    const IndexExtent e = m_log->data().index().extent();
    {
        std::lock_guard lock(m_mutex);
        m_classifier.finish(e.lineCount());
        last.landmarkCount = m_classifier.landmarks().size();
        last.groupCount = m_classifier.groups().size();
    }
    last.scannedBytes = last.totalBytes = e.coveredBytes;
    last.finished = last.error.empty() && !m_cancelled;
    if (m_onUpdate)
        m_onUpdate(last);
    std::lock_guard lock(m_mutex);
    m_finished = true;
    m_done.notify_all();
}

} // namespace logs

using namespace logs;

std::string_view toString(LandmarkKind kind)
{
    switch (kind) {
    case LandmarkKind::TestFailed: return "test failed";
    case LandmarkKind::TestSection: return "test section";
    case LandmarkKind::Exception: return "exception";
    case LandmarkKind::ErrorMarker: return "error";
    case LandmarkKind::Signal: return "signal";
    case LandmarkKind::Timeout: return "timeout";
    case LandmarkKind::Summary: return "summary";
    case LandmarkKind::BuildError: return "build error";
    case LandmarkKind::LintError: return "lint error";
    }
    return "landmark";
}

LogStructure::LogStructure(std::shared_ptr<const LogFile> log, unsigned threads)
    : m_log(std::move(log)), m_threads(threads)
{
}

LogStructure::~LogStructure() = default;

void LogStructure::start(UpdateFn onUpdate)
{
    m_run.reset();
    m_run = std::make_unique<StructureRun>(m_log, m_threads, std::move(onUpdate));
}

bool LogStructure::extend() { return m_run && m_run->resume(); }

void LogStructure::wait() const
{
    if (m_run)
        m_run->wait();
}

bool LogStructure::finished() const { return m_run && m_run->finished(); }

std::vector<Landmark> LogStructure::landmarks() const
{
    if (!m_run)
        return {};
    return m_run->read([](const LandmarkClassifier& c) { return c.landmarks(); });
}

std::vector<LogGroup> LogStructure::groups() const
{
    if (!m_run)
        return {};
    return m_run->read([](const LandmarkClassifier& c) { return c.groups(); });
}

std::optional<Landmark> LogStructure::nextLandmark(LineNumber from) const
{
    if (!m_run)
        return std::nullopt;
    return m_run->read([from](const LandmarkClassifier& c) -> std::optional<Landmark> {
        const auto& all = c.landmarks();
        auto it = std::upper_bound(all.begin(), all.end(), from,
                                   [](LineNumber l, const Landmark& m) { return l < m.line; });
        return it == all.end() ? std::nullopt : std::optional<Landmark>(*it);
    });
}

std::optional<Landmark> LogStructure::previousLandmark(LineNumber from) const
{
    if (!m_run)
        return std::nullopt;
    return m_run->read([from](const LandmarkClassifier& c) -> std::optional<Landmark> {
        const auto& all = c.landmarks();
        auto it = std::lower_bound(all.begin(), all.end(), from,
                                   [](const Landmark& m, LineNumber l) { return m.line < l; });
        return it == all.begin() ? std::nullopt : std::optional<Landmark>(*(it - 1));
    });
}

std::optional<LogGroup> LogStructure::groupAt(LineNumber line) const
{
    if (!m_run)
        return std::nullopt;
    return m_run->read([line](const LandmarkClassifier& c) -> std::optional<LogGroup> {
        const auto all = c.groups();
        // Groups never nest: the one that starts last at or before `line`.
        auto it = std::upper_bound(all.begin(), all.end(), line,
                                   [](LineNumber l, const LogGroup& g) { return l < g.start; });
        if (it == all.begin() || line > (it - 1)->end)
            return std::nullopt;
        return *(it - 1);
    });
}

} // namespace relayhud
