#pragma once
// Prints each measurement beside its target and a reference measured in the
// same run, with the ratio, so a slow machine can't hide a regression.
#include <string>
#include <vector>

namespace relayhud::bench {

struct Measurement {
    std::string name;
    double value = 0;          // in `unit`
    std::string unit;          // "ms", "MB"
    double target = 0;         // pass when value <= target
    std::string referenceName; // what ran beside it
    double reference = 0;      // same unit; 0 = none
};

class Report {
public:
    void add(Measurement m);
    // Prints the table; returns the number of missed targets.
    int print() const;

private:
    std::vector<Measurement> m_rows;
};

} // namespace relayhud::bench
