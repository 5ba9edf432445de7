#pragma once
// Helpers shared by the test-result tests: temp folders, check runs in a
// cache, and hand-made test cases.
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace relayhud {
class Database;
}

namespace relayhud::testing {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& tag)
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_path = std::filesystem::temp_directory_path()
                 / ("relayhud-" + tag + "-" + info->test_suite_name() + "-" + info->name());
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir() { std::filesystem::remove_all(m_path); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string file(const std::string& name) const { return (m_path / name).string(); }
    std::string write(const std::string& name, const std::string& bytes) const
    {
        const auto path = m_path / name;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << bytes;
        return path.string();
    }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// A cache a test opened and owns, closed when it goes. Its own type, so that
// a test that only hands its cache to stores needs the stores' headers, not
// the connection's (store/database.h): only a test that calls the
// connection's own functions (meta, write batches, the schema) includes it.
class TestCache {
public:
    TestCache();
    explicit TestCache(std::unique_ptr<Database> db);
    TestCache(TestCache&& other) noexcept;
    TestCache& operator=(TestCache&& other) noexcept;
    ~TestCache();

    Database& operator*() const { return *m_db; }
    Database* operator->() const { return m_db.get(); }
    Database* get() const { return m_db.get(); }
    explicit operator bool() const { return m_db != nullptr; }
    // Closes the cache now.
    void reset();
    // Hands the cache over to the caller, who deletes it (a suite's shared cache).
    Database* release();

private:
    std::unique_ptr<Database> m_db;
};

// Database::open for tests: the cache, or why it cannot be opened.
Result<TestCache> openTestCache(const std::string& path);

// The cache at `path`, opened (a test failure, and none, when it cannot be).
TestCache openCacheOk(const std::string& path);

inline CheckRun completedRun(const std::string& sha, const std::string& job, int attempt,
                             Conclusion conclusion, EpochSeconds commitTime)
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{sha};
    run.workflow = "CI";
    run.jobName = job;
    run.runId = "run-" + sha + "-" + job;
    run.runAttempt = attempt;
    run.checkRunId = CheckRunId{"cr-" + sha + "-" + job + "-" + std::to_string(attempt)};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = conclusion;
    run.reported.startedAt = commitTime;
    run.reported.completedAt = commitTime + 600;
    run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/" + run.runId;
    run.reported.artifactUrl = run.reported.runUrl + "/artifacts";
    return run;
}

// Stores the run (and its commit at `commitTime`); returns its row id.
CheckRunRow addRun(Database& cache, const CheckRun& run, EpochSeconds commitTime);

inline TestCaseResult makeCase(const std::string& cls, const std::string& name,
                               TestOutcome outcome = TestOutcome::Passed,
                               const std::string& message = {})
{
    TestCaseResult c;
    c.file = "test/test_ops.py";
    c.className = cls;
    c.name = name;
    c.identity = c.file + "::" + cls + "::" + name;
    c.baseName = cls + "::" + name;
    c.outcome = outcome;
    c.durationSeconds = 0.25;
    c.message.text = message;
    c.message.fullBytes = message.size();
    return c;
}

} // namespace relayhud::testing
