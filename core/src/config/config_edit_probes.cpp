#include "config_edit_probes.h"

#include "relayhud/config/spyre_names.h"

#include <algorithm>
#include <set>

namespace relayhud::config {
namespace {

// Every dtype the config names anywhere: the ones its filters and passes
// can tell apart. One dtype none of them names stands for all the others.
std::vector<std::string> dtypesToProbe(const OutcomeConfig& config, std::size_t file,
                                       const std::optional<std::string>& requested)
{
    std::set<std::string> out{"complex128"};
    auto add = [&](const std::string& d) { out.insert(std::string(canonicalDtype(d))); };
    for (const NamedOption& option : config.global.supportedDtypes)
        add(option.name);
    for (const NamedOption& option : config.global.supportedOps)
        for (const std::string& d : option.dtypes)
            add(d);
    for (const TestEntry& entry : config.files[file].tests) {
        for (const std::string& d : entry.dtypes.include)
            add(d);
        for (const std::string& d : entry.dtypes.exclude)
            add(d);
    }
    if (requested)
        add(*requested);
    return {out.begin(), out.end()};
}

bool sameDecider(const Resolution& a, const Resolution& b)
{
    return a.decision == b.decision && a.entryIndex == b.entryIndex;
}

} // namespace

Probes::Probes(const Resolver& before, std::size_t file, const std::string& base,
               const VariantQuery& requested, const Resolution& decided,
               const ResolveContext& context)
    : m_before(before.config()), m_file(file)
{
    std::vector<VariantQuery> queries{requested};
    std::string opPart;
    if (!decided.op.empty()) {
        opPart = "_" + decided.op;
        std::replace(opPart.begin(), opPart.end(), '.', '_');
    }
    const std::string stem = base + opPart + "_" + context.device;
    queries.push_back({requested.file, requested.className, stem, requested.ops, false});
    for (const std::string& dtype : dtypesToProbe(m_before, file, decided.dtype))
        queries.push_back(
            {requested.file, requested.className, stem + "_" + dtype, requested.ops, false});
    std::set<std::string> types;
    for (const Candidate& c : decided.candidates)
        for (const std::string& label : m_before.files[file].tests[c.entry].labels)
            types.insert(label);
    std::vector<ResolveContext> contexts{context};
    for (const std::string& type : types) {
        ResolveContext other = context;
        other.testType = type;
        contexts.push_back(std::move(other));
    }
    ResolveContext unlisted = context;
    unlisted.testType = "a-type-no-entry-lists";
    contexts.push_back(std::move(unlisted));
    for (const ResolveContext& each : contexts)
        for (const VariantQuery& query : queries) {
            Result<Resolution> r = before.resolve(query, each);
            if (!r)
                continue;
            const bool governed = sameDecider(*r, decided);
            m_probes.push_back({query, each, std::move(*r), governed});
        }
}

Result<void> Probes::prove(const OutcomeConfig& after, Mode target) const
{
    const Resolver resolver(after);
    bool changed = false;
    for (const Probe& probe : m_probes) {
        Result<Resolution> now = resolver.resolve(probe.query, probe.context);
        if (!now)
            return makeError(probe.query.method + ": " + now.message());
        const Resolution& was = probe.before;
        if (probe.governed) {
            if (now->outcome == Outcome::CannotJudge || now->configMode != target
                || now->droppedBy != was.droppedBy)
                return makeError(
                    probe.query.method + " would resolve to " + outcomeName(now->outcome) + " ("
                    + now->dropReason
                    + (now->entryIndex
                           ? "decided by the entry at line "
                                 + std::to_string(
                                     after.files[now->fileIndex].tests[*now->entryIndex].pos.line)
                           : std::string("unlisted"))
                    + "), not " + modeName(target));
        } else if (now->outcome != was.outcome || now->finalMode != was.finalMode) {
            return makeError(probe.query.method + " would change from " + outcomeName(was.outcome)
                             + " to " + outcomeName(now->outcome)
                             + ", which its own entry decides");
        }
        changed = changed || now->outcome != was.outcome;
    }
    if (!changed)
        return makeError("it would change no outcome: every variant the entry governs is "
                         "dropped by a filter before its mode counts");
    return {};
}

std::vector<std::string> Probes::keptByOthers() const
{
    std::vector<std::string> out;
    std::set<std::size_t> seen;
    for (const Probe& probe : m_probes) {
        const Resolution& r = probe.before;
        if (probe.governed || !r.entryIndex || r.outcome == Outcome::Dropped
            || probe.context.testType != m_probes.front().context.testType
            || !seen.insert(*r.entryIndex).second)
            continue;
        out.push_back(probe.query.method + " is decided by the entry at line "
                      + std::to_string(m_before.files[m_file].tests[*r.entryIndex].pos.line)
                      + " and keeps " + outcomeName(r.outcome));
    }
    return out;
}

} // namespace relayhud::config
