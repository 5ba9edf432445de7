#pragma once
// A file section's names indexed for the resolver: exact names by method,
// regexes in one RE2::Set, the ones RE2 cannot run kept apart, and
// test_model_ops_db's op-index map.
#include "relayhud/config/name_regex.h"
#include "relayhud/config/resolver.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace relayhud::config {

// Heterogeneous lookup: find a std::string key by a string_view.
struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const
    {
        return std::hash<std::string_view>{}(text);
    }
};
template <typename Value>
using NameMap = std::unordered_map<std::string, Value, NameHash, std::equal_to<>>;

// The global section, indexed once per config.
struct Resolver::Globals {
    // supported_ops items by name as written and as a mark would spell it;
    // the last item of a name wins, as the framework's dict by name does.
    NameMap<const NamedOption*> opsByName;
    NameMap<const NamedOption*> opsBySanitized;
    std::vector<std::string> dtypes; // canonical; empty: no filter
    std::vector<std::string> forceXfailDtypes;
    bool anyOpForcesXfail = false; // some supported_ops item sets force_xfail

    explicit Globals(const GlobalSection& global);
};

struct Resolver::Section {
    struct RegexRef {
        Candidate candidate;
        std::size_t order = 0; // position among the section's regex names
    };
    NameMap<std::vector<Candidate>> exact; // by method, YAML order
    NameRegexSet regexSet;
    std::vector<RegexRef> regexes;     // by set index
    std::vector<RegexRef> unsupported; // regexes RE2 cannot run
    std::vector<std::string> invalid;  // "line L: 'x' does not compile"
    // "<name with . as _>__<n>" -> entry (test_model_ops_v2.py:84-158).
    std::unordered_map<std::string, std::size_t> modelOps;
    // Each runnable regex on its own, by (entry, name), for "does this name
    // match that method" questions.
    std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<re2::RE2>> single;

    // Per entry, _entry_dtype_set (oot_test_utilities.py:301-318): its
    // include, else the global list, canonical; none means "any dtype".
    std::vector<std::optional<std::vector<std::string>>> entryDtypes;

    Section(const FileSection& file, const Globals& globals);
    ~Section();

    // Exact candidates, then regex candidates (each entry once), plus the
    // unsupported regex `extra` when set, at its place.
    void candidates(std::string_view base, std::vector<Candidate>& out,
                    const RegexRef* extra = nullptr) const;
};

} // namespace relayhud::config
