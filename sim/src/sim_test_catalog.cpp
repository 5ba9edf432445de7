#include "sim_test_catalog.h"
#include "relayhud/util/hash.h"

#include "sim_random.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

std::size_t sizeOf(const Names* names) { return names && !names->empty() ? names->size() : 1; }

bool deviceShaped(NameShape shape)
{
    return shape != NameShape::Plain && shape != NameShape::Bracket;
}

TestFlavor flavorOf(const BackendSpec& backend)
{
    TestFlavor out;
    out.repo = backend.backend.repo;
    out.device = backend.device;
    out.classSuffix = backend.classSuffix;
    out.tags = backend.device == "spyre";
    return out;
}

void appendUnderscored(std::string& out, std::string_view text)
{
    for (char c : text)
        out.push_back(c == '.' ? '_' : c);
}

} // namespace

std::string underscored(std::string_view text)
{
    std::string out;
    appendUnderscored(out, text);
    return out;
}

TestUniverse::TestUniverse(std::uint64_t seed, const BackendSpec& backend, std::string_view config)
    : m_flavor(flavorOf(backend)), m_config(config),
      m_seed(mixSeed({seed, fnv1a(backend.backend.repo), fnv1a(config)}))
{
    for (Suite suite : suiteTiers(config)) {
        std::vector<Generator> tier;
        std::uint32_t longest = 0;
        for (const TestFamily& family : familiesOf(suite)) {
            const auto size =
                static_cast<std::uint32_t>(sizeOf(family.first) * sizeOf(family.second));
            for (std::size_t m = 0; m < family.methods.size(); ++m) {
                tier.push_back({&family, static_cast<std::uint16_t>(m), size});
                m_size += size;
                longest = std::max(longest, size);
            }
        }
        m_tiers.push_back(std::move(tier));
        m_tierLongest.push_back(longest);
    }
}

std::uint64_t TestUniverse::indexAt(int shard, int numShards, std::uint64_t position) const
{
    if (numShards <= 1)
        return position;
    const auto n = static_cast<std::uint64_t>(numShards);
    const auto k = static_cast<std::uint64_t>(std::clamp(shard, 1, numShards) - 1);
    const std::uint64_t own = m_size > k ? (m_size - k + n - 1) / n : 0;
    if (position < own)
        return position * n + k;
    const std::uint64_t j = position - own;
    const std::uint64_t block = j / (n - 1);
    const std::uint64_t r = j % (n - 1);
    return block * n + (r < k ? r : r + 1);
}

void TestUniverse::materializeTo(std::uint64_t index) const
{
    if (m_cases.capacity() <= index)
        m_cases.reserve(std::max<std::size_t>(index + 1, 2 * m_cases.capacity()));
    while (m_cases.size() <= index && m_tier < m_tiers.size()) {
        const auto& tier = m_tiers[m_tier];
        if (m_next == tier.size()) { // a round over the tier's generators is done
            m_next = 0;
            if (++m_round >= m_tierLongest[m_tier]) {
                m_ordinalBase += static_cast<std::uint32_t>(tier.size());
                ++m_tier;
                m_round = 0;
            }
            continue;
        }
        const Generator& g = tier[m_next];
        const auto ordinal = m_ordinalBase + static_cast<std::uint32_t>(m_next++);
        if (m_round >= g.size)
            continue;
        const auto second = static_cast<std::uint32_t>(sizeOf(g.family->second));
        m_cases.push_back(CaseRef{g.family, ordinal, g.method,
                                  static_cast<std::uint16_t>(m_round / second),
                                  static_cast<std::uint16_t>(m_round % second), m_cases.size()});
    }
}

CaseRef TestUniverse::caseAt(std::uint64_t index) const
{
    std::lock_guard lock(m_mutex);
    materializeTo(index);
    return m_cases.at(index);
}

std::vector<CaseRef> TestUniverse::shardCases(int shard, int numShards, std::uint64_t count) const
{
    count = std::min(count, m_size);
    std::vector<CaseRef> out;
    out.reserve(count);
    std::lock_guard lock(m_mutex);
    for (std::uint64_t p = 0; p < count; ++p) {
        const std::uint64_t index = indexAt(shard, numShards, p);
        materializeTo(index);
        out.push_back(m_cases[index]);
    }
    std::sort(out.begin(), out.end(), [](const CaseRef& a, const CaseRef& b) {
        return std::tie(a.generator, a.first, a.second) < std::tie(b.generator, b.first, b.second);
    });
    return out;
}

std::uint64_t TestUniverse::hash(std::uint64_t index, std::uint64_t salt) const
{
    return mixSeed({m_seed, index, salt});
}

