#include "artifacts/entry_path.h"

#include <algorithm>

namespace relayhud::artifacts {

namespace {

constexpr std::size_t kMaxNameBytes = 255; // NAME_MAX on Linux file systems

bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool hasControlCharacter(const std::string& s)
{
    return std::any_of(s.begin(), s.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f;
    });
}

// After backslashes became slashes: a leading slash, or a drive letter.
bool isAbsolute(const std::string& p)
{
    return (!p.empty() && p.front() == '/')
           || (p.size() >= 2 && isAsciiLetter(p[0]) && p[1] == ':');
}

std::string quoted(const std::string& raw) { return "'" + raw + "'"; }

Result<std::string> joinChecked(const std::vector<std::string>& parts, const std::string& raw,
                                const ArchiveLimits& limits)
{
    if (parts.empty())
        return makeError("entry " + quoted(raw) + " has an empty path");
    if (parts.size() > limits.maxPathDepth)
        return makeError("entry " + quoted(raw) + " is nested " + std::to_string(parts.size())
                         + " deep; the limit is " + std::to_string(limits.maxPathDepth));
    std::string joined;
    for (const auto& part : parts)
        joined += (joined.empty() ? "" : "/") + part;
    if (joined.size() > limits.maxPathBytes)
        return makeError("entry " + quoted(raw.substr(0, 80)) + "... has a path of "
                         + std::to_string(joined.size()) + " bytes; the limit is "
                         + std::to_string(limits.maxPathBytes));
    return joined;
}

} // namespace

std::vector<std::string> pathParts(const std::string& cleaned)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= cleaned.size()) {
        const std::size_t slash = std::min(cleaned.find('/', start), cleaned.size());
        std::string part = cleaned.substr(start, slash - start);
        if (!part.empty() && part != ".")
            parts.push_back(std::move(part));
        start = slash + 1;
    }
    return parts;
}

Result<std::string> cleanEntryPath(const std::string& raw, const ArchiveLimits& limits)
{
    if (hasControlCharacter(raw))
        return makeError("entry " + quoted(raw) + " has a control character in its name");
    std::string slashed = raw;
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    if (isAbsolute(slashed))
        return makeError("entry " + quoted(raw) + " has an absolute path");
    const auto parts = pathParts(slashed);
    for (const auto& part : parts) {
        if (part == "..")
            return makeError("entry " + quoted(raw) + " leaves the extraction folder (..)");
        if (part.size() > kMaxNameBytes)
            return makeError("entry " + quoted(raw.substr(0, 80)) + "... has a name part of "
                             + std::to_string(part.size()) + " bytes");
    }
    return joinChecked(parts, raw, limits);
}

} // namespace relayhud::artifacts
