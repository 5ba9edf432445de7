#pragma once
// Reads one trend chart's points from the cache on a pool thread (its own
// Database connection per job) and hands them to the GUI thread, which only
// builds series. Only the newest request's result is delivered.
#include "relayhud/verdict/trends.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::ui {

enum class ChartKind : std::uint8_t {
    PassRate,
    FailureClasses,
    QueueTimes,
    TestsExecuted,
    Durations,
};
inline constexpr int kChartKindCount = 5;

struct TrendsRequest {
    ChartKind kind = ChartKind::PassRate;
    EpochSeconds since = 0;
    EpochSeconds until = 0;
    std::string backend;                // "" for all
    std::optional<verdict::JobKey> job; // none for all
};

// One chart's points, and what the selectors offer in the window.
struct TrendsData {
    TrendsRequest request;
    std::string error;                 // the cache could not be read; nothing else is set
    std::vector<std::string> backends; // every backend in the window
    std::vector<verdict::JobKey> jobs; // the jobs of request.backend (all when "")
    std::vector<verdict::PassRateSeries> passRates;
    verdict::FailureClassDays failures;
    std::vector<verdict::TimingPoint> timings;
    // Tests executed: the job asked for, else the one with the most counts.
    std::optional<verdict::JobKey> executedJob;
    std::vector<verdict::ExecutedPoint> executed;
    std::vector<verdict::JobDuration> durations;
};

// The blocking read, for the worker (and the bench).
TrendsData loadTrends(const std::string& cachePath, const TrendsRequest& request);

class TrendsLoader : public QObject {
    Q_OBJECT
public:
    explicit TrendsLoader(QObject* parent = nullptr);

    void setCachePath(const std::string& path) { m_cachePath = path; }
    void request(const TrendsRequest& request);
    bool isLoading() const { return m_delivered != m_latestJob; }

signals:
    void loaded(std::shared_ptr<const relayhud::ui::TrendsData> data);

private:
    std::string m_cachePath;
    std::uint64_t m_latestJob = 0;
    std::uint64_t m_delivered = 0;
};

} // namespace relayhud::ui
