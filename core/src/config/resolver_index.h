#pragma once
// A file section's names indexed for the resolver: exact names by method,
// regexes in one RE2::Set, the ones RE2 cannot run kept apart, and
// test_model_ops_db's op-index map.
#include "relayhud/config/name_regex.h"
#include "relayhud/config/resolver.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace relayhud::config {

struct Resolver::Section {
    struct RegexRef {
        Candidate candidate;
        std::size_t order = 0; // position among the section's regex names
    };
    std::unordered_map<std::string, std::vector<Candidate>> exact; // by method, YAML order
    NameRegexSet regexSet;
    std::vector<RegexRef> regexes;     // by set index
    std::vector<RegexRef> unsupported; // regexes RE2 cannot run
    std::vector<std::string> invalid;  // "line L: 'x' does not compile"
    // "<name with . as _>__<n>" -> entry (test_model_ops_v2.py:84-158).
    std::unordered_map<std::string, std::size_t> modelOps;
    // Each runnable regex on its own, by (entry, name), for "does this name
    // match that method" questions.
    std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<re2::RE2>> single;

    explicit Section(const FileSection& file);
    ~Section();

    // Exact candidates, then regex candidates (each entry once), plus the
    // unsupported regex `extra` when set, at its place.
    void candidates(std::string_view base, std::vector<Candidate>& out,
                    const RegexRef* extra = nullptr) const;
};

} // namespace relayhud::config
