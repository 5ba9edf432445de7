#pragma once
// The test universe of a (backend, matrix config): every test its CI can
// collect, in a fixed order, with an outcome that depends only on (seed,
// backend, config, test) so a test's history means something across SHAs.
// A shard runs its own share of the universe; a job with N tests runs the
// first N cases of its shard, so upstream "adds tests" as N creeps up.
#include "sim_catalog.h"
#include "sim_random.h"
#include "sim_test_names.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace relayhud::sim {

enum class StableOutcome : std::uint8_t { Pass, Skip, XFail, XPass };
// How a case fails when it fails: a pass-stable case breaks with an
// assertion, a backend error or in setup; an xfail-stable case by passing.
enum class FailureKind : std::uint8_t { Assertion, BackendError, SetupError, XPassStrict };

// Naming of a backend's device in instantiated test names.
struct TestFlavor {
    std::string repo;
    std::string device;      // "spyre": method suffix and messages
    std::string classSuffix; // "PRIVATEUSE1"
    bool tags = false;       // torch-spyre's op__/dtype__/... tag properties
};

// One case: static names from sim_test_names plus parameter indices.
struct CaseRef {
    const TestFamily* family = nullptr;
    std::uint32_t generator = 0; // report order: by generator, then index
    std::uint16_t method = 0;
    std::uint16_t first = 0;
    std::uint16_t second = 0;
    std::uint64_t index = 0; // in the universe
};

class TestUniverse {
public:
    TestUniverse(std::uint64_t seed, const BackendSpec& backend, std::string_view config);

    std::uint64_t size() const { return m_size; }
    const TestFlavor& flavor() const { return m_flavor; }
    const std::string& config() const { return m_config; }

    // Universe index of a shard's position-th case: the shard's own residue
    // class first, then the other shards' cases, so positions never repeat.
    std::uint64_t indexAt(int shard, int numShards, std::uint64_t position) const;
    // The shard's first `count` cases (at most size()), in report order.
    std::vector<CaseRef> shardCases(int shard, int numShards, std::uint64_t count) const;

    StableOutcome outcome(std::uint64_t index) const;
    FailureKind failureKind(std::uint64_t index) const; // meaningful for Pass and XFail
    std::uint64_t hash(std::uint64_t index, std::uint64_t salt) const;

    void appendClass(std::string& out, const CaseRef& c) const;
    void appendName(std::string& out, const CaseRef& c) const;
    // The file a report names: torch-spyre's run_test.sh runs its own
    // plain-TestCase files through a generated `<stem>__oot_wrapper.py`
    // (tests/oot_framework/run_test.sh:970, 1230 @539fd3b0), so their reports
    // name the wrapper; a config still lists the original.
    std::string reportedFile(const TestFamily& family) const;
    std::string nodeId(const CaseRef& c) const; // file::Class::name
    void appendNodeId(std::string& out, const CaseRef& c) const;
    CaseRef caseAt(std::uint64_t index) const;

private:
    struct Generator {
        const TestFamily* family;
        std::uint16_t method;
        std::uint32_t size;
    };
    void materializeTo(std::uint64_t index) const; // callers hold m_mutex

    TestFlavor m_flavor;
    std::string m_config;
    std::uint64_t m_seed = 0;
    std::vector<std::vector<Generator>> m_tiers;
    std::vector<std::uint32_t> m_tierLongest;
    std::uint64_t m_size = 0;
    mutable std::mutex m_mutex;
    mutable std::vector<CaseRef> m_cases; // materialized prefix
    mutable std::size_t m_tier = 0;       // round-robin cursor
    mutable std::uint32_t m_round = 0;
    mutable std::size_t m_next = 0;
    mutable std::uint32_t m_ordinalBase = 0;
};

// An op as torch-spyre marks it and test names carry it: "nn.functional.relu"
// -> "nn_functional_relu".
std::string underscored(std::string_view text);

// Universes by (backend repo, config), built on first use. Thread-safe.
class TestCatalog {
public:
    explicit TestCatalog(std::uint64_t seed) : m_seed(seed) {}
    const TestUniverse& universe(const BackendSpec& backend, const std::string& config);
    // Skipped and xfailed cases among a job's first `count` (cached per shard).
    std::int64_t skippedAmong(const BackendSpec& backend, const JobSpec& job, std::int64_t count);

private:
    std::uint64_t m_seed;
    std::mutex m_mutex;
    std::map<std::pair<std::string, std::string>, std::unique_ptr<TestUniverse>> m_universes;
    std::map<std::tuple<const TestUniverse*, int, int>, std::vector<std::uint32_t>> m_skipPrefix;
};

} // namespace relayhud::sim

namespace relayhud::sim {

// A test chosen to fail in a job: one of the job's first testsTotal cases
// (so every later row of the job runs it too) that normally passes, or, when
// strict XPASSes are allowed, one that normally xfails.
struct FailingPick {
    std::string nodeId;
    bool xpassStrict = false;
};

FailingPick pickFailingTest(SplitMix64& rng, const TestUniverse& universe, const JobSpec& job,
                            bool ordinaryOnly);

} // namespace relayhud::sim
