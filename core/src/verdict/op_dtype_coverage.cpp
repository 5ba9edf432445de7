// Op x dtype coverage from torch-spyre's marks, against the config's
// supported_ops and supported_dtypes. A case with several op or dtype marks
// (a test over a tuple of dtypes) counts once under each.
#include "relayhud/verdict/verdict.h"
#include "verdict/marks_text.h"

#include "relayhud/config/spyre_names.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

namespace relayhud::verdict {
namespace {

using Tallies = std::unordered_map<std::string_view, OutcomeTally>;

void tally(OutcomeTally& t, TestOutcome outcome)
{
    if (outcome == TestOutcome::Skipped)
        return;
    ++t.ran;
    t.passed += outcome == TestOutcome::Passed ? 1 : 0;
    t.failed += isFailingOutcome(outcome) ? 1 : 0;
}

// The config names ops raw (`copy_`, `_scaled_mm`) and dtypes maybe as
// `half`; marks are sanitised (`copy`, `scaled_mm`) and say float16. Both
// sides meet through the same normalisation.
std::set<std::string> supportedOps(const std::vector<config::NamedOption>& options)
{
    std::set<std::string> names;
    for (const config::NamedOption& o : options)
        names.insert(config::sanitizedOp(o.name));
    return names;
}

std::set<std::string> supportedDtypes(const std::vector<config::NamedOption>& options)
{
    std::set<std::string> names;
    for (const config::NamedOption& o : options)
        names.insert(std::string(config::canonicalDtype(o.name)));
    return names;
}

// Sorted by name, each marked supported or not; fills the two difference lists
// when the config has a list of this kind.
std::vector<NamedTally> named(const Tallies& tallies, bool hasList,
                              const std::set<std::string>& supported,
                              std::vector<std::string>& neverRan,
                              std::vector<std::string>& notSupported)
{
    std::vector<NamedTally> out;
    for (const auto& [name, t] : tallies)
        out.push_back({std::string(name), t, supported.count(std::string(name)) != 0});
    std::sort(out.begin(), out.end(),
              [](const NamedTally& a, const NamedTally& b) { return a.name < b.name; });
    if (!hasList)
        return out;
    for (const NamedTally& n : out)
        if (!n.supported && n.tally.ran > 0)
            notSupported.push_back(n.name);
    for (const std::string& name : supported) {
        auto it = tallies.find(name);
        if (it == tallies.end() || it->second.ran == 0)
            neverRan.push_back(name);
    }
    return out;
}

} // namespace

OpDtypeCoverage opDtypeCoverage(const config::OutcomeConfig* config,
                                const std::vector<StoredTestResult>& results)
{
    Tallies ops, dtypes;
    std::unordered_map<std::string, OpDtypeCell> cells;
    OpDtypeCoverage out;
    std::vector<std::string_view> caseOps, caseDtypes;
    std::string key;
    for (const StoredTestResult& r : results) {
        caseOps.clear();
        caseDtypes.clear();
        forEachOpDtypeMark(r.marks, [&](MarkKind kind, std::string_view value) {
            (kind == MarkKind::Op ? caseOps : caseDtypes).push_back(value);
        });
        if (caseOps.empty() && caseDtypes.empty()) {
            ++out.unmarkedCases;
            continue;
        }
        for (std::string_view op : caseOps)
            tally(ops[op], r.outcome);
        for (std::string_view dtype : caseDtypes)
            tally(dtypes[dtype], r.outcome);
        if (caseDtypes.empty())
            caseDtypes.push_back({});
        for (std::string_view op : caseOps)
            for (std::string_view dtype : caseDtypes) {
                key.assign(op).append(1, '\0').append(dtype);
                auto [it, fresh] = cells.try_emplace(key);
                if (fresh)
                    it->second = {std::string(op), std::string(dtype), {}};
                tally(it->second.tally, r.outcome);
            }
    }
    // An empty list filters nothing (oot_upstream_patcher.py:301-363,
    // oot_test_config_models.py:966-970).
    const bool hasOps = config && !config->global.supportedOps.empty();
    const bool hasDtypes = config && config->global.filtersDtypes();
    out.hasSupportedLists = hasOps || hasDtypes;
    out.ops = named(ops, hasOps,
                    config ? supportedOps(config->global.supportedOps) : std::set<std::string>{},
                    out.opsNeverRan, out.opsNotSupported);
    out.dtypes =
        named(dtypes, hasDtypes,
              config ? supportedDtypes(config->global.supportedDtypes) : std::set<std::string>{},
              out.dtypesNeverRan, out.dtypesNotSupported);
    for (auto& [k, cell] : cells)
        out.cells.push_back(std::move(cell));
    std::sort(out.cells.begin(), out.cells.end(), [](const OpDtypeCell& a, const OpDtypeCell& b) {
        return a.op != b.op ? a.op < b.op : a.dtype < b.dtype;
    });
    return out;
}

} // namespace relayhud::verdict
