#pragma once
// What a suggestion pass (suggest.cpp) reads once and shares: runs by their
// row (the baselines and other attempts of many tests), one JobAttributor
// per job, and what one run gives every test in it. Private to triage.
#include "suggest_why.h"

#include "relayhud/triage/attribution.h"
#include "relayhud/triage/evidence_source.h"
#include "relayhud/triage/suggest.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace relayhud::triage {

// Runs looked up once per batch: the baseline and the other attempts are
// shared by every test of a run, and often by several runs.
class RunLookup {
public:
    struct Entry {
        EvidenceRun run;
        std::string upstreamRepo;
        std::optional<TestCounts> reportedTests; // the run's own counts
    };

    explicit RunLookup(const EvidenceSource& facts) : m_facts(facts) {}

    Result<Entry> get(CheckRunRow row)
    {
        if (auto it = m_entries.find(row); it != m_entries.end())
            return it->second;
        auto run = m_facts.checkRun(row);
        if (!run)
            return run.error();
        Entry entry;
        entry.run.checkRunRow = row;
        entry.run.downstreamRepo = run->downstreamRepo;
        entry.run.workflow = run->workflow;
        entry.run.jobName = run->jobName;
        entry.run.sha = run->upstreamSha;
        entry.run.runAttempt = run->runAttempt;
        entry.run.conclusion = run->reported.conclusion;
        entry.run.startedAt = run->reported.startedAt.value_or(0);
        entry.run.prNumber = run->prNumber;
        entry.run.eventType = run->eventType;
        entry.upstreamRepo = run->upstreamRepo;
        entry.reportedTests = run->reported.tests;
        m_entries.emplace(row, entry);
        return entry;
    }

    Result<EvidenceRun> run(CheckRunRow row)
    {
        auto entry = get(row);
        if (!entry)
            return entry.error();
        return std::move(entry->run);
    }

private:
    const EvidenceSource& m_facts;
    std::map<CheckRunRow, Entry> m_entries;
};

// One JobAttributor per job, read when its first failing test needs it.
class Attributors {
public:
    Attributors(const EvidenceSource& facts, const AttributionOptions& options)
        : m_facts(facts), m_options(options)
    {
    }

    Result<const JobAttributor*> forRun(CheckRunRow row)
    {
        auto job = m_facts.jobOfRun(row);
        if (!job)
            return job.error();
        if (auto it = m_jobs.find(*job); it != m_jobs.end())
            return it->second.get();
        auto timeline = m_facts.jobTimeline(*job);
        if (!timeline)
            return timeline.error();
        auto made = std::make_unique<JobAttributor>(std::move(*timeline), m_options);
        const JobAttributor* out = made.get();
        m_jobs.emplace(*job, std::move(made));
        return out;
    }

private:
    const EvidenceSource& m_facts;
    const AttributionOptions& m_options;
    std::map<JobRow, std::unique_ptr<JobAttributor>> m_jobs;
};

// What one run gives every target in it.
struct RunFacts {
    EvidenceRun here;
    std::string upstreamRepo;
    std::optional<JobFailureLine> line;
    const JobAttributor* attributor = nullptr; // loaded when a test fails
    std::optional<TimelineIndex> index;        // this run in it
    bool hasResults = false; // stored test results (TestResultStore::testRunForCheckRun)
    std::optional<TestCounts> reportedTests; // what the run said of its tests
    int failingCount = 0;                    // failed or errored in its results
};

// What the why-sentences read of a run whose attribution was made
// (facts.attributor and facts.index are set).
inline WhyContext whyContext(const RunFacts& facts, const AttributionOptions& options)
{
    return {facts.attributor->timeline(), *facts.index, facts.here, options};
}

} // namespace relayhud::triage
