// clusterKey(): one left-to-right pass over a reason. At the start of each
// token it tries, in order: a temp path, a 0x address, a UUID or hash, a
// timestamp, a number (with a duration or size unit after it); anything else
// is copied. Every branch consumes what it looked at, and what a look-ahead
// rejected is copied once, so the cost is linear in the reason.
#include "relayhud/triage/cluster.h"

#include <algorithm>
#include <array>

namespace relayhud::triage {

namespace {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool isWord(char c) { return isDigit(c) || isAlpha(c) || c == '_'; }
constexpr bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

// Characters that end a path: white space, quotes and brackets.
constexpr bool endsPath(char c)
{
    return isSpace(c) || c == '\n' || c == '\'' || c == '"' || c == '`' || c == '(' || c == ')'
           || c == '[' || c == ']' || c == '{' || c == '}' || c == '<' || c == '>' || c == ','
           || c == ';' || c == '=';
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// Python's tempfile names: "tmp" and at least six of [a-z0-9_].
bool isTempName(std::string_view word)
{
    if (word.size() < 9 || !startsWith(word, "tmp"))
        return false;
    for (const char c : word.substr(3))
        if (!(isDigit(c) || (c >= 'a' && c <= 'z') || c == '_'))
            return false;
    return true;
}

bool hasTempComponent(std::string_view path)
{
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
        const std::string_view part = path.substr(start, end - start);
        std::size_t word = 0;
        while (word < part.size() && (isWord(part[word])))
            ++word;
        if (isTempName(part.substr(0, word)) || startsWith(part, "pytest-of-"))
            return true;
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }
    return false;
}

bool isTempPath(std::string_view path)
{
    for (const std::string_view root : {"/tmp/", "/var/tmp/", "/var/folders/",
                                        "/private/var/folders/", "/private/tmp/", "/dev/shm/"})
        if (startsWith(path, root))
            return true;
    return hasTempComponent(path);
}

// Length of the path-like token at the start of `text`; 0 when it is not one
// that varies (a temp path or a tempfile name). `scanned` is how far it read.
std::size_t tempPathLength(std::string_view text, std::size_t& scanned)
{
    std::size_t n = 0;
    while (n < text.size() && !endsPath(text[n]))
        ++n;
    scanned = n;
    // A sentence's full stop or a "path:" label is not part of the path.
    while (n > 0 && (text[n - 1] == '.' || text[n - 1] == ':'))
        --n;
    const std::string_view token = text.substr(0, n);
    if (token.find('/') != std::string_view::npos)
        return isTempPath(token) ? n : 0;
    std::size_t word = 0;
    while (word < token.size() && isWord(token[word]))
        ++word;
    return isTempName(token.substr(0, word)) ? word : 0;
}

std::size_t hexRun(std::string_view text, std::size_t from)
{
    std::size_t n = from;
    while (n < text.size() && isHex(text[n]))
        ++n;
    return n - from;
}

// 8-4-4-4-12 hex digits.
std::size_t uuidLength(std::string_view text)
{
    constexpr std::array<std::size_t, 5> kGroups{8, 4, 4, 4, 12};
    std::size_t at = 0;
    for (std::size_t g = 0; g < kGroups.size(); ++g) {
        if (g > 0) {
            if (at >= text.size() || text[at] != '-')
                return 0;
            ++at;
        }
        if (hexRun(text, at) != kGroups[g])
            return 0;
        at += kGroups[g];
    }
    return at < text.size() && isWord(text[at]) ? 0 : at;
}

// A word of hex digits with at least one digit and one letter: a hash or a
// request id. 8+ of them, or 6+ when a digit leads ("1954C51"): shorter ones
// are more often names ("cafe", "2d", "bf16").
std::size_t hashLength(std::string_view text)
{
    std::size_t n = 0;
    bool digit = false;
    bool letter = false;
    while (n < text.size() && isHex(text[n])) {
        (isDigit(text[n]) ? digit : letter) = true;
        ++n;
    }
    const std::size_t least = !text.empty() && isDigit(text[0]) ? 6 : 8;
    if (n < least || !digit || !letter || (n < text.size() && isWord(text[n])))
        return 0;
    return n;
}

std::size_t numberLength(std::string_view text)
{
    std::size_t n = 0;
    while (n < text.size() && isDigit(text[n]))
        ++n;
    if (n + 1 < text.size() && text[n] == '.' && isDigit(text[n + 1])) {
        n += 1;
        while (n < text.size() && isDigit(text[n]))
            ++n;
    }
    if (n + 1 < text.size() && (text[n] == 'e' || text[n] == 'E')) {
        std::size_t e = n + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-'))
            ++e;
        if (e < text.size() && isDigit(text[e])) {
            while (e < text.size() && isDigit(text[e]))
                ++e;
            n = e;
        }
    }
    return n;
}

// "2026-05-04T20:48:28", "2026-05-04 20:48:28.123Z": a timestamp, not
// six numbers (its seconds would split every instance into its own key).
std::size_t timestampLength(std::string_view t)
{
    auto digits = [&](std::size_t at, std::size_t count) {
        if (at + count > t.size())
            return false;
        for (std::size_t i = at; i < at + count; ++i)
            if (!isDigit(t[i]))
                return false;
        return true;
    };
    if (!digits(0, 4) || t.size() < 19 || t[4] != '-' || !digits(5, 2) || t[7] != '-'
        || !digits(8, 2) || (t[10] != 'T' && t[10] != ' ') || !digits(11, 2) || t[13] != ':'
        || !digits(14, 2) || t[16] != ':' || !digits(17, 2))
        return 0;
    std::size_t n = 19;
    if (n + 1 < t.size() && t[n] == '.' && isDigit(t[n + 1])) {
        ++n;
        while (n < t.size() && isDigit(t[n]))
            ++n;
    }
    if (n < t.size() && t[n] == 'Z')
        ++n;
    return n;
}

struct Unit {
    std::string_view text;
    std::string_view placeholder;
    bool spaced; // may follow the number after one space
};

// Longer spellings first, so "ms" is not read as "m" and "MiB" as "M".
constexpr std::array kUnits{
    Unit{"milliseconds", "<DUR>", true}, Unit{"millisecond", "<DUR>", true},
    Unit{"seconds", "<DUR>", true},      Unit{"second", "<DUR>", true},
    Unit{"minutes", "<DUR>", true},      Unit{"minute", "<DUR>", true},
    Unit{"hours", "<DUR>", true},        Unit{"hour", "<DUR>", true},
    Unit{"secs", "<DUR>", true},         Unit{"sec", "<DUR>", true},
    Unit{"mins", "<DUR>", true},         Unit{"min", "<DUR>", true},
    Unit{"ms", "<DUR>", true},           Unit{"us", "<DUR>", false},
    Unit{"\xC2\xB5s", "<DUR>", true},    Unit{"ns", "<DUR>", false},
    Unit{"s", "<DUR>", false},           Unit{"h", "<DUR>", false},
    Unit{"bytes", "<SIZE>", true},       Unit{"byte", "<SIZE>", true},
    Unit{"KiB", "<SIZE>", true},         Unit{"MiB", "<SIZE>", true},
    Unit{"GiB", "<SIZE>", true},         Unit{"TiB", "<SIZE>", true},
    Unit{"kB", "<SIZE>", true},          Unit{"KB", "<SIZE>", true},
    Unit{"MB", "<SIZE>", true},          Unit{"GB", "<SIZE>", true},
    Unit{"TB", "<SIZE>", true},          Unit{"B", "<SIZE>", false},
};

// The unit right after a number (`text` starts after it) and how much of
// the text it takes, space included; nullptr when none.
const Unit* unitAfter(std::string_view text, std::size_t& length)
{
    const bool spaced = !text.empty() && text[0] == ' ';
    const std::string_view rest = spaced ? text.substr(1) : text;
    for (const Unit& unit : kUnits) {
        if (spaced && !unit.spaced)
            continue;
        if (!startsWith(rest, unit.text))
            continue;
        if (rest.size() > unit.text.size() && isWord(rest[unit.text.size()]))
            continue;
        length = unit.text.size() + (spaced ? 1 : 0);
        return &unit;
    }
    return nullptr;
}

class KeyWriter {
public:
    explicit KeyWriter(std::string& out) : m_out(out) {}

