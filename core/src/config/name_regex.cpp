// Python `regex` spellings carried to RE2, and what RE2 cannot run.
#include "relayhud/config/name_regex.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <cctype>

namespace relayhud::config {
namespace {

RE2::Options nameOptions()
{
    RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(8 << 20); // a name pattern is short; refuse monsters
    return options;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "(?=", "(?!", "(?<=", "(?<!", "(?>", "(?P=", "(?(", "(?|", "(?#" at `at`:
// look-around, atomic groups, named back-references, conditionals, branch
// reset and comments. RE2 has none of them.
std::string_view unsupportedGroup(std::string_view p, std::size_t at)
{
    static constexpr std::string_view kGroups[] = {
        "(?<=", "(?<!", "(?P=", "(?=", "(?!", "(?>", "(?(", "(?|", "(?#",
    };
    for (const std::string_view group : kGroups)
        if (p.substr(at, group.size()) == group)
            return group;
    return {};
}

struct Translation {
    std::string text;
    std::string unsupported; // a construct RE2 cannot run, "" when none
};

// One pass that keeps track of character classes (where none of this
// applies) and escapes.
Translation translate(std::string_view p)
{
    Translation out;
    out.text.reserve(p.size() + 4);
    bool inClass = false;
    bool afterQuantifier = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        const bool wasQuantifier = afterQuantifier;
        afterQuantifier = false;
        if (c == '\\' && i + 1 < p.size()) {
            const char next = p[i + 1];
            if (!inClass && isDigit(next) && next != '0' && out.unsupported.empty())
                out.unsupported = std::string("back-reference \\") + next;
            out.text += (!inClass && next == 'Z') ? std::string("\\z") : std::string{c, next};
            ++i;
            continue;
        }
        if (inClass) {
            if (c == ']')
                inClass = false;
            out.text += c;
            continue;
        }
        if (c == '[') {
            inClass = true;
            out.text += c;
            // A ']' right after '[' or '[^' is a member, not the end.
            if (i + 1 < p.size() && p[i + 1] == '^')
                out.text += p[++i];
            if (i + 1 < p.size() && p[i + 1] == ']')
                out.text += p[++i];
            continue;
        }
        if (c == '(' && out.unsupported.empty()) {
            if (const std::string_view group = unsupportedGroup(p, i); !group.empty())
                out.unsupported = "the group " + std::string(group) + "...)";
            else if (p.substr(i, 3) == "(?<" && i + 3 < p.size()
                     && (std::isalpha(static_cast<unsigned char>(p[i + 3])) || p[i + 3] == '_')) {
                out.text += "(?P<"; // the regex module's (?<name>...)
                i += 2;
                continue;
            }
        }
        if (c == '{' && i + 1 < p.size() && p[i + 1] == ',') {
            // Python reads {,n} as {0,n}; RE2 as the literal text.
            std::size_t j = i + 2;
            while (j < p.size() && isDigit(p[j]))
                ++j;
            if (j > i + 2 && j < p.size() && p[j] == '}') {
                out.text += "{0";
                continue;
            }
        }
        if (c == '+' && wasQuantifier && out.unsupported.empty())
            out.unsupported = "a possessive quantifier (" + std::string(1, p[i - 1]) + "+)";
        afterQuantifier = c == '*' || c == '+' || c == '?' || c == '}';
        out.text += c;
    }
    return out;
}

} // namespace

RegexCheck checkNameRegex(std::string_view pattern)
{
    RegexCheck check;
    Translation t = translate(pattern);
    if (!t.unsupported.empty()) {
        check.status = RegexStatus::Unsupported;
        check.message = t.unsupported + " is valid Python but RE2 cannot run it";
        return check;
    }
    const RE2 re(t.text, nameOptions());
    if (re.ok()) {
        check.re2Pattern = std::move(t.text);
        return check;
    }
    switch (re.error_code()) {
    case RE2::ErrorBadPerlOp:
    case RE2::ErrorRepeatSize:
    case RE2::ErrorPatternTooLarge:
        check.status = RegexStatus::Unsupported;
        check.message = re.error() + " (RE2 cannot run it; Python may)";
        break;
    default:
        check.status = RegexStatus::Invalid;
        check.message = re.error();
        break;
    }
    return check;
}

struct NameRegexSet::Impl {
    RE2::Set set{nameOptions(), RE2::ANCHOR_BOTH};
};

NameRegexSet::NameRegexSet() : m_impl(std::make_unique<Impl>()) {}

NameRegexSet::~NameRegexSet() = default;
NameRegexSet::NameRegexSet(NameRegexSet&&) noexcept = default;
NameRegexSet& NameRegexSet::operator=(NameRegexSet&&) noexcept = default;

bool NameRegexSet::add(const RegexCheck& check)
{
    if (m_compiled || check.status != RegexStatus::Ok)
        return false;
    if (m_impl->set.Add(check.re2Pattern, nullptr) < 0)
        return false;
    ++m_count;
    return true;
}

bool NameRegexSet::compile()
{
    if (m_compiled)
        return true;
    m_compiled = m_count == 0 || m_impl->set.Compile();
    return m_compiled;
}

void NameRegexSet::match(std::string_view text, std::vector<int>& out) const
{
    out.clear();
    if (m_count == 0 || !m_compiled)
        return;
    m_impl->set.Match(text, &out);
    std::sort(out.begin(), out.end());
}

} // namespace relayhud::config
