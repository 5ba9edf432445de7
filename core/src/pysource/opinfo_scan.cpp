#include "relayhud/pysource/opinfo_scan.h"

#include "logical_lines.h"

#include "relayhud/util/hash.h"

namespace relayhud::pysource {
namespace {

bool opens(const Token& t) { return t.text == "(" || t.text == "[" || t.text == "{"; }
bool closes(const Token& t) { return t.text == ")" || t.text == "]" || t.text == "}"; }

// The text of a plain string literal, prefix and quotes off; "" for an
// f-string or a bytes literal (no op is named so).
std::string literalText(std::string_view token)
{
    std::size_t q = 0;
    while (q < token.size() && token[q] != '\'' && token[q] != '"')
        ++q;
    const std::string_view prefix = token.substr(0, q);
    if (prefix.find_first_of("fFbB") != std::string_view::npos)
        return {};
    const bool triple = token.size() >= q + 6 && token.substr(q, 3) == std::string(3, token[q]);
    const std::size_t quote = triple ? 3 : 1;
    if (token.size() < q + 2 * quote)
        return {};
    return std::string(token.substr(q + quote, token.size() - q - 2 * quote));
}

bool isEntryCall(const std::vector<Token>& t, std::size_t i)
{
    if (i + 2 >= t.size() || t[i].kind != TokenKind::Name || t[i + 1].text != "("
        || t[i + 2].kind != TokenKind::String)
        return false;
    const std::string_view name = t[i].text;
    return name.size() > 4 && name.substr(name.size() - 4) == "Info" && name != "DecorateInfo";
}

// Reads the call at t[i] (its name) into an entry; returns the index just
// past its closing bracket.
std::size_t readEntry(const std::vector<Token>& t, std::size_t i, OpInfoEntry& entry)
{
    entry.kind = std::string(t[i].text);
    entry.line = t[i].line;
    entry.name = literalText(t[i + 2].text);
    std::size_t k = i + 2;
    int positional = 0;
    while (k < t.size() && t[k].text != ")") {
        std::string field = "#" + std::to_string(++positional);
        if (k + 1 < t.size() && t[k].kind == TokenKind::Name && t[k + 1].text == "="
            && !(k + 2 < t.size() && t[k + 2].text == "=")) {
            field = std::string(t[k].text);
            --positional;
            k += 2;
        }
        std::uint64_t hash = kFnv1aOffset;
        const std::size_t valueStart = k;
        int depth = 0;
        for (; k < t.size(); ++k) {
            if (depth == 0 && (t[k].text == "," || t[k].text == ")"))
                break;
            depth += opens(t[k]) ? 1 : closes(t[k]) ? -1 : 0;
            hash = fnv1a(t[k].text, fnv1a(std::string_view("\x1f"), hash));
        }
        if (field == "variant_test_name" && k == valueStart + 1
            && t[valueStart].kind == TokenKind::String)
            entry.variant = literalText(t[valueStart].text);
        entry.fields[field] = hash;
        if (k < t.size() && t[k].text == ",")
            ++k;
    }
    return k + 1;
}

} // namespace

std::vector<OpInfoEntry> scanOpInfos(std::string_view source)
{
    std::vector<OpInfoEntry> out;
    const LogicalLines lines = logicalLines(source);
    for (const LogicalLine& line : lines.lines) {
        const std::vector<Token>& t = line.tokens;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (!isEntryCall(t, i))
                continue;
            OpInfoEntry entry;
            readEntry(t, i, entry);
            if (!entry.name.empty())
                out.push_back(std::move(entry));
            // An entry's own arguments may hold none, but helpers built in
            // a list comprehension may: keep reading after the name only.
            i += 2;
        }
    }
    return out;
}

std::string opInfoFieldFamily(std::string_view field)
{
    const auto starts = [&](std::string_view p) { return field.substr(0, p.size()) == p; };
    if (starts("dtypes") || starts("backward_dtypes")
        || field.find("_dtypes") != std::string_view::npos)
        return "dtypes";
    if (field == "skips" || field == "xfails")
        return "skips";
    if (field == "decorators")
        return "decorators";
    if (starts("sample_inputs") || starts("reference_inputs") || starts("error_inputs"))
        return "sample inputs";
    return std::string(field);
}

} // namespace relayhud::pysource
