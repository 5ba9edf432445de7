#include "logs/search_pattern.h"
#include "logs/cpu_features.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace relayhud::logs {
namespace {

char lowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool isAscii(std::string_view s)
{
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

// Which of RE2's prefilter atoms to search for: the set of at most
// kMaxFinders atoms that every match must contain one of, preferring sets
// whose shortest atom is longest (long literals are rare in a log). A set is
// required when the prefilter fails with all atoms but it present.
std::vector<std::string> choosePrefilter(const re2::FilteredRE2& filter,
                                         const std::vector<std::string>& atoms)
{
    if (atoms.empty() || atoms.size() > 16 || !std::all_of(atoms.begin(), atoms.end(), isAscii))
        return {};
    std::vector<int> present;
    std::vector<int> passing;
    const auto requiredSet = [&](std::uint32_t removed) {
        present.clear();
        for (std::size_t i = 0; i < atoms.size(); ++i)
            if (!(removed & (1U << i)))
                present.push_back(static_cast<int>(i));
        filter.AllPotentials(present, &passing);
        return passing.empty();
    };
    if (!requiredSet((1U << atoms.size()) - 1))
        return {}; // can match with no atom at all
    std::uint32_t best = 0;
    std::size_t bestScore = 0;
    for (std::uint32_t set = 1; set < (1U << atoms.size()); ++set) {
        const auto size = static_cast<std::size_t>(__builtin_popcount(set));
        if (size > kMaxFinders || !requiredSet(set))
            continue;
        std::size_t shortest = SIZE_MAX;
        for (std::size_t i = 0; i < atoms.size(); ++i)
            if (set & (1U << i))
                shortest = std::min(shortest, atoms[i].size());
        const auto bestSize = static_cast<std::size_t>(__builtin_popcount(best));
        if (shortest > bestScore || (shortest == bestScore && size < bestSize)) {
            best = set;
            bestScore = shortest;
        }
    }
    std::vector<std::string> chosen;
    for (std::size_t i = 0; i < atoms.size(); ++i)
        if (best & (1U << i))
            chosen.push_back(atoms[i]);
    return chosen;
}

std::unique_ptr<re2::RE2> compileRegex(const std::string& pattern, bool caseSensitive,
                                       bool multiLine, std::string& error)
{
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_case_sensitive(caseSensitive);
    options.set_never_nl(true);
    // The DFA's state cache: big enough that a block search rarely resets it.
    options.set_max_mem(64 << 20);
    auto re = std::make_unique<re2::RE2>((multiLine ? "(?m)" : "") + pattern, options);
    if (!re->ok()) {
        error = re->error();
        return nullptr;
    }
    return re;
}

} // namespace

LiteralFinder::LiteralFinder(std::string needle, bool fold)
    : m_needle(std::move(needle)), m_fold(fold)
{
    if (m_fold)
        for (char& c : m_needle)
            c = lowerAscii(c);
}

bool LiteralFinder::matchesAt(const char* p) const
{
    if (!m_fold)
        return std::memcmp(p, m_needle.data(), m_needle.size()) == 0;
    for (std::size_t i = 0; i < m_needle.size(); ++i)
        if (lowerAscii(p[i]) != m_needle[i])
            return false;
    return true;
}

namespace {

#if defined(__x86_64__)
// The same filter 64 bytes at a time with AVX2; returns where it stopped
// (fewer than 64 + n - 1 bytes before `end`) when nothing was found.
__attribute__((target("avx2"))) const char* findAvx2(const char* p, const char* last,
                                                     const LiteralFinder& finder, char first,
                                                     char final, bool foldFirst, bool foldFinal,
                                                     std::size_t n, const char** found)
{
    const __m256i firstFold = _mm256_set1_epi8(foldFirst ? 0x20 : 0);
    const __m256i finalFold = _mm256_set1_epi8(foldFinal ? 0x20 : 0);
    const __m256i firstByte = _mm256_set1_epi8(first);
    const __m256i finalByte = _mm256_set1_epi8(final);
    for (; last - p >= 64; p += 64) {
        const auto* a = reinterpret_cast<const __m256i*>(p);
        const auto* b = reinterpret_cast<const __m256i*>(p + n - 1);
        const __m256i lo = _mm256_and_si256(
            _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256(a), firstFold), firstByte),
            _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256(b), finalFold), finalByte));
        const __m256i hi = _mm256_and_si256(
            _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256(a + 1), firstFold), firstByte),
            _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256(b + 1), finalFold), finalByte));
        if (_mm256_testz_si256(_mm256_or_si256(lo, hi), _mm256_or_si256(lo, hi)))
            continue;
        auto mask =
            static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)))
            | static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi)))
                  << 32;
        while (mask != 0) {
            const char* candidate = p + __builtin_ctzll(mask);
            if (finder.matchesAt(candidate)) {
                *found = candidate;
                return p;
            }
            mask &= mask - 1;
        }
    }
    return p;
}

#endif

} // namespace

