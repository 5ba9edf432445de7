#include "relayhud/net/body_summary.h"
#include "relayhud/util/ascii.h"
#include "relayhud/util/json_guard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace relayhud::net {
namespace {

constexpr std::size_t kInspectedBytes = 64 * 1024;

bool looksLikeHtml(const std::string& body, const std::string& contentType)
{
    if (lowerAscii(contentType).find("html") != std::string::npos)
        return true;
    const auto start = body.find_first_not_of(" \t\r\n");
    if (start == std::string::npos)
        return false;
    const std::string head = lowerAscii(std::string_view(body).substr(start, 16));
    return head.starts_with("<!doctype html") || head.starts_with("<html");
}

// The text between <title ...> and </title>, or empty.
std::string htmlTitle(const std::string& html, const std::string& lowered)
{
    const auto open = lowered.find("<title");
    if (open == std::string::npos)
        return {};
    const auto textStart = lowered.find('>', open);
    if (textStart == std::string::npos)
        return {};
    const auto close = lowered.find("</title", textStart);
    if (close == std::string::npos)
        return {};
    return html.substr(textStart + 1, close - textStart - 1);
}

// Where the element opened at `tagStart` ends, skipping the content of
// <script> and <style>, which is code rather than text.
std::size_t skipTag(const std::string& lowered, std::size_t tagStart)
{
    for (const std::string_view raw : {"script", "style"}) {
        if (lowered.compare(tagStart + 1, raw.size(), raw) == 0) {
            const auto close = lowered.find("</" + std::string(raw), tagStart);
            if (close != std::string::npos)
                tagStart = close;
            break;
        }
    }
    const auto end = lowered.find('>', tagStart);
    return end == std::string::npos ? lowered.size() : end + 1;
}

std::string htmlText(const std::string& html, const std::string& lowered)
{
    std::string text;
    for (std::size_t i = 0; i < html.size();) {
        if (html[i] == '<') {
            i = skipTag(lowered, i);
            text += ' ';
        } else {
            text += html[i++];
        }
    }
    return text;
}

// Only the entities error pages actually use; the result is plain text.
std::string decodeCommonEntities(std::string text)
{
    static const std::pair<std::string_view, std::string_view> entities[] = {
        {"&lt;", "<"},  {"&gt;", ">"},   {"&quot;", "\""},
        {"&#39;", "'"}, {"&nbsp;", " "}, {"&amp;", "&"}};
    for (const auto& [entity, replacement] : entities) {
        for (auto at = text.find(entity); at != std::string::npos;
             at = text.find(entity, at + replacement.size()))
            text.replace(at, entity.size(), replacement);
    }
    return text;
}

std::string summarizeHtml(const std::string& html)
{
    const std::string lowered = lowerAscii(html);
    std::string title = htmlTitle(html, lowered);
    const bool hasTitle = title.find_first_not_of(" \t\r\n") != std::string::npos;
    return decodeCommonEntities(hasTitle ? title : htmlText(html, lowered));
}

// GitHub and the HUD answer errors with {"message": "..."}.
std::string jsonMessage(const std::string& body)
{
    const auto parsed = parseJsonOrDiscarded(body);
    if (!parsed.is_object())
        return {};
    const auto message = parsed.find("message");
    if (message == parsed.end() || !message->is_string())
        return {};
    return message->get<std::string>();
}

// Control characters (newlines, escape sequences, NULs) become spaces and
// runs of spaces collapse to one.
std::string singleLine(const std::string& text)
{
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool blank = byte < 0x20 || byte == 0x7f || c == ' ';
        if (!blank)
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
    if (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// At most maxChars bytes, "..." included when it is cut.
std::string truncateUtf8(std::string text, std::size_t maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const std::string_view ellipsis = maxChars > 3 ? "..." : "";
    std::size_t cut = maxChars - ellipsis.size();
    // Back off over UTF-8 continuation bytes (10xxxxxx) to a character start.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    text.resize(cut);
    return text.append(ellipsis);
}

} // namespace

std::string summarizeBody(const std::string& body, const std::string& contentType,
                          std::size_t maxChars)
{
    // An error body can be large (a proxy's page, a log dump): look at its
    // head only, which is where titles and messages are.
    const std::string head = body.substr(0, kInspectedBytes);
    std::string summary =
        looksLikeHtml(head, contentType) ? summarizeHtml(head) : jsonMessage(head);
    if (summary.empty())
        summary = head.substr(0, maxChars * 4);
    return truncateUtf8(singleLine(summary), maxChars);
}

} // namespace relayhud::net
