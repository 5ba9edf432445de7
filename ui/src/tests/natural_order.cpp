#include "relayhud/ui/tests/natural_order.h"

#include <cstddef>

namespace relayhud::ui {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::size_t digitRunEnd(std::string_view s, std::size_t i)
{
    while (i < s.size() && isAsciiDigit(s[i]))
        ++i;
    return i;
}

// Compares the digit runs starting at i and j by value and moves past them.
int compareNumbers(std::string_view a, std::size_t& i, std::string_view b, std::size_t& j)
{
    const std::size_t endA = digitRunEnd(a, i);
    const std::size_t endB = digitRunEnd(b, j);
    while (i + 1 < endA && a[i] == '0') // leading zeros do not make a number bigger
        ++i;
    while (j + 1 < endB && b[j] == '0')
        ++j;
    const std::size_t lenA = endA - i;
    const std::size_t lenB = endB - j;
    int result = lenA < lenB ? -1 : lenA > lenB ? 1 : a.substr(i, lenA).compare(b.substr(j, lenB));
    i = endA;
    j = endB;
    return result;
}

} // namespace

int naturalCompare(std::string_view a, std::string_view b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (isAsciiDigit(a[i]) && isAsciiDigit(b[j])) {
            if (const int c = compareNumbers(a, i, b, j); c != 0)
                return c;
            continue;
        }
        const char ca = lower(a[i]);
        const char cb = lower(b[j]);
        if (ca != cb)
            return static_cast<unsigned char>(ca) < static_cast<unsigned char>(cb) ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < a.size() || j < b.size())
        return i < a.size() ? 1 : -1;
    return a.compare(b) < 0 ? -1 : a.compare(b) > 0 ? 1 : 0;
}

} // namespace relayhud::ui
