#pragma once
// What a backend's CI runs, test by test as an outcome config names them:
// every case its test jobs run on any commit of the dataset, grouped by the
// base name the verdict derives from the report, with the stable outcomes
// seen and which jobs run it. The generated outcome configs and the
// incomplete-green story are both planned from it, so they agree with the
// runs by construction.
#include "sim_catalog.h"
#include "sim_test_catalog.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace relayhud::sim {

struct SurveyedName {
    std::string file;    // as the report names it: "test_ops.py"
    std::string name;    // base name, as the verdict derives it from the report
    bool passes = false; // some case passes (an xpass reads as a pass)
    bool xfails = false;
    bool skips = false;
    // Per test job: it runs a case of the name, not skipped, on every commit
    // (a job's first commit runs a subset of what later commits run).
    std::vector<bool> jobs;
    const TestUniverse* universe = nullptr; // with `example`: one case of it
    CaseRef example;
};

struct BackendSurvey {
    std::size_t testJobs = 0;
    std::vector<std::string> files;  // in the order jobs first run them
    std::vector<SurveyedName> names; // sorted by file, then name
    std::set<std::string> ops;       // op and dtype marks seen (tagging backends only)
    std::set<std::string> dtypes;
    // Where each universe's cases stop being run: one past the highest index.
    std::vector<std::pair<const TestUniverse*, std::uint64_t>> universeEnds;
};

// A mandatory_success pattern over one class of a file ("TestViewOps::*"),
// with the names it must leave to other entries: the ones that ever xfail.
// Every test job runs a passing name of the class, and no name it covers
// ever fails, so the entry cannot make a green incomplete or disputed.
struct MandatoryGroup {
    std::string file;
    std::string pattern;
    std::vector<const SurveyedName*> exceptions;
};

// The exceptions a class may need and still be mandatory: the configs and
// the incomplete-green story use the same bound, so they name the same entries.
inline constexpr std::size_t kMandatoryMaxExceptions = 30;

// The classes that qualify, at most maxExceptions exceptions each.
std::vector<MandatoryGroup> mandatoryGroups(const BackendSurvey& survey, std::size_t maxExceptions);

// A base name as a config pattern matching just that name ('[' and ']' of
// parametrize ids escaped as "[[]" and "[]]").
std::string exactPattern(std::string_view name);
bool hasGlobChars(std::string_view name);

// `commits`: the dataset's commit count (a job's case count creeps up with
// the commit index; see sim_runs.cpp).
BackendSurvey surveyBackend(const BackendSpec& backend, TestCatalog& tests, std::size_t commits);

// The base name of a case as the verdict derives it from the report.
std::string caseBaseName(const TestUniverse& universe, const CaseRef& c);

// A job's case count on a commit (the row's total; see sim_runs.cpp).
std::int64_t jobTotalOn(const JobSpec& job, const TestUniverse& universe, std::size_t commit);

} // namespace relayhud::sim
