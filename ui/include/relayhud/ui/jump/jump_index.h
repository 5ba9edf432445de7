#pragma once
// What Ctrl+K can jump to, read from data already in memory (the matrix
// model's snapshot and the shown run's tests; never the cache), and how a few
// typed characters pick from it: a SHA prefix, a PR as "#123" or "123", or
// part of a backend's, job's or test's name.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/model/test_results.h"

#include <QString>

#include <cstddef>
#include <vector>

namespace relayhud::ui {

struct JumpEntry {
    enum class Kind { Commit, PullRequest, Backend, Job, Test };
    Kind kind = Kind::Commit;
    QString text;   // what is shown and matched: short SHA, "#123", backend, job, test
    QString detail; // shown dimmed: a commit's title, a job's backend and workflow
    // Where to go, found again when the entry is chosen (the matrix may have
    // merged a sync since).
    QString sha; // Commit; PullRequest: its newest head
    QString backend;
    QString workflow; // Job
    QString job;      // Job
    QString test;     // Test: its identity
};

QString kindLabel(JumpEntry::Kind kind); // "Commit", "PR", "Backend", "Job", "Test"

class JumpIndex {
public:
    void setMatrix(const MatrixSnapshot& matrix);
    // The shown run's tests (none: no run shown, or its tests not loaded).
    void setTests(const std::vector<StoredTestResult>& results);

    // The best `limit` entries for `query`: exact and prefix matches before
    // matches inside a name, then commits, PRs, backends, jobs, tests.
    std::vector<JumpEntry> match(const QString& query, std::size_t limit = 50) const;

    std::size_t size() const { return m_entries.size() + m_tests.size(); }

private:
    std::vector<JumpEntry> m_entries; // commits, PRs, backends, jobs
    std::vector<JumpEntry> m_tests;
    std::vector<QString> m_keys;     // lower-cased: a commit's full SHA, the others' text
    std::vector<QString> m_testKeys; // lower-cased identities
};

} // namespace relayhud::ui
