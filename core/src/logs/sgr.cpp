#include "logs/sgr.h"

#include <array>
#include <cstdint>

namespace relayhud::logs {
namespace {

// One ';'-separated parameter with its ':' sub-parameters (ITU T.416 style,
// "38:2::r:g:b"). Missing numbers read as 0; big ones saturate.
struct Param {
    std::array<std::uint32_t, 6> values{};
    std::size_t count = 0;
};

Param parseParam(std::string_view text)
{
    Param p;
    p.count = 1;
    for (char c : text) {
        if (c == ':') {
            if (p.count < p.values.size())
                ++p.count;
            continue;
        }
        if (c < '0' || c > '9' || p.count > p.values.size())
            continue;
        std::uint32_t& v = p.values[p.count - 1];
        v = v > 100000 ? v : v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    return p;
}

std::uint8_t byteOf(std::uint32_t v) { return static_cast<std::uint8_t>(v > 255 ? 255 : v); }

class SgrReader {
public:
    explicit SgrReader(std::string_view params) : m_rest(params) {}
    bool next(Param& p)
    {
        if (m_done)
            return false;
        const std::size_t semi = m_rest.find(';');
        p = parseParam(m_rest.substr(0, semi));
        if (semi == std::string_view::npos)
            m_done = true;
        else
            m_rest.remove_prefix(semi + 1);
        return true;
    }
    std::uint32_t nextValue()
    {
        Param p;
        return next(p) ? p.values[0] : 0;
    }

private:
    std::string_view m_rest;
    bool m_done = false;
};

// 38/48: "5;n" or "2;r;g;b" in the following parameters, or the same as
// sub-parameters of this one ("38:5:n", "38:2:r:g:b", "38:2:cs:r:g:b").
Color extendedColor(const Param& p, SgrReader& reader)
{
    if (p.count > 1) {
        if (p.values[1] == 5 && p.count >= 3)
            return Color::palette(byteOf(p.values[2]));
        if (p.values[1] == 2 && p.count >= 5) {
            const std::size_t first = p.count >= 6 ? 3 : 2;
            return Color::rgb(byteOf(p.values[first]), byteOf(p.values[first + 1]),
                              byteOf(p.values[first + 2]));
        }
        return {};
    }
    const std::uint32_t mode = reader.nextValue();
    if (mode == 5)
        return Color::palette(byteOf(reader.nextValue()));
    if (mode == 2) {
        const std::uint8_t r = byteOf(reader.nextValue());
        const std::uint8_t g = byteOf(reader.nextValue());
        return Color::rgb(r, g, byteOf(reader.nextValue()));
    }
    return {};
}

void applyAttribute(std::uint32_t code, const Param& p, TextStyle& s)
{
    switch (code) {
    case 0: s = TextStyle{}; break;
    case 1: s.bold = true; break;
    case 2: s.dim = true; break;
    case 3: s.italic = true; break;
    case 4: s.underline = p.count < 2 || p.values[1] != 0; break; // 4:0 = no underline
    case 7: s.inverse = true; break;
    case 9: s.strike = true; break;
    case 21: s.underline = true; break; // double underline
    case 22: s.bold = s.dim = false; break;
    case 23: s.italic = false; break;
    case 24: s.underline = false; break;
    case 27: s.inverse = false; break;
    case 29: s.strike = false; break;
    case 39: s.foreground = {}; break;
    case 49: s.background = {}; break;
    default: break; // blink, fonts, frames...: not shown
    }
}

} // namespace

void applySgr(std::string_view params, TextStyle& style)
{
    SgrReader reader(params);
    Param p;
    while (reader.next(p)) {
        const std::uint32_t code = p.values[0];
        if (code >= 30 && code <= 37)
            style.foreground = Color::palette(byteOf(code - 30));
        else if (code >= 40 && code <= 47)
            style.background = Color::palette(byteOf(code - 40));
        else if (code >= 90 && code <= 97)
            style.foreground = Color::palette(byteOf(code - 90 + 8));
        else if (code >= 100 && code <= 107)
            style.background = Color::palette(byteOf(code - 100 + 8));
        else if (code == 38)
            style.foreground = extendedColor(p, reader);
        else if (code == 48)
            style.background = extendedColor(p, reader);
        else
            applyAttribute(code, p, style);
    }
}

} // namespace relayhud::logs
