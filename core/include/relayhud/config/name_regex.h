#pragma once
// A config name's method part as the Python regular expression the framework
// fullmatches it with (the `regex` module, oot_test_utilities.py:16, 231-246
// @539fd3b0), run by RE2 in linear time. Python spellings RE2 reads
// differently are translated ({,n}, \Z); constructs RE2 cannot run at all
// (look-around, back-references, possessive and atomic groups, conditionals)
// are Unsupported: the names they might govern are "cannot judge", never
// guessed. A pattern Python also refuses is Invalid: the framework fails the
// collection of the whole file.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

enum class RegexStatus : unsigned char { Ok, Invalid, Unsupported };

struct RegexCheck {
    RegexStatus status = RegexStatus::Ok;
    std::string re2Pattern; // the translation RE2 runs (Ok only)
    std::string message;    // why not Ok: "missing ) at 'test_(a'"
};

RegexCheck checkNameRegex(std::string_view pattern);

// Many name patterns matched at once, each whole against the text (RE2::Set,
// ANCHOR_BOTH): one pass over the text whatever the number of patterns.
class NameRegexSet {
public:
    NameRegexSet();
    ~NameRegexSet();
    NameRegexSet(NameRegexSet&&) noexcept;
    NameRegexSet& operator=(NameRegexSet&&) noexcept;

    // Returns false (and adds nothing) when RE2 refuses the translation.
    bool add(const RegexCheck& check);
    // Compiles; call once after the last add().
    bool compile();
    std::size_t size() const { return m_count; }
    // Indices (in add order) of every pattern that fullmatches `text`, ascending.
    void match(std::string_view text, std::vector<int>& out) const;

private:
    struct Impl; // an RE2::Set
    std::unique_ptr<Impl> m_impl;
    std::size_t m_count = 0;
    bool m_compiled = false;
};

} // namespace relayhud::config
