#include "relayhud/config/config_merge.h"

#include <algorithm>

namespace relayhud::config {
namespace {

std::string where(const MergeInput& input, const SourcePos& pos)
{
    return input.source + ":" + std::to_string(pos.line);
}

// _merge_file_entries: by path as written, in order of first appearance.
void mergeFiles(const std::vector<MergeInput>& inputs, MergedConfig& out)
{
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (FileSection section : inputs[i].config->files) {
            section.origin = i;
            for (TestEntry& entry : section.tests)
                entry.origin = i;
            auto existing =
                std::find_if(out.config.files.begin(), out.config.files.end(),
                             [&](const FileSection& f) { return f.path == section.path; });
            if (existing == out.config.files.end()) {
                out.config.files.push_back(std::move(section));
                continue;
            }
            if (existing->effectiveUnlistedMode() != section.effectiveUnlistedMode())
                out.notes.push_back("unlisted_test_mode of " + section.path + " at "
                                    + where(inputs[i], section.pos) + " ("
                                    + modeName(section.effectiveUnlistedMode())
                                    + ") is ignored: the first config's "
                                    + modeName(existing->effectiveUnlistedMode()) + " wins");
            for (TestEntry& entry : section.tests) {
                const bool duplicate =
                    std::any_of(existing->tests.begin(), existing->tests.end(),
                                [&](const TestEntry& t) { return t.mergeKey == entry.mergeKey; });
                if (duplicate) {
                    out.notes.push_back("the entry at " + where(inputs[i], entry.pos)
                                        + " repeats an earlier one (same names, tags and edits) "
                                          "and is dropped, mode included");
                    continue;
                }
                existing->tests.push_back(std::move(entry));
            }
        }
    }
}

// _deep_merge_globals: the first config's list as it is, later ones'
// items added unless an equal item (canonical text) is already there.
void uniteList(bool& seen, std::vector<NamedOption>& into, bool present,
               const std::vector<NamedOption>& from)
{
    if (!present)
        return;
    if (!seen) {
        seen = true;
        into = from;
        return;
    }
    for (const NamedOption& item : from)
        if (std::none_of(into.begin(), into.end(),
                         [&](const NamedOption& o) { return o.canonical == item.canonical; }))
            into.push_back(item);
}

Result<void> mergeGlobals(const std::vector<MergeInput>& inputs, MergedConfig& out)
{
    GlobalSection& global = out.config.global;
    for (const MergeInput& input : inputs) {
        const OutcomeConfig& c = *input.config;
        uniteList(global.hasDtypes, global.supportedDtypes, c.global.hasDtypes,
                  c.global.supportedDtypes);
        uniteList(global.hasOps, global.supportedOps, c.global.hasOps, c.global.supportedOps);
        uniteList(global.hasModules, global.supportedModules, c.global.hasModules,
                  c.global.supportedModules);
        if (!c.hasInputConfig)
            continue;
        if (out.config.hasInputConfig && out.config.inputConfig != c.inputConfig)
            return makeError(input.source
                             + ": global input_config differs from an earlier config's; "
                               "run_test.sh refuses to merge them");
        out.config.hasInputConfig = true;
        out.config.inputConfig = c.inputConfig;
    }
    return {};
}

} // namespace

Result<MergedConfig> mergeOutcomeConfigs(const std::vector<MergeInput>& inputs)
{
    if (inputs.empty())
        return makeError("no config to merge");
    MergedConfig out;
    if (inputs.size() == 1) {
        out.config = *inputs.front().config;
        return out;
    }
    for (const MergeInput& input : inputs) {
        out.config.origins.push_back(input.source);
        out.config.aliasCount += input.config->aliasCount;
    }
    mergeFiles(inputs, out);
    if (Result<void> globals = mergeGlobals(inputs, out); !globals)
        return globals.error();
    return out;
}

} // namespace relayhud::config
