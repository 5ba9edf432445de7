// Building a section's index and listing a base method's candidates
// (oot_test_utilities.py:231-298 _build_test_entry_map and
// _regex_entries_for_name; oot_test_base_common.py:491-499 the exact
// entries first, then regex entries not already present).
#include "resolver_index.h"

#include "relayhud/config/spyre_names.h"

#include <re2/re2.h>

#include <algorithm>

namespace relayhud::config {
namespace {

// The listing test_model_ops_v2.py builds its op list from, compared with
// `target in entry.names`: the whole name, class included.
constexpr std::string_view kModelOpsListing = "TestSpyreModelOps::test_model_ops_db";

std::string modelOpsKey(std::string_view op, std::size_t index)
{
    std::string key(op);
    std::replace(key.begin(), key.end(), '.', '_');
    return key + "__" + std::to_string(index);
}

bool hasEntry(const std::vector<Candidate>& list, std::size_t entry)
{
    return std::any_of(list.begin(), list.end(),
                       [entry](const Candidate& c) { return c.entry == entry; });
}

} // namespace

Resolver::Globals::Globals(const GlobalSection& global)
{
    for (const NamedOption& option : global.supportedOps) {
        opsByName[option.name] = &option;
        opsBySanitized[sanitizedOp(option.name)] = &option;
        anyOpForcesXfail = anyOpForcesXfail || option.forceXfail;
    }
    for (const NamedOption& option : global.supportedDtypes) {
        dtypes.emplace_back(canonicalDtype(option.name));
        if (option.forceXfail)
            forceXfailDtypes.emplace_back(canonicalDtype(option.name));
    }
}

Resolver::Section::Section(const FileSection& file, const Globals& globals)
{
    entryDtypes.reserve(file.tests.size());
    for (const TestEntry& entry : file.tests) {
        if (!entry.dtypes.include.empty()) {
            std::vector<std::string> set;
            for (const std::string& d : entry.dtypes.include)
                set.emplace_back(canonicalDtype(d));
            entryDtypes.emplace_back(std::move(set));
        } else if (!globals.dtypes.empty()) {
            entryDtypes.emplace_back(globals.dtypes);
        } else {
            entryDtypes.emplace_back(std::nullopt);
        }
    }
    std::size_t regexOrder = 0;
    std::size_t modelOpsIndex = 0;
    for (std::size_t e = 0; e < file.tests.size(); ++e) {
        const TestEntry& entry = file.tests[e];
        bool modelOpsEntry = false;
        for (std::size_t n = 0; n < entry.names.size(); ++n) {
            const NameItem& item = entry.names[n];
            modelOpsEntry = modelOpsEntry || item.name == kModelOpsListing;
            const Candidate candidate{e, n, item.regex};
            if (!item.regex) {
                exact[item.method].push_back(candidate);
                continue;
            }
            const RegexRef ref{candidate, regexOrder++};
            if (item.regexStatus == RegexStatus::Invalid) {
                invalid.push_back("line " + std::to_string(item.pos.line) + ": '" + item.method
                                  + "' does not compile");
                continue;
            }
            const RegexCheck check = checkNameRegex(item.method);
            if (check.status == RegexStatus::Ok && regexSet.add(check)) {
                regexes.push_back(ref);
                single.emplace(std::pair{e, n},
                               std::make_unique<RE2>(check.re2Pattern, RE2::Quiet));
            } else {
                unsupported.push_back(ref);
            }
        }
        // Every include item counts, registered op or not: an op missing from
        // OP_REGISTRY would shift the numbers, and we cannot know the registry.
        if (modelOpsEntry)
            for (const std::string& op : entry.ops.include)
                modelOps.emplace(modelOpsKey(op, modelOpsIndex++), e);
    }
    regexSet.compile();
}

Resolver::Section::~Section() = default;

void Resolver::Section::candidates(std::string_view base, std::vector<Candidate>& out,
                                   const RegexRef* extra) const
{
    out.clear();
    if (const auto it = exact.find(base); it != exact.end())
        for (const Candidate& c : it->second)
            if (!hasEntry(out, c.entry))
                out.push_back(c);
    thread_local std::vector<int> hits;
    regexSet.match(base, hits);
    auto addRegex = [&](const RegexRef& ref) {
        if (!hasEntry(out, ref.candidate.entry))
            out.push_back(ref.candidate);
    };
    // Set indices follow the YAML order; an unsupported regex goes in at its place.
    bool extraDone = extra == nullptr;
    for (const int hit : hits) {
        const RegexRef& ref = regexes[static_cast<std::size_t>(hit)];
        if (!extraDone && extra->order < ref.order) {
            addRegex(*extra);
            extraDone = true;
        }
        addRegex(ref);
    }
    if (!extraDone)
        addRegex(*extra);
}

} // namespace relayhud::config