StableOutcome TestUniverse::outcome(std::uint64_t index) const
{
    const double r = static_cast<double>(hash(index, 1) >> 11) * 0x1.0p-53;
    if (r < 0.06)
        return StableOutcome::XFail;
    if (r < 0.09)
        return StableOutcome::Skip;
    if (r < 0.095)
        return StableOutcome::XPass;
    return StableOutcome::Pass;
}

FailureKind TestUniverse::failureKind(std::uint64_t index) const
{
    if (outcome(index) == StableOutcome::XFail)
        return FailureKind::XPassStrict;
    const std::uint64_t r = hash(index, 2) % 100;
    if (r < 70)
        return FailureKind::Assertion;
    return r < 90 ? FailureKind::BackendError : FailureKind::SetupError;
}

void TestUniverse::appendClass(std::string& out, const CaseRef& c) const
{
    out += c.family->testClass;
    if (deviceShaped(c.family->shape))
        out += m_flavor.classSuffix;
}

void TestUniverse::appendName(std::string& out, const CaseRef& c) const
{
    const TestFamily& f = *c.family;
    out += f.methods[c.method];
    const bool hasFirst = f.first && !f.first->empty();
    const bool hasSecond = f.second && !f.second->empty();
    if (f.shape == NameShape::Bracket) {
        if (!hasFirst)
            return;
        out += '[';
        out += (*f.first)[c.first];
        if (hasSecond) {
            out += '-';
            out += (*f.second)[c.second];
        }
        out += ']';
        return;
    }
    if (hasFirst && f.shape != NameShape::Dtype) {
        out += '_';
        appendUnderscored(out, (*f.first)[c.first]);
    }
    if (deviceShaped(f.shape) && f.shape != NameShape::Plain) {
        out += '_';
        out += m_flavor.device;
    }
    if (hasSecond && f.shape != NameShape::Op) {
        out += '_';
        appendUnderscored(out, (*f.second)[c.second]);
    }
}

std::string TestUniverse::nodeId(const CaseRef& c) const
{
    std::string out;
    appendNodeId(out, c);
    return out;
}

std::string TestUniverse::reportedFile(const TestFamily& family) const
{
    std::string file(family.file);
    if (!m_flavor.tags || file.rfind("tests/", 0) != 0 || family.shape != NameShape::Plain
        || file.size() < 3)
        return file;
    return file.substr(0, file.size() - 3) + "__oot_wrapper.py";
}

void TestUniverse::appendNodeId(std::string& out, const CaseRef& c) const
{
    out += reportedFile(*c.family);
    out += "::";
    if (!c.family->testClass.empty()) {
        appendClass(out, c);
        out += "::";
    }
    appendName(out, c);
}

const TestUniverse& TestCatalog::universe(const BackendSpec& backend, const std::string& config)
{
    std::lock_guard lock(m_mutex);
    auto& slot = m_universes[{backend.backend.repo, config}];
    if (!slot)
        slot = std::make_unique<TestUniverse>(m_seed, backend, config);
    return *slot;
}

std::int64_t TestCatalog::skippedAmong(const BackendSpec& backend, const JobSpec& job,
                                       std::int64_t count)
{
    const TestUniverse& u = universe(backend, job.config);
    std::lock_guard lock(m_mutex);
    auto& prefix = m_skipPrefix[{&u, job.shard, job.numShards}];
    const auto want = std::min<std::uint64_t>(
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, count)), u.size());
    if (prefix.empty())
        prefix.push_back(0);
    while (prefix.size() <= want) {
        const std::uint64_t position = prefix.size() - 1;
        const StableOutcome o = u.outcome(u.indexAt(job.shard, job.numShards, position));
        const bool skipped = o == StableOutcome::Skip || o == StableOutcome::XFail;
        prefix.push_back(prefix.back() + (skipped ? 1U : 0U));
    }
    return prefix[want];
}

} // namespace relayhud::sim

namespace relayhud::sim {

FailingPick pickFailingTest(SplitMix64& rng, const TestUniverse& universe, const JobSpec& job,
                            bool ordinaryOnly)
{
    const auto limit = std::max<std::uint64_t>(
        1, std::min<std::uint64_t>(universe.size(), static_cast<std::uint64_t>(job.testsTotal)));
    std::uint64_t index = universe.indexAt(job.shard, job.numShards, 0);
    for (int attempt = 0; attempt < 1000; ++attempt) {
        index = universe.indexAt(job.shard, job.numShards, rng.below(limit));
        const StableOutcome o = universe.outcome(index);
        const FailureKind kind = universe.failureKind(index);
        const bool ordinary = kind == FailureKind::Assertion || kind == FailureKind::BackendError;
        if (o == StableOutcome::Pass && (ordinary || !ordinaryOnly))
            break;
        if (o == StableOutcome::XFail && !ordinaryOnly)
            break;
    }
    const bool strict = universe.outcome(index) == StableOutcome::XFail;
    return {universe.nodeId(universe.caseAt(index)), strict};
}

} // namespace relayhud::sim
