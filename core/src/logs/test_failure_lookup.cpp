// LogStructure::findTestFailure: from a pytest node id to the log line where
// pytest tells that test's failure.
#include "relayhud/logs/log_structure.h"

#include <vector>

namespace relayhud {
namespace {

std::vector<std::string_view> splitNodeId(std::string_view id)
{
    std::vector<std::string_view> parts;
    for (std::size_t at = 0;;) {
        const std::size_t sep = id.find("::", at);
        parts.push_back(id.substr(at, sep == std::string_view::npos ? sep : sep - at));
        if (sep == std::string_view::npos)
            return parts;
        at = sep + 2;
    }
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Files agree when one path ends with the other at a folder boundary
// ("test/distributed/test_x.py" and "distributed/test_x.py").
bool sameFile(std::string_view a, std::string_view b)
{
    if (a.size() < b.size())
        std::swap(a, b);
    return a == b || (endsWith(a, b) && a[a.size() - b.size() - 1] == '/');
}

struct NodeId {
    std::string_view file;  // "" when the id has no file part
    std::string scopedName; // "Class::test" or "test"
    std::string dottedName; // "Class.test" or "test", as pytest's section headers
};

NodeId parseNodeId(std::string_view id)
{
    auto parts = splitNodeId(id);
    NodeId n;
    if (parts.size() > 1
        && (parts.front().find(".py") != std::string_view::npos
            || parts.front().find('/') != std::string_view::npos)) {
        n.file = parts.front();
        parts.erase(parts.begin());
    }
    for (std::size_t i = 0; i < parts.size(); ++i) {
        n.scopedName += (i ? "::" : "") + std::string(parts[i]);
        n.dottedName += (i ? "." : "") + std::string(parts[i]);
    }
    return n;
}

bool failedLineNames(const Landmark& m, const NodeId& id)
{
    const NodeId other = parseNodeId(m.title);
    return other.scopedName == id.scopedName
           && (other.file.empty() || id.file.empty() || sameFile(other.file, id.file));
}

} // namespace

std::optional<LineNumber> LogStructure::findTestFailure(std::string_view testIdentity) const
{
    const NodeId id = parseNodeId(testIdentity);
    if (id.scopedName.empty())
        return std::nullopt;
    // With reruns pytest writes a section per attempt: the last is the final
    // failure (and the one the log classifier points at).
    std::optional<LineNumber> section;
    std::optional<LineNumber> failedLine;
    for (const auto& m : landmarks()) {
        if (m.kind == LandmarkKind::TestSection && m.title == id.dottedName)
            section = m.line;
        if (m.kind == LandmarkKind::TestFailed && !failedLine && failedLineNames(m, id))
            failedLine = m.line;
    }
    return section ? section : failedLine;
}

} // namespace relayhud