const char* LiteralFinder::find(const char* begin, const char* end) const
{
    const std::size_t n = m_needle.size();
    if (n == 0 || static_cast<std::size_t>(end - begin) < n)
        return end;
    const char* last = end - n; // the last position a match can start at
    const char* p = begin;
    const char first = m_needle.front();
    const char final = m_needle.back();
    // OR-ing 0x20 lower-cases ASCII letters; other bytes keep their exact compare.
    const bool foldFirst = m_fold && isAsciiLetter(first);
    const bool foldFinal = m_fold && isAsciiLetter(final);
#if defined(__x86_64__)
    if (kHaveAvx2) {
        const char* found = nullptr;
        p = findAvx2(p, last, *this, first, final, foldFirst, foldFinal, n, &found);
        if (found)
            return found;
    }
#endif
#if defined(__SSE2__)
    const __m128i firstFold = _mm_set1_epi8(foldFirst ? 0x20 : 0);
    const __m128i finalFold = _mm_set1_epi8(foldFinal ? 0x20 : 0);
    const __m128i firstByte = _mm_set1_epi8(first);
    const __m128i finalByte = _mm_set1_epi8(final);
    for (; last - p >= 16; p += 16) {
        const __m128i a =
            _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), firstFold);
        const __m128i b =
            _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 1)), finalFold);
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, firstByte), _mm_cmpeq_epi8(b, finalByte))));
        while (mask != 0) {
            const char* candidate = p + __builtin_ctz(mask);
            if (matchesAt(candidate))
                return candidate;
            mask &= mask - 1;
        }
    }
#endif
    for (; p <= last; ++p)
        if (matchesAt(p))
            return p;
    return end;
}

Result<std::shared_ptr<const CompiledPattern>> CompiledPattern::compile(const SearchQuery& query)
{
    std::shared_ptr<CompiledPattern> c(new CompiledPattern);
    c->m_query = query;
    const bool literal = query.syntax == SearchSyntax::Literal;
    if (literal && query.pattern.empty()) {
        c->m_everything = true;
        return std::shared_ptr<const CompiledPattern>(std::move(c));
    }
    if (literal && query.pattern.find_first_of("\r\n") != std::string::npos) {
        c->m_nothing = true;
        return std::shared_ptr<const CompiledPattern>(std::move(c));
    }
    // Lower-casing non-ASCII text needs Unicode case folding: RE2 does it.
    if (literal && (query.caseSensitive || isAscii(query.pattern))) {
        c->m_literal = std::make_unique<LiteralFinder>(query.pattern, !query.caseSensitive);
        return std::shared_ptr<const CompiledPattern>(std::move(c));
    }
    std::string error;
    const std::string pattern = literal ? re2::RE2::QuoteMeta(query.pattern) : query.pattern;
    c->m_regex = compileRegex(pattern, query.caseSensitive, true, error);
    if (!c->m_regex)
        return makeError("invalid regular expression '" + query.pattern + "': " + error);
    c->m_lineRegex = compileRegex(pattern, query.caseSensitive, false, error);
    if (!c->m_lineRegex)
        return makeError("invalid regular expression '" + query.pattern + "': " + error);
    re2::FilteredRE2 filter(3);
    int id = 0;
    std::vector<std::string> atoms;
    if (filter.Add(c->m_regex->pattern(), c->m_regex->options(), &id) == re2::RE2::NoError) {
        filter.Compile(&atoms);
        for (auto& atom : choosePrefilter(filter, atoms)) {
            c->m_prefilterFinders.push_back(std::make_unique<LiteralFinder>(std::move(atom), true));
            c->m_prefilter.push_back(c->m_prefilterFinders.back().get());
        }
    }
    return std::shared_ptr<const CompiledPattern>(std::move(c));
}

CompiledPattern::~CompiledPattern() = default;

CompiledPattern::RegexCopies CompiledPattern::copyRegexes() const
{
    if (!m_regex)
        return {};
    return {std::make_unique<re2::RE2>(m_regex->pattern(), m_regex->options()),
            std::make_unique<re2::RE2>(m_lineRegex->pattern(), m_lineRegex->options())};
}

bool CompiledPattern::find(std::string_view text, std::size_t from, TextRange& found,
                           std::size_t to, const re2::RE2* regex) const
{
    if (m_everything || m_nothing)
        return false;
    to = std::min(to, text.size());
    if (m_literal) {
        const char* end = text.data() + to;
        const char* hit = m_literal->find(text.data() + from, end);
        if (hit == end)
            return false;
        found = {static_cast<std::size_t>(hit - text.data()), m_literal->size()};
        return true;
    }
    re2::StringPiece match;
    const re2::RE2& re = regex ? *regex : *m_regex;
    if (!re.Match(re2::StringPiece(text.data(), text.size()), from, to, re2::RE2::UNANCHORED,
                  &match, 1))
        return false;
    found = {static_cast<std::size_t>(match.data() - text.data()), match.size()};
    return true;
}

bool CompiledPattern::contains(std::string_view text, const re2::RE2* lineRegex) const
{
    if (m_everything || m_nothing)
        return m_everything;
    if (m_literal) {
        const char* end = text.data() + text.size();
        return m_literal->find(text.data(), end) != end;
    }
    const re2::RE2& re = lineRegex ? *lineRegex : *m_lineRegex;
    return re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(),
                    re2::RE2::UNANCHORED, nullptr, 0);
}

} // namespace relayhud::logs

namespace relayhud {

TextMatcher::TextMatcher(std::shared_ptr<const logs::CompiledPattern> pattern)
    : m_pattern(std::move(pattern))
{
}

Result<TextMatcher> TextMatcher::compile(const SearchQuery& query)
{
    auto pattern = logs::CompiledPattern::compile(query);
    if (!pattern)
        return pattern.error();
    return TextMatcher(std::move(*pattern));
}

const SearchQuery& TextMatcher::query() const { return m_pattern->query(); }

bool TextMatcher::contains(std::string_view text) const { return m_pattern->contains(text); }

void TextMatcher::findAll(std::string_view text, std::vector<TextRange>& out) const
{
    TextRange found;
    std::size_t from = 0;
    while (from <= text.size() && m_pattern->find(text, from, found)) {
        if (found.length > 0)
            out.push_back(found);
        from = found.start + (found.length > 0 ? found.length : 1);
    }
}

} // namespace relayhud
