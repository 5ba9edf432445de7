#include "relayhud/util/terminal_text.h"

namespace relayhud {
namespace {

constexpr unsigned char kC1Lead = 0xC2; // U+0080-U+00BF: C2 80-BF; C1 is C2 80-9F

bool isC1Trail(unsigned char c) { return c >= 0x80 && c <= 0x9F; }

// The control picture of a C0 control or DEL, in UTF-8.
void appendPicture(std::string& out, unsigned char c)
{
    const unsigned int code = c == 0x7F ? 0x2421 : 0x2400 + c;
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
}

bool isHidden(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F; }

// Appends `text` made visible; `pendingLead` carries a 0xC2 byte across calls.
void convert(std::string_view text, bool& pendingLead, std::string& out)
{
    std::size_t i = 0;
    if (pendingLead && !text.empty()) {
        const auto c = static_cast<unsigned char>(text[0]);
        if (isC1Trail(c)) {
            out += "\xEF\xBF\xBD";
            i = 1;
        } else {
            out += static_cast<char>(kC1Lead);
        }
        pendingLead = false;
    }
    std::size_t plain = i;
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != 0x7F && c != kC1Lead)
            continue;
        if (c < 0x20 && !isHidden(c))
            continue;
        out.append(text.substr(plain, i - plain));
        if (c == kC1Lead) {
            if (i + 1 == text.size()) {
                pendingLead = true;
            } else if (isC1Trail(static_cast<unsigned char>(text[i + 1]))) {
                out += "\xEF\xBF\xBD";
                ++i;
            } else {
                out += static_cast<char>(c);
            }
        } else {
            appendPicture(out, c);
        }
        plain = i + 1;
    }
    if (plain < text.size())
        out.append(text.substr(plain));
}

} // namespace

std::string visibleControls(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    bool pending = false;
    convert(text, pending, out);
    if (pending)
        out += static_cast<char>(kC1Lead);
    return out;
}

std::string oneLine(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (c == '\t' || c == '\n' || c == '\r')
            appendPicture(out, static_cast<unsigned char>(c));
        else
            out += c;
    }
    return out;
}

VisibleControlsBuf::~VisibleControlsBuf()
{
    if (m_pendingLead) {
        const char lead = static_cast<char>(kC1Lead);
        m_target->sputn(&lead, 1);
    }
    m_target->pubsync();
}

void VisibleControlsBuf::put(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    convert(text, m_pendingLead, out);
    m_target->sputn(out.data(), static_cast<std::streamsize>(out.size()));
}

VisibleControlsBuf::int_type VisibleControlsBuf::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    put(std::string_view(&ch, 1));
    return c;
}

std::streamsize VisibleControlsBuf::xsputn(const char* s, std::streamsize n)
{
    put(std::string_view(s, static_cast<std::size_t>(n)));
    return n;
}

int VisibleControlsBuf::sync() { return m_target->pubsync(); }

} // namespace relayhud
