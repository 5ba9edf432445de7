#pragma once
// One variant's walk through spec section 6 once its candidates are known:
// which entry decides, then the filters, force_xfail and the mode, with the
// sentences explain prints when asked.
#include "resolver_index.h"

#include "relayhud/config/spyre_names.h"

namespace relayhud::config {

// It writes straight into the caller's Resolution (a Result's, most often):
// a Resolution is a dozen strings and vectors, and resolving 100k variants
// moved each one twice.
class ResolveSteps {
public:
    ResolveSteps(const OutcomeConfig& config, const Resolver::Globals& globals,
                 std::size_t fileIndex, const VariantQuery& query, const ResolveContext& context,
                 bool explain, Resolution& out);

    const std::string& base() const { return m_out.baseMethod; }
    const std::string& untrimmedBase() const { return m_variant.untrimmedBase; }
    void useUntrimmedBase();
    // Decides `out`; its candidates are left to the caller.
    void run(const std::vector<Candidate>& candidates, const Resolver::Section& section);

private:
    void choose(const std::vector<Candidate>& candidates, const Resolver::Section& section);
    void explainCandidates(const std::vector<Candidate>& candidates);
    bool decidedByModelOp(const Resolver::Section& section);
    const Candidate& pick(const std::vector<Candidate>& candidates,
                          const Resolver::Section& section, std::string& why) const;
    bool generated(const std::vector<Candidate>& candidates,
                   const Resolver::Section& section); // spec 6.1-6.2
    bool moduleDtypeGenerated();                      // @modules dtypes
    bool labelsKeep();                                // 6.3
    bool dtypeKeeps();                                // 6.4
    bool opKeeps();                                   // 6.5
    void forceXfail();                                // 6.6-6.7
    void drop(DropStep step, std::string reason);
    template <typename Make>
    void step(Make&& make);
    void note(std::string text);
    std::string entryAt(std::size_t entry) const;
    const TestEntry* entry() const;
    // The op name the filters compare (spec 6.5), read from the name only
    // when a filter asks: most variants meet none that does.
    const std::optional<std::string>& frameworkOp();

    const OutcomeConfig& m_config;
    const Resolver::Globals& m_globals;
    const FileSection& m_file;
    const VariantQuery& m_query;
    const ResolveContext& m_context;
    bool m_explain;
    VariantName m_variant;
    Resolution& m_out;
    std::optional<std::optional<std::string>> m_frameworkOp; // unset: not read yet
};

} // namespace relayhud::config
