#include "relayhud/util/utf8.h"

#include <cstdint>
#include <cstring>

namespace relayhud {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

unsigned char byteAt(std::string_view text, std::size_t i)
{
    return static_cast<unsigned char>(text[i]);
}

bool isContinuation(unsigned char c) { return (c & 0xC0U) == 0x80U; }

// The length of the well-formed sequence starting at text[i], or the length of
// its maximal ill-formed prefix (at least 1) negated. The allowed range of the
// second byte is what rules out overlongs, surrogates and code points past
// U+10FFFF (Unicode 15, table 3-7).
long sequenceAt(std::string_view text, std::size_t i)
{
    const unsigned char lead = byteAt(text, i);
    if (lead < 0x80U)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80U, high = 0xBFU;
    if (lead >= 0xC2U && lead <= 0xDFU) {
        length = 2;
    } else if (lead >= 0xE0U && lead <= 0xEFU) {
        length = 3;
        low = lead == 0xE0U ? 0xA0U : 0x80U;
        high = lead == 0xEDU ? 0x9FU : 0xBFU;
    } else if (lead >= 0xF0U && lead <= 0xF4U) {
        length = 4;
        low = lead == 0xF0U ? 0x90U : 0x80U;
        high = lead == 0xF4U ? 0x8FU : 0xBFU;
    } else {
        return -1;
    }
    std::size_t n = 1;
    for (; n < length && i + n < text.size(); ++n) {
        const unsigned char c = byteAt(text, i + n);
        const bool ok = n == 1 ? (c >= low && c <= high) : isContinuation(c);
        if (!ok)
            break;
    }
    const long consumed = static_cast<long>(n);
    return n == length ? consumed : -consumed;
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        // Eight ASCII bytes at a time: test names, messages and tracebacks
        // are nearly all ASCII, and this runs over every one of them.
        if (i + 8 <= text.size()) {
            std::uint64_t eight = 0;
            std::memcpy(&eight, text.data() + i, 8);
            if ((eight & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        if (byteAt(text, i) < 0x80U) {
            ++i;
            continue;
        }
        const long n = sequenceAt(text, i);
        if (n < 0)
            return false;
        i += static_cast<std::size_t>(n);
    }
    return true;
}

void appendSanitizedUtf8(std::string& out, std::string_view text)
{
    if (isValidUtf8(text)) {
        out.append(text);
        return;
    }
    out.reserve(out.size() + text.size() + 16);
    std::size_t i = 0;
    while (i < text.size()) {
        const long n = sequenceAt(text, i);
        if (n > 0)
            out.append(text.substr(i, static_cast<std::size_t>(n)));
        else
            out.append(kReplacement);
        i += static_cast<std::size_t>(n > 0 ? n : -n);
    }
}

std::string sanitizeUtf8(std::string_view text)
{
    std::string out;
    appendSanitizedUtf8(out, text);
    return out;
}

std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return text;
    std::size_t cut = maxBytes;
    // A code point is at most 4 bytes, so at most 3 steps back reach its lead.
    for (int step = 0; step < 3 && cut > 0 && isContinuation(byteAt(text, cut)); ++step)
        --cut;
    return text.substr(0, cut);
}

} // namespace relayhud