    void put(char c)
    {
        if (isSpace(c)) {
            m_pendingSpace = !m_out.empty();
            return;
        }
        flushSpace();
        m_out.push_back(c);
    }
    void put(std::string_view placeholder)
    {
        flushSpace();
        m_out.append(placeholder);
    }

private:
    void flushSpace()
    {
        if (m_pendingSpace)
            m_out.push_back(' ');
        m_pendingSpace = false;
    }

    std::string& m_out;
    bool m_pendingSpace = false;
};

// Consumes one token-start item of `text` at `i`; false when none applies.
// A path token is looked at once, from its start: `pathsFrom` is where the
// next one may begin, so the parts of a long path are not scanned again.
bool placeholderAt(std::string_view text, std::size_t& i, std::size_t& pathsFrom, KeyWriter& key)
{
    const std::string_view rest = text.substr(i);
    if (i >= pathsFrom) {
        std::size_t scanned = 0;
        const std::size_t n = tempPathLength(rest, scanned);
        pathsFrom = i + std::max<std::size_t>(scanned, 1);
        if (n > 0) {
            key.put("<PATH>");
            i += n;
            return true;
        }
    }
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') && isHex(rest[2])) {
        key.put("<ADDR>");
        i += 2 + hexRun(rest, 2);
        return true;
    }
    if (const std::size_t n = std::max(uuidLength(rest), hashLength(rest)); n > 0) {
        key.put("<HEX>");
        i += n;
        return true;
    }
    if (!isDigit(rest[0]))
        return false;
    if (const std::size_t n = timestampLength(rest); n > 0) {
        key.put("<TIME>");
        i += n;
        return true;
    }
    const std::size_t n = numberLength(rest);
    std::size_t unitLength = 0;
    if (const Unit* unit = unitAfter(rest.substr(n), unitLength)) {
        key.put(unit->placeholder);
        i += n + unitLength;
        return true;
    }
    key.put("<N>");
    i += n;
    return true;
}

} // namespace

void clusterKeyInto(std::string_view reason, std::string& out)
{
    out.clear();
    const std::string_view text = firstMeaningfulLine(reason);
    KeyWriter key(out);
    std::size_t i = 0;
    std::size_t pathsFrom = 0;
    while (i < text.size()) {
        // A token starts after anything but a letter, digit or '_', so the
        // digits of "float16" and "conv2d" stay.
        const bool tokenStart = i == 0 || !isWord(text[i - 1]);
        if (tokenStart && placeholderAt(text, i, pathsFrom, key))
            continue;
        key.put(text[i]);
        ++i;
    }
}

std::string clusterKey(std::string_view reason)
{
    std::string out;
    clusterKeyInto(reason, out);
    return out;
}

} // namespace relayhud::triage
