#pragma once
// Prints each measurement beside its target and a reference measured in the
// same run, with the ratio, so a slow machine can't hide a regression; and
// whether the machine was quiet while it ran (other processes' CPU use).
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace relayhud::bench {

struct Measurement {
    std::string name;
    double value = 0;          // in `unit`
    std::string unit;          // "ms", "MB"
    double target = 0;         // pass when value <= target; 0: no absolute target
    std::string referenceName; // what ran beside it
    double reference = 0;      // same unit; 0 = none
    // Pass when value <= maxRatio x reference as well; 0: no ratio target.
    // A ratio target holds on any machine; an absolute one only on this kind.
    double maxRatio = 0;

    bool met() const;
};

// What else the machine did while the bench ran: the CPU time of every other
// process (from /proc/stat, less this process's and its children's), in
// cores on average, and the load average before and after.
class MachineLoad {
public:
    MachineLoad(); // starts counting
    // "2 cores; load average 0.04 before, 1.12 after; other processes used
    // 0.02 cores on average: quiet".
    std::string summary() const;
    bool quiet() const;

private:
    double othersCores() const;

    std::chrono::steady_clock::time_point m_start;
    std::uint64_t m_busyStart = 0; // jiffies of every CPU, not idle
    double m_ownStart = 0;         // seconds of CPU, this process and its children
    double m_loadStart = 0;
};

class Report {
public:
    void add(Measurement m);
    // Prints the table and the machine's load; returns the number of missed
    // targets.
    int print() const;

private:
    std::vector<Measurement> m_rows;
    MachineLoad m_load;
};

} // namespace relayhud::bench
