#pragma once
// The variants an edit is proved on: one method's variants across every
// dtype and test type the config could treat differently, resolved before
// the edit and again after it (spec section 9: "recompute for the target
// method ... refuse the edit if anything else changes or the target does
// not reach the new mode").
#include "relayhud/config/resolver.h"

#include <string>
#include <vector>

namespace relayhud::config {

class Probes {
public:
    // `requested` is the variant the user named and `decided` its
    // resolution: the variants its deciding entry (or the unlisted mode)
    // governs are the ones the edit moves; the rest must keep their outcome.
    Probes(const Resolver& before, std::size_t file, const std::string& base,
           const VariantQuery& requested, const Resolution& decided, const ResolveContext& context);

    // After the edit: the governed variants resolve to `target` through the
    // same filters, every other variant as before, and something changed.
    Result<void> prove(const OutcomeConfig& after, Mode target) const;

    // "test_x_spyre_float32 is decided by the entry at line 40 and keeps xfail".
    std::vector<std::string> keptByOthers() const;

private:
    struct Probe {
        VariantQuery query;
        ResolveContext context;
        Resolution before;
        bool governed = false;
    };
    std::vector<Probe> m_probes;
    const OutcomeConfig& m_before;
    std::size_t m_file = 0;
};

} // namespace relayhud::config
