#pragma once
// What a backend's CI runs, test by test as an outcome config names them:
// every case its test jobs run on any commit of the dataset, grouped by the
// base method torch-spyre's framework keys a listing by (the class part of
// a name is never checked: one method in two classes is one listing), with
// the stable outcomes seen and which jobs run it. The generated outcome configs and the
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
    std::string file;    // the original file (a wrapper run is named after it): "test_ops.py"
    std::string method;  // the base method, what a listing matches
    std::string name;    // "Class::method" with the first class seen running it
    bool passes = false; // some case passes (an xpass reads as a pass)
    bool xfails = false;
    bool skips = false;
    // Per test job: it runs a case of the name, not skipped, on every commit
    // (a job's first commit runs a subset of what later commits run).
    std::vector<bool> jobs;
    const TestUniverse* universe = nullptr; // with `example`: one case of it
    CaseRef example;
    std::set<std::string> dtypes; // dtype marks of its cases (tagging backends only)
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

// A mandatory_success regex name over a file's passing methods, written as
// real configs write them: `TestViewOps.*::test_(chunk|unbind|view).*`, an
// alternation of the methods' first words (the class part, a regex too, is
// never checked). Every method it fullmatches either passes wherever it runs
// or is an exception, listed exactly (an exact listing beats a regex) as
// xfail; every test job runs a passing method it matches on every commit.
// So the entry can make a green neither incomplete nor disputed.
struct MandatoryGroup {
    std::string file;
    std::string pattern; // the name as the config lists it
    std::vector<const SurveyedName*> exceptions;
};

// The exceptions a file may need and still get a mandatory regex: the
// configs and the incomplete-green story use the same bound, so they name
// the same entries.
inline constexpr std::size_t kMandatoryMaxExceptions = 30;

// The files that qualify, at most maxExceptions exceptions each.
std::vector<MandatoryGroup> mandatoryGroups(const BackendSurvey& survey, std::size_t maxExceptions);

// A method as a regex that fullmatches just it (Python's re.escape of the
// characters that make a name a regex), for names like `test_x[a-b]`.
std::string escapedRegex(std::string_view method);
bool hasRegexChars(std::string_view method);

// `commits`: the dataset's commit count (a job's case count creeps up with
// the commit index; see sim_runs.cpp).
BackendSurvey surveyBackend(const BackendSpec& backend, TestCatalog& tests, std::size_t commits);

// The base name ("Class::method") and the base method of a case, as the
// verdict derives them from the report.
std::string caseBaseName(const TestUniverse& universe, const CaseRef& c);
std::string caseMethod(const TestUniverse& universe, const CaseRef& c);

// A job's case count on a commit (the row's total; see sim_runs.cpp).
std::int64_t jobTotalOn(const JobSpec& job, const TestUniverse& universe, std::size_t commit);

} // namespace relayhud::sim
