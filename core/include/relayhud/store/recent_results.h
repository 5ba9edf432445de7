#pragma once
// The recent results of every job, as config suggestions read them
// (config/config_suggest.h): per job its last N runs with results, one per
// upstream SHA (the newest attempt that has results, as a history strip
// picks them), and each test's outcome in each of those runs. Read with
// EvidenceStore::recentResults() in two queries, whatever the number of tests.
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

struct RecentResultsQuery {
    int runsPerJob = 10;
    std::string repo; // one downstream repository; "" for all
};

struct RecentRun {
    Sha sha;
    EpochSeconds commitTime = 0;
    CheckRunRow checkRunRow;
    int runAttempt = 1;
};

// A test as the cache stores it (test_case), shared by every job that ran it.
struct RecentTest {
    TestId testId;
    std::string identity; // file::Class::name
    std::string file;
    std::string baseName;
    std::string marks; // the raw tags, comma-separated (StoredTestResult::marks)
};

struct RecentTestOutcomes {
    std::size_t test = 0; // index into RecentResults::tests
    // One per RecentJob::runs, oldest first; none where the run lacks the test.
    std::vector<std::optional<TestOutcome>> outcomes;
};

struct RecentJob {
    std::string repo; // downstream repository
    std::string workflow;
    std::string name;
    std::vector<RecentRun> runs;           // oldest first, at most runsPerJob
    std::vector<RecentTestOutcomes> tests; // every test in any of the runs
};

struct RecentResults {
    std::vector<RecentTest> tests;
    std::vector<RecentJob> jobs; // by repository, workflow and job name
};

struct KnownTest {
    std::string file;
    std::string baseName;
};

} // namespace relayhud
