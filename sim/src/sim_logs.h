#pragma once
// Raw GitHub Actions job logs (DOMAIN.md, "Raw GitHub Actions logs"): every
// line timestamped with 7 fractional digits, ##[group] per step, ANSI colours,
// and for test jobs the pytest session of the job's JobRun, so the log fails
// exactly the tests the JUnit fails and ends with the same totals.
#include "sim_catalog.h"
#include "sim_job_run.h"
#include "sim_steps.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::sim {

struct LogContext {
    const SimRow* row = nullptr;
    const BackendSpec* backend = nullptr;
    const JobSpec* job = nullptr;
    std::vector<StepPlan> steps;
    const JobRun* run = nullptr;  // test jobs that ran pytest
    bool continueOnError = false; // the test step ignores pytest's exit code
    std::string artifactName;     // what the upload step uploads ("" when nothing)
    std::string downstreamSha;
    // The backend checks out pytorch/pytorch's default branch (no `ref:`):
    // the commit that checkout reaches, main's tip when the job ran.
    std::string defaultBranchTip;
    std::uint64_t hash = 0; // per row: runner names, infra flavour
    // torch-spyre variant B: the matrix run its test job dispatched ("" none).
    std::string childRunId;
};

std::string writeJobLog(const LogContext& context);

// Appends timestamped lines; the clock only moves forward.
class LogWriter {
public:
    explicit LogWriter(std::string& out) : m_out(out) {}
    void at(std::uint64_t ticks);
    void advance(std::uint64_t ticks) { m_ticks += ticks; }
    std::uint64_t now() const { return m_ticks; }
    void line(std::string_view text);
    void lines(std::string_view text); // one timestamped line per '\n'-separated line
    std::string& out() { return m_out; }

private:
    std::string& m_out;
    std::uint64_t m_ticks = 0;
};

// The pytest session inside the "Run tests" step, from its start to `end`.
// Returns pytest's exit code (0 or 1).
int writePytestSession(LogWriter& log, const LogContext& context, std::uint64_t end);

inline constexpr std::string_view kAnsiReset = "\x1b[0m";

} // namespace relayhud::sim
